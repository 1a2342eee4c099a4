// The sandbox's contracts on a real anvil chain: deployment, order hashing and signatures, NORMAL/MINT/MERGE
// settlement against Gnosis ConditionalTokens, fills, fees, cancels, roles, pause, the registry, the neg-risk
// exchange, and every rejection with its custom error. Orders are signed with ethers' signTypedData directly.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  Contract,
  TypedDataEncoder,
  Wallet,
  ZeroAddress,
  ZeroHash,
  getCreateAddress,
  parseUnits,
  type ContractTransactionReceipt,
  type ContractTransactionResponse,
  type JsonRpcProvider,
} from 'ethers';
import { startChain, type Chain } from '../../sandbox/chain/anvil.js';
import { compileContracts, conditionalTokensArtifact } from '../../sandbox/chain/compile.js';
import {
  TX_OVERRIDES,
  addMarket,
  deployExchange,
  deploySandbox,
  mined,
  openAccount,
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
const shares = usdc;
/** price × size in collateral base units, in integers so no float rounding reaches a signed amount. */
const notional = (price: number, size: number): bigint => (usdc(price) * shares(size)) / 1_000_000n;

let chain: Chain;
let provider: JsonRpcProvider;
let deployment: Deployment;
let operator: Wallet;
let alice: Wallet;
let bob: Wallet;
let carol: Wallet;
let mallory: Wallet;
let collateral: Contract;
let ctf: Contract;
let exchange: Contract;
let negRiskExchange: Contract;
let exchangeV1: Contract;
let yes: bigint;
let no: bigint;
let conditionId: string;
let snapshot: string;

/** An exchange instance and the order version it verifies. */
interface Venue {
  contract: Contract;
  version: OrderVersion;
}
let standard: Venue;
let negRisk: Venue;
let legacy: Venue;

beforeAll(async () => {
  chain = await startChain();
  deployment = await deploySandbox(chain);
  provider = sandboxProvider(chain.rpcUrl, chain.chainId);
  operator = new Wallet(deployment.operator.privateKey, provider);
  [alice, bob, carol, mallory] = deployment.testWallets.map((w) => new Wallet(w.privateKey, provider)) as [
    Wallet,
    Wallet,
    Wallet,
    Wallet,
  ];
  const compiled = compileContracts();
  collateral = new Contract(deployment.contracts.collateral, compiled.Collateral.abi, operator);
  ctf = new Contract(deployment.contracts.conditionalTokens, conditionalTokensArtifact().abi, operator);
  exchange = new Contract(deployment.contracts.exchange, compiled.CTFExchange.abi, operator);
  negRiskExchange = new Contract(deployment.contracts.negRiskExchange, compiled.CTFExchange.abi, operator);
  const binary = deployment.markets.find((m) => !m.negRisk)!;
  [yes, no] = binary.tokenIds.map(BigInt) as [bigint, bigint];
  conditionId = binary.conditionId;

  // A version-1 exchange beside the default version-2 pair: nonces, private takers and signed fees live there.
  exchangeV1 = await deployExchange(operator, compiled, {
    collateral: deployment.contracts.collateral,
    conditionalTokens: deployment.contracts.conditionalTokens,
    outcomeTokenFactory: deployment.contracts.conditionalTokens,
    orderVersion: 1,
  });
  await mined(exchangeV1.getFunction('registerToken')(yes, no, conditionId, TX_OVERRIDES));
  for (const trader of [operator, alice, bob]) {
    await mined(
      collateral.connect(trader).getFunction('approve')(await exchangeV1.getAddress(), 2n ** 255n, TX_OVERRIDES),
    );
    await mined(
      ctf.connect(trader).getFunction('setApprovalForAll')(await exchangeV1.getAddress(), true, TX_OVERRIDES),
    );
  }
  standard = { contract: exchange, version: 2 };
  negRisk = { contract: negRiskExchange, version: 2 };
  legacy = { contract: exchangeV1, version: 1 };
});

afterAll(async () => {
  provider?.destroy();
  await chain?.stop();
});

// Every test starts from the deployed state, so none depends on another's trades.
beforeEach(async () => {
  snapshot = (await provider.send('evm_snapshot', [])) as string;
});
afterEach(async () => {
  await provider.send('evm_revert', [snapshot]);
});

// ------------------------------------------------------------------ helpers

let nextSalt = 1n;

function newOrder(
  maker: Wallet,
  side: number,
  tokenId: bigint,
  makerAmount: bigint,
  takerAmount: bigint,
  extra: Partial<ExchangeOrder> = {},
): ExchangeOrder {
  return {
    salt: nextSalt++,
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
    ...extra,
  };
}

async function sign(order: ExchangeOrder, wallet: Wallet, venue: Venue): Promise<ExchangeOrder> {
  const domain = exchangeDomain(venue.version, chain.chainId, await venue.contract.getAddress());
  const signature = await wallet.signTypedData(domain, ORDER_TYPES[venue.version], signedMessage(venue.version, order));
  return { ...order, signature };
}

/** A BUY of `size` shares at `price` (collateral per share), signed for the venue. */
function buy(
  maker: Wallet,
  tokenId: bigint,
  price: number,
  size: number,
  venue = standard,
  extra: Partial<ExchangeOrder> = {},
) {
  return sign(newOrder(maker, SIDE.BUY, tokenId, notional(price, size), shares(size), extra), maker, venue);
}

/** A SELL of `size` shares at `price`, signed for the venue. */
function sell(
  maker: Wallet,
  tokenId: bigint,
  price: number,
  size: number,
  venue = standard,
  extra: Partial<ExchangeOrder> = {},
) {
  return sign(newOrder(maker, SIDE.SELL, tokenId, shares(size), notional(price, size), extra), maker, venue);
}

async function send(
  contract: Contract,
  method: string,
  args: unknown[],
  from: Wallet = operator,
): Promise<ContractTransactionReceipt> {
  const tx = (await (contract.connect(from) as Contract).getFunction(method)(
    ...args,
    TX_OVERRIDES,
  )) as ContractTransactionResponse;
  const receipt = await tx.wait();
  if (!receipt) throw new Error(`${method}: no receipt`);
  return receipt;
}

/** Expects the call to revert with the named custom error of the contract's ABI. */
async function expectRevert(
  contract: Contract,
  method: string,
  args: unknown[],
  errorName: string,
  from: Wallet = operator,
) {
  const outcome = await send(contract, method, args, from).then(
    () => 'succeeded',
    (error: unknown) => revertName(contract, error),
  );
  expect(outcome).toBe(errorName);
}

/** The custom error a failed call reverted with, decoded from its revert data with the contract's ABI. */
function revertName(contract: Contract, error: unknown): string {
  const data = (error as { data?: string }).data;
  const parsed = typeof data === 'string' && data.length >= 10 ? contract.interface.parseError(data) : null;
  return parsed?.name ?? String(error);
}

/** The named events a contract emitted in a receipt, in order. */
function events(
  receipt: ContractTransactionReceipt,
  contract: Contract,
): { name: string; args: Record<string, unknown> }[] {
  const address = String(contract.target).toLowerCase();
  return receipt.logs
    .filter((log) => log.address.toLowerCase() === address)
    .map((log) => contract.interface.parseLog(log))
    .filter((parsed) => parsed !== null)
    .map((parsed) => ({ name: parsed.name, args: parsed.args.toObject() }));
}

const collateralOf = async (who: Wallet | string): Promise<bigint> =>
  (await collateral.getFunction('balanceOf')(typeof who === 'string' ? who : who.address)) as bigint;
const sharesOf = async (who: Wallet, tokenId: bigint): Promise<bigint> =>
  (await ctf.getFunction('balanceOf')(who.address, tokenId)) as bigint;

/** Turns collateral into complete sets on ConditionalTokens, so a wallet holds YES and NO to sell. */
async function split(wallet: Wallet, amount: bigint, condition = conditionId): Promise<void> {
  await send(ctf, 'splitPosition', [deployment.contracts.collateral, ZeroHash, condition, [1, 2], amount], wallet);
}

async function status(
  venue: Venue,
  order: ExchangeOrder,
): Promise<{ isFilledOrCancelled: boolean; remaining: bigint }> {
  const hash = (await venue.contract.getFunction('hashOrder')(order)) as string;
  const [isFilledOrCancelled, remaining] = (await venue.contract.getFunction('getOrderStatus')(hash)) as [
    boolean,
    bigint,
  ];
  return { isFilledOrCancelled, remaining };
}

async function latestTimestamp(): Promise<bigint> {
  return BigInt((await provider.getBlock('latest'))!.timestamp);
}

// ------------------------------------------------------------------ tests

describe('deployment', () => {
  it('deploys a 6-decimal collateral and funds every test wallet with it and with gas', async () => {
    expect(await collateral.getFunction('decimals')()).toBe(6n);
    for (const wallet of [operator, alice, bob, carol, mallory]) {
      expect(await collateralOf(wallet)).toBe(usdc(100_000));
      expect(await provider.getBalance(wallet.address)).toBeGreaterThan(10n ** 18n);
    }
  });

  it('deploys Gnosis ConditionalTokens from the npm artifact unchanged', async () => {
    const artifact = (await import('@gnosis.pm/conditional-tokens-contracts/build/contracts/ConditionalTokens.json', {
      with: { type: 'json' },
    })) as { default: { deployedBytecode: string } };
    expect(await provider.getCode(deployment.contracts.conditionalTokens)).toBe(artifact.default.deployedBytecode);
  });

  it('grants the allowances trading needs to the exchanges and the adapter', async () => {
    const { exchange: ex, negRiskExchange: nrx, negRiskAdapter: adapter } = deployment.contracts;
    for (const spender of [ex, nrx, adapter]) {
      expect(await collateral.getFunction('allowance')(alice.address, spender)).toBeGreaterThan(usdc(1_000_000));
      expect(await ctf.getFunction('isApprovedForAll')(alice.address, spender)).toBe(true);
    }
  });

  it('opens another market on the running chain, registered on the exchange of its kind', async () => {
    const market = await addMarket(deployment, { question: 'Will a third market trade?', negRisk: false });
    const [a, b] = market.tokenIds.map(BigInt) as [bigint, bigint];
    expect(await exchange.getFunction('getComplement')(a)).toBe(b);
    expect(await exchange.getFunction('getConditionId')(b)).toBe(market.conditionId);
    await send(exchange, 'matchOrders', [
      await buy(alice, a, 0.7, 10),
      [await buy(bob, b, 0.3, 10)],
      usdc(7),
      [usdc(3)],
    ]);
    expect(await sharesOf(alice, a)).toBe(shares(10));
  });

  it('registers the binary market’s two tokens as each other’s complement under its condition', async () => {
    expect(await exchange.getFunction('getComplement')(yes)).toBe(no);
    expect(await exchange.getFunction('getComplement')(no)).toBe(yes);
    expect(await exchange.getFunction('getConditionId')(yes)).toBe(conditionId);
    const negRiskMarket = deployment.markets.find((m) => m.negRisk)!;
    expect(await negRiskExchange.getFunction('getComplement')(BigInt(negRiskMarket.tokenIds[0]))).toBe(
      BigInt(negRiskMarket.tokenIds[1]),
    );
  });
});

describe('conditional tokens', () => {
  it('after the oracle reports, a winning share redeems for one unit of collateral', async () => {
    const market = deployment.markets.find((m) => !m.negRisk)!;
    await split(alice, shares(10));
    const before = await collateralOf(alice);
    // The operator is the sandbox markets' oracle: YES wins.
    await send(ctf, 'reportPayouts', [market.questionId, [1, 0]]);
    await send(ctf, 'redeemPositions', [deployment.contracts.collateral, ZeroHash, conditionId, [1, 2]], alice);
    expect((await collateralOf(alice)) - before).toBe(usdc(10));
    expect(await sharesOf(alice, yes)).toBe(0n);
    expect(await sharesOf(alice, no)).toBe(0n);
  });
});

describe('order hashing and signatures', () => {
  it('uses Polymarket’s published order type hashes for versions 1 and 2', async () => {
    expect(await exchange.getFunction('ORDER_V1_TYPEHASH')()).toBe(
      '0xa852566c4e14d00869b6db0220888a9090a13eccdaea03713ff0a3d27bf9767c',
    );
    expect(await exchange.getFunction('ORDER_V2_TYPEHASH')()).toBe(
      '0xbb86318a2138f5fa8ae32fbe8e659f8fcf13cc6ae4014a707893055433818589',
    );
  });

  it('the version-1 typed data reproduces the official client’s order hash vector', () => {
    const order = newOrder(alice, SIDE.BUY, 101n, 1_000_000n, 2_000_000n, {
      salt: 1n,
      maker: '0x1111111111111111111111111111111111111111',
      signer: '0x1111111111111111111111111111111111111111',
      nonce: 2n,
    });
    const domain = exchangeDomain(1, 137, '0x0000000000000000000000000000000000000001');
    expect(TypedDataEncoder.hash(domain, ORDER_TYPES[1], signedMessage(1, order))).toBe(
      '0xeb162c6cc7aa28ad096a7c40fb9556d41fa1730d71103ba7103589ae1f18d942',
    );
  });

  it('hashOrder on chain equals the EIP-712 hash ethers computes, for versions 1, 2 and 3', async () => {
    const exchangeV3 = await deployExchange(operator, compileContracts(), {
      collateral: deployment.contracts.collateral,
      conditionalTokens: deployment.contracts.conditionalTokens,
      outcomeTokenFactory: deployment.contracts.conditionalTokens,
      orderVersion: 3,
    });
    const order = newOrder(alice, SIDE.SELL, yes, shares(10), usdc(4), {
      nonce: 3n,
      expiration: 99n,
      builder: `0x${'ab'.repeat(32)}`,
    });
    for (const venue of [legacy, standard, { contract: exchangeV3, version: 3 as const }]) {
      const domain = exchangeDomain(venue.version, chain.chainId, await venue.contract.getAddress());
      const expected = TypedDataEncoder.hash(domain, ORDER_TYPES[venue.version], signedMessage(venue.version, order));
      expect(await venue.contract.getFunction('hashOrder')(order)).toBe(expected);
    }
  });

  it('a version-2 hash ignores the unsigned fields and a version-1 hash covers them', async () => {
    const order = newOrder(alice, SIDE.SELL, yes, shares(10), usdc(4));
    const changed = { ...order, nonce: 7n, feeRateBps: 50n, taker: bob.address };
    expect(await exchange.getFunction('hashOrder')(changed)).toBe(await exchange.getFunction('hashOrder')(order));
    expect(await exchangeV1.getFunction('hashOrder')(changed)).not.toBe(
      await exchangeV1.getFunction('hashOrder')(order),
    );
  });
});

describe('settlement', () => {
  it('NORMAL: a BUY meets a SELL of the same token; the seller gets its price and the buyer keeps the improvement', async () => {
    await split(bob, shares(100));
    const taker = await buy(alice, yes, 0.6, 100);
    const maker = await sell(bob, yes, 0.5, 100);
    const aliceBefore = await collateralOf(alice);
    const bobBefore = await collateralOf(bob);

    const receipt = await send(exchange, 'matchOrders', [taker, [maker], usdc(60), [shares(100)]]);

    expect(await sharesOf(alice, yes)).toBe(shares(100));
    expect(await sharesOf(bob, yes)).toBe(0n);
    expect(aliceBefore - (await collateralOf(alice))).toBe(usdc(50));
    expect((await collateralOf(bob)) - bobBefore).toBe(usdc(50));
    expect(await collateralOf(deployment.contracts.exchange)).toBe(0n);
    expect(events(receipt, exchange).map((e) => e.name)).toEqual(['OrderFilled', 'OrderFilled', 'OrdersMatched']);
    const matched = events(receipt, exchange).find((e) => e.name === 'OrdersMatched')!;
    expect(matched.args).toMatchObject({
      takerOrderMaker: alice.address,
      makerAssetId: 0n,
      takerAssetId: yes,
      makerAmountFilled: usdc(60),
      takerAmountFilled: shares(100),
    });
  });

  it('MINT: a BUY of YES meets a BUY of NO; their collateral is split into complete sets on ConditionalTokens', async () => {
    const taker = await buy(alice, yes, 0.6, 100);
    const maker = await buy(bob, no, 0.4, 100);
    const ctfCollateralBefore = await collateralOf(deployment.contracts.conditionalTokens);
    const aliceBefore = await collateralOf(alice);
    const bobBefore = await collateralOf(bob);

    const receipt = await send(exchange, 'matchOrders', [taker, [maker], usdc(60), [usdc(40)]]);

    expect(await sharesOf(alice, yes)).toBe(shares(100));
    expect(await sharesOf(bob, no)).toBe(shares(100));
    expect(aliceBefore - (await collateralOf(alice))).toBe(usdc(60));
    expect(bobBefore - (await collateralOf(bob))).toBe(usdc(40));
    expect((await collateralOf(deployment.contracts.conditionalTokens)) - ctfCollateralBefore).toBe(usdc(100));
    const ctfEvents = events(receipt, ctf).map((e) => e.name);
    expect(ctfEvents).toContain('PositionSplit');
  });

  it('MERGE: a SELL of YES meets a SELL of NO; the sets merge back into collateral and each seller is paid', async () => {
    await split(alice, shares(100));
    await split(bob, shares(100));
    const taker = await sell(alice, yes, 0.5, 100);
    const maker = await sell(bob, no, 0.4, 100);
    const aliceBefore = await collateralOf(alice);
    const bobBefore = await collateralOf(bob);

    const receipt = await send(exchange, 'matchOrders', [taker, [maker], shares(100), [shares(100)]]);

    expect(await sharesOf(alice, yes)).toBe(0n);
    expect(await sharesOf(bob, no)).toBe(0n);
    // Bob asked 40; Alice asked 50 and receives the other 60 of the merged 100.
    expect((await collateralOf(bob)) - bobBefore).toBe(usdc(40));
    expect((await collateralOf(alice)) - aliceBefore).toBe(usdc(60));
    expect(events(receipt, ctf).map((e) => e.name)).toContain('PositionsMerge');
  });

  it('matches one taker against several makers at different prices', async () => {
    await split(bob, shares(50));
    await split(carol, shares(50));
    const taker = await buy(alice, yes, 0.6, 100);
    const makers = [await sell(bob, yes, 0.5, 50), await sell(carol, yes, 0.55, 50)];
    const aliceBefore = await collateralOf(alice);

    await send(exchange, 'matchOrders', [taker, makers, usdc(60), [shares(50), shares(50)]]);

    expect(await sharesOf(alice, yes)).toBe(shares(100));
    expect(aliceBefore - (await collateralOf(alice))).toBe(usdc(25 + 27.5));
  });

  it('one taker against a SELL of YES and a BUY of NO in the same match (NORMAL and MINT together)', async () => {
    await split(bob, shares(50));
    const taker = await buy(alice, yes, 0.6, 100);
    const seller = await sell(bob, yes, 0.55, 50);
    const noBuyer = await buy(carol, no, 0.45, 50);
    const before = { alice: await collateralOf(alice), bob: await collateralOf(bob), carol: await collateralOf(carol) };

    await send(exchange, 'matchOrders', [taker, [seller, noBuyer], usdc(60), [shares(50), usdc(22.5)]]);

    expect(await sharesOf(alice, yes)).toBe(shares(100));
    expect(await sharesOf(carol, no)).toBe(shares(50));
    expect((await collateralOf(bob)) - before.bob).toBe(usdc(27.5));
    expect(before.carol - (await collateralOf(carol))).toBe(usdc(22.5));
    // Alice pays 27.5 to Bob and 27.5 towards the 50 minted sets: 55, not the 60 she offered.
    expect(before.alice - (await collateralOf(alice))).toBe(usdc(55));
    expect(await collateralOf(deployment.contracts.exchange)).toBe(0n);
  });

  it('a partial fill leaves the rest open; the last fill closes the order', async () => {
    await split(bob, shares(100));
    const maker = await sell(bob, yes, 0.5, 100);
    expect(await status(standard, maker)).toEqual({ isFilledOrCancelled: false, remaining: 0n });

    await send(exchange, 'matchOrders', [await buy(alice, yes, 0.5, 40), [maker], usdc(20), [shares(40)]]);
    expect(await status(standard, maker)).toEqual({ isFilledOrCancelled: false, remaining: shares(60) });

    await send(exchange, 'matchOrders', [await buy(carol, yes, 0.5, 60), [maker], usdc(30), [shares(60)]]);
    expect(await status(standard, maker)).toEqual({ isFilledOrCancelled: true, remaining: 0n });
    expect(await sharesOf(carol, yes)).toBe(shares(60));
  });

  it('fillOrder makes the operator the counterparty', async () => {
    await split(bob, shares(10));
    const order = await sell(bob, yes, 0.3, 10);
    const bobBefore = await collateralOf(bob);

    const receipt = await send(exchange, 'fillOrder', [order, shares(10)]);

    expect((await collateralOf(bob)) - bobBefore).toBe(usdc(3));
    expect(await sharesOf(operator, yes)).toBe(shares(10));
    const filled = events(receipt, exchange).find((e) => e.name === 'OrderFilled')!;
    expect(filled.args).toMatchObject({
      maker: bob.address,
      taker: operator.address,
      makerAmountFilled: shares(10),
      fee: 0n,
    });
  });

  it('fillOrders fills several orders in one transaction', async () => {
    const orders = [await buy(alice, yes, 0.2, 10), await buy(bob, no, 0.7, 10)];
    await split(operator, shares(10));

    await send(exchange, 'fillOrders', [orders, [usdc(2), usdc(7)]]);

    expect(await sharesOf(alice, yes)).toBe(shares(10));
    expect(await sharesOf(bob, no)).toBe(shares(10));
  });
});

describe('neg-risk exchange', () => {
  const negRiskTokens = (): [bigint, bigint] =>
    deployment.markets.find((m) => m.negRisk)!.tokenIds.map(BigInt) as [bigint, bigint];

  it('MINT goes through the neg-risk adapter', async () => {
    const [a, notA] = negRiskTokens();
    const adapter = new Contract(deployment.contracts.negRiskAdapter, compileContracts().NegRiskAdapter.abi, provider);
    const taker = await buy(alice, a, 0.3, 20, negRisk);
    const maker = await buy(bob, notA, 0.7, 20, negRisk);

    const receipt = await send(negRiskExchange, 'matchOrders', [taker, [maker], usdc(6), [usdc(14)]]);

    expect(await sharesOf(alice, a)).toBe(shares(20));
    expect(await sharesOf(bob, notA)).toBe(shares(20));
    expect(events(receipt, adapter).map((e) => e.name)).toEqual(['PositionSplit']);
  });

  it('MERGE goes through the neg-risk adapter', async () => {
    const [a, notA] = negRiskTokens();
    const market = deployment.markets.find((m) => m.negRisk)!;
    await split(alice, shares(20), market.conditionId);
    await split(bob, shares(20), market.conditionId);
    const adapter = new Contract(deployment.contracts.negRiskAdapter, compileContracts().NegRiskAdapter.abi, provider);
    const aliceBefore = await collateralOf(alice);

    const receipt = await send(negRiskExchange, 'matchOrders', [
      await sell(alice, a, 0.3, 20, negRisk),
      [await sell(bob, notA, 0.7, 20, negRisk)],
      shares(20),
      [shares(20)],
    ]);

    expect((await collateralOf(alice)) - aliceBefore).toBe(usdc(6));
    expect(events(receipt, adapter).map((e) => e.name)).toEqual(['PositionsMerge']);
  });

  it('the adapter splits and merges for anyone, with ConditionalTokens’ own calls', async () => {
    const market = deployment.markets.find((m) => m.negRisk)!;
    const [a, notA] = negRiskTokens();
    const adapter = new Contract(deployment.contracts.negRiskAdapter, compileContracts().NegRiskAdapter.abi, provider);
    const args = [deployment.contracts.collateral, ZeroHash, market.conditionId, [1, 2]];
    const before = await collateralOf(alice);
    await send(adapter, 'splitPosition', [...args, shares(5)], alice);
    expect([await sharesOf(alice, a), await sharesOf(alice, notA)]).toEqual([shares(5), shares(5)]);
    await send(adapter, 'mergePositions', [...args, shares(2)], alice);
    expect(await sharesOf(alice, a)).toBe(shares(3));
    expect(before - (await collateralOf(alice))).toBe(usdc(3));
    expect(await collateralOf(deployment.contracts.negRiskAdapter)).toBe(0n);
  });

  it('the adapter refuses other collateral and non-binary partitions', async () => {
    const market = deployment.markets.find((m) => m.negRisk)!;
    const adapter = new Contract(deployment.contracts.negRiskAdapter, compileContracts().NegRiskAdapter.abi, provider);
    await expectRevert(
      adapter,
      'splitPosition',
      [bob.address, ZeroHash, market.conditionId, [1, 2], 1n],
      'UnknownCollateral',
      alice,
    );
    await expectRevert(
      adapter,
      'splitPosition',
      [deployment.contracts.collateral, ZeroHash, market.conditionId, [1, 2, 4], 1n],
      'OnlyBinaryRootPositions',
      alice,
    );
  });

  it('refuses an order for a neg-risk market signed for the standard exchange', async () => {
    const [a] = negRiskTokens();
    const signedForStandard = await buy(alice, a, 0.3, 20, standard);
    await expectRevert(negRiskExchange, 'fillOrder', [signedForStandard, usdc(6)], 'InvalidSignature');
  });

  it('does not trade the standard exchange’s tokens', async () => {
    const order = await buy(alice, yes, 0.5, 10, negRisk);
    await expectRevert(negRiskExchange, 'fillOrder', [order, usdc(5)], 'InvalidTokenId');
  });
});

describe('fees', () => {
  it('a SELL pays r·min(p, 1−p)·size in collateral; the operator sets the rate on a version-2 order', async () => {
    await split(bob, shares(100));
    // Signed without a fee, as version 2 signs none; the operator sets 1% at match time.
    const order = { ...(await sell(bob, yes, 0.5, 100)), feeRateBps: 100n };
    const bobBefore = await collateralOf(bob);

    const receipt = await send(exchange, 'fillOrder', [order, shares(100)]);

    // 0.01 × 0.5 × 100 = 0.5 collateral.
    expect((await collateralOf(bob)) - bobBefore).toBe(usdc(49.5));
    const fee = events(receipt, exchange).find((e) => e.name === 'FeeCharged')!;
    expect(fee.args).toMatchObject({ receiver: operator.address, tokenId: 0n, amount: usdc(0.5) });
  });

  it('a BUY pays r·min(p, 1−p)·size/p in shares', async () => {
    await split(operator, shares(100));
    const order = { ...(await buy(alice, yes, 0.4, 100)), feeRateBps: 100n };

    const receipt = await send(exchange, 'fillOrder', [order, usdc(40)]);

    // 0.01 × 0.4 × 100 / 0.4 = 1 share.
    expect(await sharesOf(alice, yes)).toBe(shares(99));
    const fee = events(receipt, exchange).find((e) => e.name === 'FeeCharged')!;
    expect(fee.args).toMatchObject({ tokenId: yes, amount: shares(1) });
  });

  it('is symmetric: selling YES at p costs what buying NO at 1 − p costs, in value', async () => {
    const fee = (rate: bigint, tokens: bigint, makerAmount: bigint, takerAmount: bigint, side: number) =>
      exchange.getFunction('calculateFee')(rate, tokens, makerAmount, takerAmount, side) as Promise<bigint>;
    // Sell 100 YES at 0.6: 0.02 × 0.4 × 100 = 0.8 collateral.
    const sellFee = await fee(200n, shares(100), shares(100), usdc(60), SIDE.SELL);
    // Buy 100 NO at 0.4: 0.02 × 0.4 × 100 / 0.4 = 2 NO shares, worth 2 × 0.4 = 0.8 collateral.
    const buyFee = await fee(200n, shares(100), usdc(40), shares(100), SIDE.BUY);
    expect(sellFee).toBe(usdc(0.8));
    expect(buyFee).toBe(shares(2));
    expect((buyFee * usdc(0.4)) / 1_000_000n).toBe(sellFee);
  });

  it('charges a version-1 order the fee rate it signed, in a match', async () => {
    await split(bob, shares(100));
    const taker = await buy(alice, yes, 0.8, 100, legacy, { feeRateBps: 200n });
    const maker = await sell(bob, yes, 0.8, 100, legacy, { feeRateBps: 200n });
    const bobBefore = await collateralOf(bob);

    await send(exchangeV1, 'matchOrders', [taker, [maker], usdc(80), [shares(100)]]);

    // Seller: 0.02 × 0.2 × 100 = 0.4 collateral. Buyer: 0.02 × 0.2 × 100 / 0.8 = 0.5 share.
    expect((await collateralOf(bob)) - bobBefore).toBe(usdc(79.6));
    expect(await sharesOf(alice, yes)).toBe(shares(99.5));
  });
});

describe('cancels and nonces', () => {
  it('the maker cancels an order: OrderCancelled, then it can no longer be filled', async () => {
    const order = await buy(alice, yes, 0.5, 10);
    const receipt = await send(exchange, 'cancelOrder', [order], alice);
    const hash = await exchange.getFunction('hashOrder')(order);
    expect(events(receipt, exchange)).toEqual([{ name: 'OrderCancelled', args: { orderHash: hash } }]);
    expect(await status(standard, order)).toEqual({ isFilledOrCancelled: true, remaining: 0n });
    await split(operator, shares(10));
    await expectRevert(exchange, 'fillOrder', [order, usdc(5)], 'OrderFilledOrCancelled');
  });

  it('cancelOrders cancels several orders at once', async () => {
    const orders = [await buy(alice, yes, 0.5, 10), await sell(alice, no, 0.5, 10)];
    const receipt = await send(exchange, 'cancelOrders', [orders], alice);
    expect(events(receipt, exchange).map((e) => e.name)).toEqual(['OrderCancelled', 'OrderCancelled']);
    for (const order of orders) expect((await status(standard, order)).isFilledOrCancelled).toBe(true);
  });

  it('only the maker may cancel: NotOwner', async () => {
    const order = await buy(alice, yes, 0.5, 10);
    await expectRevert(exchange, 'cancelOrder', [order], 'NotOwner', mallory);
  });

  it('incrementNonce invalidates version-1 orders signed with the old nonce: InvalidNonce', async () => {
    const order = await buy(alice, yes, 0.5, 10, legacy, { nonce: 0n });
    await send(exchangeV1, 'incrementNonce', [], alice);
    expect(await exchangeV1.getFunction('nonces')(alice.address)).toBe(1n);
    await split(operator, shares(10));
    await expectRevert(exchangeV1, 'fillOrder', [order, usdc(5)], 'InvalidNonce');
  });
  it('incrementNonce does not touch version-2 orders, which sign no nonce', async () => {
    const order = await buy(alice, yes, 0.5, 10);
    await send(exchange, 'incrementNonce', [], alice);
    await split(operator, shares(10));
    await send(exchange, 'fillOrder', [order, usdc(5)]);
    expect(await sharesOf(alice, yes)).toBe(shares(10));
  });
});

describe('roles and pause', () => {
  it('only an operator settles: NotOperator', async () => {
    await split(bob, shares(10));
    const taker = await buy(alice, yes, 0.5, 10);
    const maker = await sell(bob, yes, 0.5, 10);
    await expectRevert(exchange, 'matchOrders', [taker, [maker], usdc(5), [shares(10)]], 'NotOperator', mallory);
    await expectRevert(exchange, 'fillOrder', [maker, shares(10)], 'NotOperator', mallory);
  });

  it('only an admin manages roles: NotAdmin', async () => {
    await expectRevert(exchange, 'addOperator', [mallory.address], 'NotAdmin', mallory);
    await expectRevert(exchange, 'addAdmin', [mallory.address], 'NotAdmin', mallory);
    await expectRevert(exchange, 'pauseTrading', [], 'NotAdmin', mallory);
    await expectRevert(exchange, 'registerToken', [1n, 2n, ZeroHash], 'NotAdmin', mallory);
  });

  it('an admin adds and removes admins and operators, with events; a new operator can settle', async () => {
    const added = await send(exchange, 'addOperator', [carol.address]);
    expect(events(added, exchange)).toEqual([
      { name: 'NewOperator', args: { newOperatorAddress: carol.address, admin: operator.address } },
    ]);
    expect(await exchange.getFunction('isOperator')(carol.address)).toBe(true);
    await split(carol, shares(10));
    await send(exchange, 'fillOrder', [await buy(alice, yes, 0.5, 10), usdc(5)], carol);
    expect(await sharesOf(alice, yes)).toBe(shares(10));

    const removed = await send(exchange, 'removeOperator', [carol.address]);
    expect(events(removed, exchange)[0]).toEqual({
      name: 'RemovedOperator',
      args: { removedOperator: carol.address, admin: operator.address },
    });
    const newAdmin = await send(exchange, 'addAdmin', [bob.address]);
    expect(events(newAdmin, exchange)[0]).toEqual({
      name: 'NewAdmin',
      args: { newAdminAddress: bob.address, admin: operator.address },
    });
    const removedAdmin = await send(exchange, 'removeAdmin', [bob.address]);
    expect(events(removedAdmin, exchange)[0]).toEqual({
      name: 'RemovedAdmin',
      args: { removedAdmin: bob.address, admin: operator.address },
    });
    expect(await exchange.getFunction('isAdmin')(bob.address)).toBe(false);
  });

  it('an admin or operator can renounce its own role', async () => {
    await send(exchange, 'addOperator', [carol.address]);
    await send(exchange, 'addAdmin', [carol.address]);
    await send(exchange, 'renounceOperatorRole', [], carol);
    const renounced = await send(exchange, 'renounceAdminRole', [], carol);
    expect(events(renounced, exchange)[0]).toEqual({
      name: 'RemovedAdmin',
      args: { removedAdmin: carol.address, admin: carol.address },
    });
    expect(await exchange.getFunction('isOperator')(carol.address)).toBe(false);
    expect(await exchange.getFunction('isAdmin')(carol.address)).toBe(false);
    await expectRevert(exchange, 'renounceAdminRole', [], 'NotAdmin', carol);
  });

  it('pauseTrading stops settlement (Paused) until unpauseTrading, with events', async () => {
    await split(bob, shares(10));
    const order = await sell(bob, yes, 0.5, 10);
    const paused = await send(exchange, 'pauseTrading', []);
    expect(events(paused, exchange)).toEqual([{ name: 'TradingPaused', args: { pauser: operator.address } }]);
    await expectRevert(exchange, 'fillOrder', [order, shares(10)], 'Paused');
    await expectRevert(
      exchange,
      'matchOrders',
      [await buy(alice, yes, 0.5, 10), [order], usdc(5), [shares(10)]],
      'Paused',
    );

    const unpaused = await send(exchange, 'unpauseTrading', []);
    expect(events(unpaused, exchange)).toEqual([{ name: 'TradingUnpaused', args: { pauser: operator.address } }]);
    await send(exchange, 'fillOrder', [order, shares(10)]);
    expect(await sharesOf(operator, yes)).toBe(shares(10));
  });
});

describe('token registry', () => {
  it('registerToken registers the pair both ways and emits TokenRegistered twice', async () => {
    const receipt = await send(exchange, 'registerToken', [11n, 12n, `0x${'cd'.repeat(32)}`]);
    expect(events(receipt, exchange)).toEqual([
      { name: 'TokenRegistered', args: { token0: 11n, token1: 12n, conditionId: `0x${'cd'.repeat(32)}` } },
      { name: 'TokenRegistered', args: { token0: 12n, token1: 11n, conditionId: `0x${'cd'.repeat(32)}` } },
    ]);
    expect(await exchange.getFunction('getComplement')(12n)).toBe(11n);
  });

  it('refuses a token paired with itself (InvalidComplement), with 0 (InvalidTokenId) or twice (AlreadyRegistered)', async () => {
    await expectRevert(exchange, 'registerToken', [5n, 5n, ZeroHash], 'InvalidComplement');
    await expectRevert(exchange, 'registerToken', [0n, 5n, ZeroHash], 'InvalidTokenId');
    await expectRevert(exchange, 'registerToken', [yes, 5n, ZeroHash], 'AlreadyRegistered');
  });

  it('getComplement of an unknown token reverts InvalidTokenId', async () => {
    const outcome = await exchange
      .getFunction('getComplement')(424242n)
      .then(
        () => 'returned',
        (error: unknown) => revertName(exchange, error),
      );
    expect(outcome).toBe('InvalidTokenId');
  });
});

describe('contract-wallet makers (POLY_PROXY, POLY_GNOSIS_SAFE)', () => {
  const PROXY = 1;
  const SAFE = 2;

  /** Opens `owner`'s wallet from its factory, funded with collateral, every approval granted from the wallet. */
  async function walletFor(kind: 'proxy' | 'safe', owner: Wallet, funding: bigint): Promise<string> {
    return (await openAccount(deployment, kind, owner.privateKey, funding)).address;
  }

  /** A BUY made by a contract wallet and signed by its owner. */
  function walletBuy(owner: Wallet, wallet: string, signatureType: number, price: number, size: number) {
    const order = newOrder(owner, SIDE.BUY, yes, notional(price, size), shares(size), { maker: wallet, signatureType });
    return sign(order, owner, standard);
  }

  it('POLY_PROXY: the owner signs, its proxy wallet pays and receives', async () => {
    const proxy = await walletFor('proxy', alice, usdc(100));
    expect(proxy).toBe(await exchange.getFunction('getPolyProxyWalletAddress')(alice.address));
    await split(bob, shares(10));

    await send(exchange, 'matchOrders', [
      await walletBuy(alice, proxy, PROXY, 0.5, 10),
      [await sell(bob, yes, 0.5, 10)],
      usdc(5),
      [shares(10)],
    ]);

    expect(await ctf.getFunction('balanceOf')(proxy, yes)).toBe(shares(10));
    expect(await collateralOf(proxy)).toBe(usdc(95));
    expect(await sharesOf(alice, yes)).toBe(0n);
  });

  it('POLY_GNOSIS_SAFE: the owner signs, its Safe pays and receives', async () => {
    const safe = await walletFor('safe', alice, usdc(100));
    expect(safe).toBe(await exchange.getFunction('getSafeAddress')(alice.address));
    await split(operator, shares(10));

    await send(exchange, 'fillOrder', [await walletBuy(alice, safe, SAFE, 0.3, 10), usdc(3)]);

    expect(await ctf.getFunction('balanceOf')(safe, yes)).toBe(shares(10));
  });

  it('invalid signature: a proxy order whose maker is someone else’s proxy', async () => {
    const bobsProxy = await walletFor('proxy', bob, usdc(100));
    await split(operator, shares(10));
    await expectRevert(
      exchange,
      'fillOrder',
      [await walletBuy(alice, bobsProxy, PROXY, 0.5, 10), usdc(5)],
      'InvalidSignature',
    );
  });

  it('invalid signature: a proxy wallet presented as a Safe', async () => {
    const proxy = await walletFor('proxy', alice, usdc(100));
    await split(operator, shares(10));
    await expectRevert(
      exchange,
      'fillOrder',
      [await walletBuy(alice, proxy, SAFE, 0.5, 10), usdc(5)],
      'InvalidSignature',
    );
  });

  it('invalid signature: a POLY_1271 order whose maker is an EOA (no ERC-1271 wallet to ask)', async () => {
    await split(operator, shares(10));
    await expectRevert(
      exchange,
      'fillOrder',
      [await walletBuy(alice, alice.address, 3, 0.5, 10), usdc(5)],
      'InvalidSignature',
    );
  });

  it('only an admin sets the wallet factories, with an event', async () => {
    await expectRevert(exchange, 'setProxyFactory', [mallory.address], 'NotAdmin', mallory);
    await expectRevert(exchange, 'setSafeFactory', [mallory.address], 'NotAdmin', mallory);
    const receipt = await send(exchange, 'setSafeFactory', [carol.address]);
    expect(events(receipt, exchange)).toEqual([
      {
        name: 'SafeFactoryUpdated',
        args: { oldSafeFactory: deployment.wallets.safeFactory, newSafeFactory: carol.address },
      },
    ]);
  });
});

describe('rejections', () => {
  it('invalid signature: signed by someone other than the maker', async () => {
    const forged = await sign(newOrder(alice, SIDE.BUY, yes, usdc(5), shares(10)), mallory, standard);
    await split(operator, shares(10));
    await expectRevert(exchange, 'fillOrder', [forged, usdc(5)], 'InvalidSignature');
  });

  it('invalid signature: a signed field changed after signing', async () => {
    const order = await buy(alice, yes, 0.5, 10);
    await split(operator, shares(20));
    await expectRevert(exchange, 'fillOrder', [{ ...order, takerAmount: shares(20) }, usdc(5)], 'InvalidSignature');
  });

  it('invalid signature: an EOA order whose signer is not its maker', async () => {
    const order = await sign(
      newOrder(alice, SIDE.BUY, yes, usdc(5), shares(10), { signer: bob.address }),
      bob,
      standard,
    );
    await split(operator, shares(10));
    await expectRevert(exchange, 'fillOrder', [order, usdc(5)], 'InvalidSignature');
  });

  it('invalid token id: an order for a token the exchange never registered', async () => {
    const order = await buy(alice, 777n, 0.5, 10);
    await expectRevert(exchange, 'fillOrder', [order, usdc(5)], 'InvalidTokenId');
  });

  it('invalid complement: two BUYs of the same token cannot mint', async () => {
    const taker = await buy(alice, yes, 0.6, 10);
    const maker = await buy(bob, yes, 0.6, 10);
    await expectRevert(exchange, 'matchOrders', [taker, [maker], usdc(6), [usdc(6)]], 'InvalidComplement');
  });

  it('mismatched token ids: a BUY of YES against a SELL of NO', async () => {
    await split(bob, shares(10));
    const taker = await buy(alice, yes, 0.6, 10);
    const maker = await sell(bob, no, 0.4, 10);
    await expectRevert(exchange, 'matchOrders', [taker, [maker], usdc(6), [shares(10)]], 'MismatchedTokenIds');
  });

  it('order expired: an expiration in the past (signed, version 1)', async () => {
    const order = await buy(alice, yes, 0.5, 10, legacy, { expiration: (await latestTimestamp()) - 1n });
    await split(operator, shares(10));
    await expectRevert(exchangeV1, 'fillOrder', [order, usdc(5)], 'OrderExpired');
  });

  it('order expired: the operator passes a GTD order’s past expiration (version 2)', async () => {
    const order = { ...(await buy(alice, yes, 0.5, 10)), expiration: (await latestTimestamp()) - 1n };
    await split(operator, shares(10));
    await expectRevert(exchange, 'fillOrder', [order, usdc(5)], 'OrderExpired');
  });

  it('order filled or cancelled: a fully filled order cannot fill again', async () => {
    await split(operator, shares(20));
    const order = await buy(alice, yes, 0.5, 10);
    await send(exchange, 'fillOrder', [order, usdc(5)]);
    await expectRevert(exchange, 'fillOrder', [order, usdc(5)], 'OrderFilledOrCancelled');
  });

  it('fee too high: a fee rate above 10%', async () => {
    const order = { ...(await buy(alice, yes, 0.5, 10)), feeRateBps: 1001n };
    await split(operator, shares(10));
    await expectRevert(exchange, 'fillOrder', [order, usdc(5)], 'FeeTooHigh');
  });

  it('not crossing: a BUY at 0.4 against a SELL at 0.5', async () => {
    await split(bob, shares(10));
    const taker = await buy(alice, yes, 0.4, 10);
    const maker = await sell(bob, yes, 0.5, 10);
    await expectRevert(exchange, 'matchOrders', [taker, [maker], usdc(4), [shares(10)]], 'NotCrossing');
  });

  it('not crossing: two BUYs of complements whose prices add up to less than 1', async () => {
    const taker = await buy(alice, yes, 0.5, 10);
    const maker = await buy(bob, no, 0.4, 10);
    await expectRevert(exchange, 'matchOrders', [taker, [maker], usdc(5), [usdc(4)]], 'NotCrossing');
  });

  it('making amount exceeds remaining: a fill larger than what is left', async () => {
    await split(operator, shares(20));
    const order = await buy(alice, yes, 0.5, 10);
    await send(exchange, 'fillOrder', [order, usdc(3)]);
    await expectRevert(exchange, 'fillOrder', [order, usdc(3)], 'MakingGtRemaining');
  });

  it('too few tokens received: the makers deliver less than the taker’s price requires', async () => {
    await split(bob, shares(100));
    const taker = await buy(alice, yes, 0.6, 100);
    const maker = await sell(bob, yes, 0.5, 100);
    await expectRevert(exchange, 'matchOrders', [taker, [maker], usdc(60), [shares(50)]], 'TooLittleTokensReceived');
  });

  it('not taker: a version-1 order reserved for another counterparty', async () => {
    const order = await buy(alice, yes, 0.5, 10, legacy, { taker: bob.address });
    await split(operator, shares(10));
    await expectRevert(exchangeV1, 'fillOrder', [order, usdc(5)], 'NotTaker');
  });

  it('mismatched array lengths: a maker without a fill amount', async () => {
    await split(bob, shares(10));
    const taker = await buy(alice, yes, 0.5, 10);
    const maker = await sell(bob, yes, 0.5, 10);
    await expectRevert(exchange, 'matchOrders', [taker, [maker], usdc(5), []], 'MismatchedArrayLengths');
  });

  it('a rejected match moves no funds', async () => {
    await split(bob, shares(10));
    const before = [await collateralOf(alice), await collateralOf(bob), await sharesOf(bob, yes)];
    const taker = await buy(alice, yes, 0.4, 10);
    const maker = await sell(bob, yes, 0.5, 10);
    await expectRevert(exchange, 'matchOrders', [taker, [maker], usdc(4), [shares(10)]], 'NotCrossing');
    expect([await collateralOf(alice), await collateralOf(bob), await sharesOf(bob, yes)]).toEqual(before);
  });
});

// Keeps getCreateAddress imported for the address check below: the deployer's first contract is the collateral.
describe('addresses', () => {
  it('deploys from anvil’s first dev account, so the addresses are the same on every start', () => {
    expect(deployment.contracts.collateral).toBe(getCreateAddress({ from: deployment.operator.address, nonce: 0 }));
  });
});
