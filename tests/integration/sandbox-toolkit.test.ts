// The two sides check each other: orders built and signed by the toolkit's own order builder (not the sandbox's
// typed data) hash and verify on the sandbox's exchange contracts and settle there, for versions 1 and 2, for
// neg-risk markets, and at Amoy addresses with the toolkit's built-in Amoy profile.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Contract, Wallet, type JsonRpcProvider } from 'ethers';
import { AMOY_CHAIN_ID, startSandboxChain, type SandboxChain } from '../../sandbox/chain/index.js';
import { compileContracts, conditionalTokensArtifact } from '../../sandbox/chain/compile.js';
import { TX_OVERRIDES, deployExchange, mined, sandboxProvider, type OrderVersion } from '../../sandbox/chain/deploy.js';
import { exchangeOrderFromJson, type JsonOrder } from '../../sandbox/chain/order-typed-data.js';
import { OrderBuilder, type BuiltOrder } from '../../packages/toolkit/src/orders/builder.js';
import { privateKeySigner } from '../../packages/toolkit/src/orders/signer.js';
import type { NetworkProfile } from '../../packages/toolkit/src/chain/networks.js';

/** The toolkit's profile for a sandbox deployment: its exchanges stand in for every version's addresses. */
function sandboxProfile(sandbox: SandboxChain, v1Exchange = sandbox.contracts.exchange): NetworkProfile {
  const c = sandbox.contracts;
  return {
    name: 'sandbox',
    chainId: sandbox.chainId,
    contracts: {
      exchange: v1Exchange,
      negRiskExchange: c.negRiskExchange,
      negRiskAdapter: c.negRiskAdapter,
      collateral: c.collateral,
      conditionalTokens: c.conditionalTokens,
      exchangeV2: c.exchange,
      negRiskExchangeV2: c.negRiskExchange,
      exchangeV3: c.exchange,
    },
  };
}

function onChain(built: BuiltOrder) {
  return exchangeOrderFromJson(built.signedOrder as unknown as JsonOrder);
}

describe('toolkit orders on the sandbox exchange', () => {
  let sandbox: SandboxChain;
  let provider: JsonRpcProvider;
  let operator: Wallet;
  let exchange: Contract;
  let negRiskExchange: Contract;
  let exchangeV1: Contract;
  let ctf: Contract;
  let builder: OrderBuilder;
  let alice: string;

  beforeAll(async () => {
    sandbox = await startSandboxChain();
    provider = sandboxProvider(sandbox.rpcUrl, sandbox.chainId);
    operator = new Wallet(sandbox.operator.privateKey, provider);
    const compiled = compileContracts();
    exchange = new Contract(sandbox.contracts.exchange, compiled.CTFExchange.abi, operator);
    negRiskExchange = new Contract(sandbox.contracts.negRiskExchange, compiled.CTFExchange.abi, operator);
    ctf = new Contract(sandbox.contracts.conditionalTokens, conditionalTokensArtifact().abi, operator);
    exchangeV1 = await deployExchange(operator, compiled, {
      collateral: sandbox.contracts.collateral,
      conditionalTokens: sandbox.contracts.conditionalTokens,
      outcomeTokenFactory: sandbox.contracts.conditionalTokens,
      orderVersion: 1,
    });
    const [yes, no] = sandbox.markets.find((m) => !m.negRisk)!.tokenIds;
    await mined(exchangeV1.getFunction('registerToken')(yes, no, sandbox.markets[0]!.conditionId, TX_OVERRIDES));
    const aliceWallet = new Wallet(sandbox.testWallets[0]!.privateKey, provider);
    alice = aliceWallet.address;
    const collateral = new Contract(sandbox.contracts.collateral, compiled.Collateral.abi, aliceWallet);
    await mined(collateral.getFunction('approve')(await exchangeV1.getAddress(), 2n ** 255n, TX_OVERRIDES));
    // The operator is the counterparty of fillOrder: it needs shares to sell and allowances on the V1 exchange.
    const operatorCollateral = collateral.connect(operator) as Contract;
    await mined(operatorCollateral.getFunction('approve')(await exchangeV1.getAddress(), 2n ** 255n, TX_OVERRIDES));
    await mined(ctf.getFunction('setApprovalForAll')(await exchangeV1.getAddress(), true, TX_OVERRIDES));
    for (const market of sandbox.markets) {
      await mined(
        ctf.getFunction('splitPosition')(
          sandbox.contracts.collateral,
          `0x${'0'.repeat(64)}`,
          market.conditionId,
          [1, 2],
          1_000_000_000n,
          TX_OVERRIDES,
        ),
      );
    }
    const profile = sandboxProfile(sandbox, await exchangeV1.getAddress());
    const signer = privateKeySigner(sandbox.testWallets[0]!.privateKey);
    builder = new OrderBuilder({ signer, chainId: sandbox.chainId, networks: [profile] });
  });

  afterAll(async () => {
    provider?.destroy();
    await sandbox?.stop();
  });

  const yes = (): string => sandbox.markets.find((m) => !m.negRisk)!.tokenIds[0];
  const sharesOf = async (tokenId: string): Promise<bigint> =>
    (await ctf.getFunction('balanceOf')(alice, tokenId)) as bigint;

  it.each([2, 1] as OrderVersion[])(
    'a version-%i limit BUY from the toolkit has the same hash on chain and fills',
    async (version) => {
      const venue = version === 1 ? exchangeV1 : exchange;
      const built = await builder.buildLimitOrder(
        { tokenId: yes(), side: 'BUY', price: 0.56, size: 21.04 },
        { tickSize: '0.01', negRisk: false, version },
      );
      const order = onChain(built);
      expect(await venue.getFunction('hashOrder')(order)).toBe(built.orderHash);
      const before = await sharesOf(yes());
      await mined(venue.getFunction('fillOrder')(order, order.makerAmount, TX_OVERRIDES));
      expect((await sharesOf(yes())) - before).toBe(21_040_000n);
    },
  );

  it('a neg-risk order from the toolkit verifies on the neg-risk exchange and nowhere else', async () => {
    const market = sandbox.markets.find((m) => m.negRisk)!;
    const built = await builder.buildLimitOrder(
      { tokenId: market.tokenIds[0], side: 'BUY', price: 0.3, size: 10 },
      { tickSize: '0.01', negRisk: true, version: 2 },
    );
    expect(built.verifyingContract).toBe(sandbox.contracts.negRiskExchange);
    const order = onChain(built);
    // The standard exchange hashes the order under its own domain, so the signature cannot match.
    const refused = await exchange
      .getFunction('fillOrder')
      .staticCall(order, order.makerAmount, TX_OVERRIDES)
      .then(
        () => 'accepted',
        (error: { data?: string }) => exchange.interface.parseError(error.data ?? '0x')?.name,
      );
    expect(refused).toBe('InvalidSignature');
    await mined(negRiskExchange.getFunction('fillOrder')(order, order.makerAmount, TX_OVERRIDES));
    expect(await sharesOf(market.tokenIds[0])).toBe(10_000_000n);
  });
});

