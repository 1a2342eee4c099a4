// The sandbox started with chain id 80002 and its contracts at Polymarket's Amoy addresses, so a client that
// hard-codes Amoy's configuration signs for the sandbox unchanged.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Contract, TypedDataEncoder, Wallet, ZeroAddress, ZeroHash, parseUnits, type JsonRpcProvider } from 'ethers';
import { AMOY_CHAIN_ID, startChain, type Chain } from '../../sandbox/chain/anvil.js';
import { compileContracts } from '../../sandbox/chain/compile.js';
import {
  AMOY_CONTRACTS,
  TX_OVERRIDES,
  deploySandbox,
  mined,
  sandboxProvider,
  type Deployment,
  type OrderVersion,
} from '../../sandbox/chain/deploy.js';
import {
  ORDER_TYPES,
  SIDE,
  exchangeDomain,
  signedMessage,
  type ExchangeOrder,
} from '../../sandbox/chain/order-typed-data.js';

const usdc = (amount: number): bigint => parseUnits(String(amount), 6);

function order(maker: Wallet, side: number, tokenId: bigint, makerAmount: bigint, takerAmount: bigint): ExchangeOrder {
  return {
    salt: 42n,
    maker: maker.address,
    signer: maker.address,
    taker: ZeroAddress,
    tokenId,
    makerAmount,
    takerAmount,
    expiration: 0n,
    nonce: 0n,
    feeRateBps: 0n,
    side,
    signatureType: 0,
    timestamp: 1_780_000_000_000n,
    metadata: ZeroHash,
    builder: ZeroHash,
    signature: '0x',
  };
}

/** Signs with Amoy's published domain: chain 80002 and the Amoy exchange address, nothing read from the sandbox. */
async function signForAmoy(o: ExchangeOrder, wallet: Wallet, version: OrderVersion, verifyingContract: string) {
  const signature = await wallet.signTypedData(
    exchangeDomain(version, AMOY_CHAIN_ID, verifyingContract),
    ORDER_TYPES[version],
    signedMessage(version, o),
  );
  return { ...o, signature };
}

describe.each([1, 2] as const)('order version %i at Amoy addresses', (version) => {
  let chain: Chain;
  let provider: JsonRpcProvider;
  let deployment: Deployment;
  let exchange: Contract;
  let operator: Wallet;
  let alice: Wallet;
  let bob: Wallet;
  const amoy = AMOY_CONTRACTS[version];

  beforeAll(async () => {
    chain = await startChain({ chainId: AMOY_CHAIN_ID });
    deployment = await deploySandbox(chain, { orderVersion: version, addresses: 'amoy' });
    provider = sandboxProvider(chain.rpcUrl, chain.chainId);
    operator = new Wallet(deployment.operator.privateKey, provider);
    [alice, bob] = deployment.testWallets.map((w) => new Wallet(w.privateKey, provider)) as [Wallet, Wallet];
    exchange = new Contract(amoy.exchange, compileContracts().CTFExchange.abi, operator);
  });

  afterAll(async () => {
    provider?.destroy();
    await chain?.stop();
  });

  it('reports Polymarket’s Amoy addresses, with code at each', async () => {
    expect(deployment.contracts).toEqual({
      collateral: expect.stringMatching(new RegExp(`^${amoy.collateral}$`, 'i')),
      conditionalTokens: amoy.conditionalTokens,
      exchange: amoy.exchange,
      negRiskExchange: amoy.negRiskExchange,
      negRiskAdapter: amoy.negRiskAdapter,
      // No Amoy address is known for these: they stay where they were deployed.
      usdcE: expect.stringMatching(/^0x[0-9a-fA-F]{40}$/),
      collateralOnramp: expect.stringMatching(/^0x[0-9a-fA-F]{40}$/),
    });
    for (const address of Object.values(deployment.contracts)) expect(await provider.getCode(address)).not.toBe('0x');
    expect(await exchange.getFunction('getCollateral')()).toMatch(new RegExp(`^${amoy.collateral}$`, 'i'));
    expect(await exchange.getFunction('isAdmin')(operator.address)).toBe(true);
    expect(await exchange.getFunction('orderVersion')()).toBe(BigInt(version));
  });

  it('hashes an order exactly as Amoy’s published domain does', async () => {
    const o = order(alice, SIDE.BUY, 1n, usdc(1), usdc(2));
    const domain = exchangeDomain(version, AMOY_CHAIN_ID, amoy.exchange);
    expect(await exchange.getFunction('hashOrder')(o)).toBe(
      TypedDataEncoder.hash(domain, ORDER_TYPES[version], signedMessage(version, o)),
    );
  });

  it('settles a MINT between orders signed for Amoy’s exchange', async () => {
    const [yes, no] = deployment.markets.find((m) => !m.negRisk)!.tokenIds.map(BigInt) as [bigint, bigint];
    const taker = await signForAmoy(order(alice, SIDE.BUY, yes, usdc(6), usdc(10)), alice, version, amoy.exchange);
    const maker = await signForAmoy(
      { ...order(bob, SIDE.BUY, no, usdc(4), usdc(10)), salt: 43n },
      bob,
      version,
      amoy.exchange,
    );
    await mined(exchange.getFunction('matchOrders')(taker, [maker], usdc(6), [usdc(4)], TX_OVERRIDES));
    const ctf = new Contract(
      amoy.conditionalTokens,
      ['function balanceOf(address,uint256) view returns (uint256)'],
      provider,
    );
    expect(await ctf.getFunction('balanceOf')(alice.address, yes)).toBe(usdc(10));
    expect(await ctf.getFunction('balanceOf')(bob.address, no)).toBe(usdc(10));
  });

  it('settles a MINT on the neg-risk exchange through the adapter at its Amoy address', async () => {
    const [a, notA] = deployment.markets.find((m) => m.negRisk)!.tokenIds.map(BigInt) as [bigint, bigint];
    const negRiskExchange = exchange.attach(amoy.negRiskExchange!) as Contract;
    const taker = await signForAmoy(
      order(alice, SIDE.BUY, a, usdc(3), usdc(10)),
      alice,
      version,
      amoy.negRiskExchange!,
    );
    const maker = await signForAmoy(
      { ...order(bob, SIDE.BUY, notA, usdc(7), usdc(10)), salt: 44n },
      bob,
      version,
      amoy.negRiskExchange!,
    );
    await mined(negRiskExchange.getFunction('matchOrders')(taker, [maker], usdc(3), [usdc(7)], TX_OVERRIDES));
    const ctf = new Contract(
      amoy.conditionalTokens,
      ['function balanceOf(address,uint256) view returns (uint256)'],
      provider,
    );
    expect(await ctf.getFunction('balanceOf')(alice.address, a)).toBe(usdc(10));
  });
});

describe('Amoy addresses', () => {
  it('are refused on a chain that is not 80002', async () => {
    const chain = await startChain();
    try {
      await expect(deploySandbox(chain, { addresses: 'amoy' })).rejects.toThrow(/chain id 80002/);
    } finally {
      await chain.stop();
    }
  });
});