describe('toolkit orders at Amoy addresses', () => {
  let sandbox: SandboxChain;
  let provider: JsonRpcProvider;

  beforeAll(async () => {
    sandbox = await startSandboxChain({ chainId: AMOY_CHAIN_ID, addresses: 'amoy' });
    provider = sandboxProvider(sandbox.rpcUrl, sandbox.chainId);
  });

  afterAll(async () => {
    provider?.destroy();
    await sandbox?.stop();
  });

  it('the toolkit’s built-in Amoy profile signs orders the sandbox fills', async () => {
    const operator = new Wallet(sandbox.operator.privateKey, provider);
    const compiled = compileContracts();
    const exchange = new Contract(sandbox.contracts.exchange, compiled.CTFExchange.abi, operator);
    const ctf = new Contract(sandbox.contracts.conditionalTokens, conditionalTokensArtifact().abi, operator);
    const market = sandbox.markets.find((m) => !m.negRisk)!;
    await mined(
      ctf.getFunction('splitPosition')(
        sandbox.contracts.collateral,
        `0x${'0'.repeat(64)}`,
        market.conditionId,
        [1, 2],
        100_000_000n,
        TX_OVERRIDES,
      ),
    );

    // No custom network: chain id 80002 selects the toolkit's own Amoy addresses.
    const builder = new OrderBuilder({
      signer: privateKeySigner(sandbox.testWallets[0]!.privateKey),
      chainId: AMOY_CHAIN_ID,
    });
    const built = await builder.buildLimitOrder(
      { tokenId: market.tokenIds[0], side: 'BUY', price: 0.5, size: 10 },
      { tickSize: '0.01', negRisk: false, version: 2 },
    );
    expect(built.verifyingContract).toBe(sandbox.contracts.exchange);

    await mined(exchange.getFunction('fillOrder')(onChain(built), 5_000_000n, TX_OVERRIDES));
    expect(await ctf.getFunction('balanceOf')(sandbox.testWallets[0]!.address, market.tokenIds[0])).toBe(10_000_000n);
  });
});
