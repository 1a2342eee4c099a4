// Converting No positions of a negative-risk event on the sandbox chain's neg-risk adapter, through the toolkit's
// money action for the key's own account, a proxy wallet and a Safe: every position id of the event, the
// account's collateral, the burn address and the adapter are read before and after, to the base unit, for k = 1,
// 2 and all No positions of a four-question event, with and without a conversion fee; bad input is refused by the
// toolkit before anything is signed and by the contract itself.
import { Contract, Wallet, getAddress, id, toUtf8Bytes, type JsonRpcProvider } from 'ethers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountTransactions, type ActionAccount } from '../../packages/toolkit/src/accounts/actions';
import { actionContractsFor, type ActionContracts } from '../../packages/toolkit/src/accounts/action-contracts';
import { AccountKind } from '../../packages/toolkit/src/accounts/derive';
import { readSafeNonce } from '../../packages/toolkit/src/accounts/safe';
import { walletConfigSchema } from '../../packages/toolkit/src/chain/wallet-config';
import { tokenBalance } from '../../packages/toolkit/src/collateral/pusd';
import { isPmDeskError } from '../../packages/toolkit/src/model/errors';
import { splitCalls } from '../../packages/toolkit/src/positions/calls';
import { convertLines, questionIdOf } from '../../packages/toolkit/src/positions/convert-calls';
import { moneyActionCalls } from '../../packages/toolkit/src/positions/money-calls';
import { positionBalances } from '../../packages/toolkit/src/positions/resolution';
import {
  TX_OVERRIDES,
  compileContracts,
  conditionalTokensArtifact,
  prepareBinaryMarket,
  sandboxProvider,
  startSandboxChain,
  type SandboxChain,
  type SandboxMarket,
} from '../../sandbox/chain/index.js';

const EVENT = ['Alpha', 'Bravo', 'Charlie', 'Delta'].map((name) => ({
  question: `Which letter wins the convert test? ${name}`,
  negRisk: true,
  event: 'convert-test-event',
}));
const BURN = getAddress('0x' + id('NO_TOKEN_BURN_ADDRESS').slice(2, 42));

let sandbox: SandboxChain;
let provider: JsonRpcProvider;
let contracts: ActionContracts;
let questions: SandboxMarket[];
let lone: SandboxMarket;
let adapter: Contract;

beforeAll(async () => {
  sandbox = await startSandboxChain({
    markets: [
      { question: 'A binary market beside the event', negRisk: false },
      ...EVENT,
      { question: 'A neg-risk market that is an event of its own', negRisk: true },
    ],
  });
  provider = sandboxProvider(sandbox.rpcUrl, sandbox.chainId);
  contracts = actionContractsFor({
    name: 'sandbox',
    chainId: sandbox.chainId,
    contracts: { ...sandbox.contracts },
    wallets: sandbox.wallets,
  });
  questions = sandbox.markets.filter((m) => m.negRiskEvent && EVENT.some((e) => e.question === m.question));
  lone = sandbox.markets.at(-1)!;
  adapter = new Contract(
    sandbox.contracts.negRiskAdapter,
    compileContracts().NegRiskAdapter.abi,
    new Wallet(sandbox.operator.privateKey, provider),
  );
}, 120_000);

afterAll(async () => {
  provider?.destroy();
  await sandbox?.stop();
});

type Kind = 'key' | 'proxy' | 'safe';

function actorOf(kind: Kind): { account: ActionAccount; owner: Wallet } {
  if (kind === 'key') {
    const owner = new Wallet(sandbox.testWallets[0]!.privateKey, provider);
    return { account: { kind: AccountKind.EOA, address: owner.address, owner: owner.address }, owner };
  }
  const test = sandbox.testAccounts.find((a) => a.kind === kind)!;
  const key = sandbox.testWallets.find((w) => getAddress(w.address) === getAddress(test.owner))!.privateKey;
  return {
    account: {
      kind: kind === 'proxy' ? AccountKind.PROXY : AccountKind.SAFE,
      address: test.address,
      owner: test.owner,
    },
    owner: new Wallet(key, provider),
  };
}

/** Runs the calls as the account (the key itself, a proxy through its factory, a Safe through execTransaction). */
async function run(kind: Kind, calls: { to: string; data: string }[]) {
  const { account, owner } = actorOf(kind);
  const plan = await accountTransactions(account, calls, {
    chainId: sandbox.chainId,
    wallets: walletConfigSchema.parse(sandbox.wallets),
    multiSend: sandbox.wallets.multiSend,
    signer: { signTypedData: (domain, types, value) => owner.signTypedData(domain, types, value) },
    safeNonce: (safe) => readSafeNonce(provider, safe),
  });
  const receipts = [];
  for (const tx of plan.transactions) {
    const sent = await owner.sendTransaction({ to: tx.to, data: tx.data, value: tx.value, ...TX_OVERRIDES });
    const receipt = await sent.wait();
    expect(receipt?.status).toBe(1);
    receipts.push(receipt!);
  }
  return receipts;
}

const yesNo = (markets: SandboxMarket[]) => markets.flatMap((m) => m.tokenIds);

/** Collateral and every Yes and No position of the event, of the account, the burn address and the adapter. */
async function snapshot(holder: string) {
  const ids = yesNo(questions);
  const read = (who: string) => positionBalances(provider, sandbox.contracts.conditionalTokens, who, ids);
  return {
    cash: await tokenBalance(provider, sandbox.contracts.collateral, holder),
    held: await read(holder),
    burnt: await read(BURN),
    adapter: await read(sandbox.contracts.negRiskAdapter),
    adapterCash: await tokenBalance(provider, sandbox.contracts.collateral, sandbox.contracts.negRiskAdapter),
  };
}

/** Splits `amount` of each listed question through the adapter, so the account holds their No. */
async function holdNo(kind: Kind, indexes: number[], amount: bigint) {
  for (const i of indexes)
    await run(kind, splitCalls({ conditionId: questions[i]!.conditionId, negRisk: true }, contracts, amount));
}

async function convert(kind: Kind, fromNo: number[], amount: bigint, marketId = questions[0]!.negRiskEvent!.marketId) {
  const built = await moneyActionCalls(provider, contracts, actorOf(kind).account.address, {
    action: 'convert',
    amount: amount.toString(),
    convert: { marketId, fromNo },
  });
  return { built, receipts: await run(kind, built.calls) };
}

/** The expected change of [yes0, no0, yes1, no1, …] for giving No of `fromNo` and receiving `each` Yes of the rest. */
function change(fromNo: number[], give: bigint, each: bigint): bigint[] {
  return questions.flatMap((_, i) => (fromNo.includes(i) ? [0n, -give] : [each, 0n]));
}

async function refusal(work: () => Promise<unknown>): Promise<string> {
  try {
    await work();
  } catch (error) {
    expect(isPmDeskError(error)).toBe(true);
    return (error as Error).message;
  }
  throw new Error('expected a refusal');
}

describe('the adapter knows each negative-risk event', () => {
  it('files the event under one market id, its questions by index, with their Yes and No position ids', async () => {
    const marketId = questions[0]!.negRiskEvent!.marketId;
    expect(BigInt(marketId) & 0xffn).toBe(0n);
    expect(await adapter.getFunction('getQuestionCount')(marketId)).toBe(4n);
    expect(await adapter.getFunction('getOracle')(marketId)).toBe(sandbox.operator.address);
    for (const [index, q] of questions.entries()) {
      expect(q.negRiskEvent).toEqual({ marketId, questionId: questionIdOf(marketId, index), index });
      expect(await adapter.getFunction('getConditionId')(q.negRiskEvent!.questionId)).toBe(q.conditionId);
      expect((await adapter.getFunction('getPositionId')(q.negRiskEvent!.questionId, true)).toString()).toBe(
        q.tokenIds[0],
      );
      expect((await adapter.getFunction('getPositionId')(q.negRiskEvent!.questionId, false)).toString()).toBe(
        q.tokenIds[1],
      );
    }
    expect(lone.negRiskEvent?.index).toBe(0);
    expect(await adapter.getFunction('getQuestionCount')(lone.negRiskEvent!.marketId)).toBe(1n);
    expect(sandbox.markets[0]!.negRiskEvent).toBeUndefined();
  });
});

describe('convertPositions through each account kind, to the base unit', () => {
  it('k = 1 from the key: 4 No of Bravo become 4 Yes of Alpha, Charlie and Delta, no collateral', async () => {
    const { account } = actorOf('key');
    await holdNo('key', [1], 10_000_000n);
    const before = await snapshot(account.address);
    const { built, receipts } = await convert('key', [1], 4_000_000n);
    const after = await snapshot(account.address);
    expect(after.cash).toBe(before.cash);
    expect(after.held.map((h, i) => h - before.held[i]!)).toEqual(change([1], 4_000_000n, 4_000_000n));
    // The given No and the split's No halves go to the burn address: one No of every question per unit.
    expect(after.burnt.map((h, i) => h - before.burnt[i]!)).toEqual(questions.flatMap(() => [0n, 4_000_000n]));
    expect(after.adapter).toEqual(before.adapter);
    expect(after.adapterCash).toBe(0n);
    expect(built.convert).toMatchObject({ indexSet: 2n, collateral: 0n, yesEach: 4_000_000n, feePerShare: 0n });
    expect(convertLines(built.convert!, (i) => EVENT[i]!.question.split(' ').at(-1)!)).toEqual([
      'Give 4 No of Bravo',
      'Receive 4 Yes of Alpha',
      'Receive 4 Yes of Charlie',
      'Receive 4 Yes of Delta',
    ]);
    const event = adapter.interface.getEvent('PositionsConverted')!;
    const logs = receipts
      .at(-1)!
      .logs.filter((l) => l.topics[0] === event.topicHash)
      .map((l) => adapter.interface.parseLog(l)!);
    expect(logs.map((l) => [l.args[0], l.args[1], l.args[2], l.args[3]])).toEqual([
      [account.address, questions[0]!.negRiskEvent!.marketId, 2n, 4_000_000n],
    ]);
  });

  it('k = 2 from a proxy wallet: No of Alpha and Charlie become Yes of Bravo and Delta plus one unit of collateral each', async () => {
    const { account } = actorOf('proxy');
    await holdNo('proxy', [0, 2], 5_000_000n);
    const amount = 3_500_001n;
    const before = await snapshot(account.address);
    const { built } = await convert('proxy', [0, 2], amount);
    const after = await snapshot(account.address);
    expect(after.cash - before.cash).toBe(amount);
    expect(after.held.map((h, i) => h - before.held[i]!)).toEqual(change([0, 2], amount, amount));
    expect(after.burnt.map((h, i) => h - before.burnt[i]!)).toEqual(questions.flatMap(() => [0n, amount]));
    expect(after.adapterCash).toBe(0n);
    expect(built.convert).toMatchObject({ indexSet: 5n, collateral: amount });
  });

  it('every No from a Safe: (k − 1)·N collateral and no Yes', async () => {
    const { account } = actorOf('safe');
    await holdNo('safe', [0, 1, 2, 3], 2_000_000n);
    const before = await snapshot(account.address);
    await convert('safe', [0, 1, 2, 3], 2_000_000n);
    const after = await snapshot(account.address);
    expect(after.cash - before.cash).toBe(3n * 2_000_000n);
    expect(after.held.map((h, i) => h - before.held[i]!)).toEqual(change([0, 1, 2, 3], 2_000_000n, 0n));
  });

  it("takes an event's fee from each Yes and from the collateral, to the vault", async () => {
    // A two-question event with a 1% fee, prepared here by the operator as its oracle.
    const operator = new Wallet(sandbox.operator.privateKey, provider);
    const ctf = new Contract(sandbox.contracts.conditionalTokens, conditionalTokensArtifact().abi, operator);
    const data = toUtf8Bytes('fee event');
    const marketId = (await adapter.getFunction('prepareMarket').staticCall(100, data)) as string;
    await (await adapter.getFunction('prepareMarket')(100, data, TX_OVERRIDES)).wait();
    const prepared = [];
    for (const q of ['Fee event: first?', 'Fee event: second?']) {
      const market = await prepareBinaryMarket(ctf, sandbox.contracts.collateral, operator.address, q);
      await (await adapter.getFunction('prepareQuestion')(marketId, market.conditionId, data, TX_OVERRIDES)).wait();
      prepared.push(market);
    }
    const { account } = actorOf('key');
    await run('key', splitCalls({ conditionId: prepared[0]!.conditionId, negRisk: true }, contracts, 1_000_000n));
    const ids = [prepared[0]!.tokenIds[1], prepared[1]!.tokenIds[0]];
    const held = () => positionBalances(provider, sandbox.contracts.conditionalTokens, account.address, ids);
    const vault = () => positionBalances(provider, sandbox.contracts.conditionalTokens, sandbox.feeRecipient, ids);
    const [held0, vault0] = [await held(), await vault()];
    const { built } = await convert('key', [0], 1_000_000n, marketId);
    expect(built.convert).toMatchObject({ feeBips: 100n, feePerShare: 10_000n, yesEach: 990_000n, feeShares: 10_000n });
    expect((await held()).map((h, i) => h - held0[i]!)).toEqual([-1_000_000n, 990_000n]);
    expect((await vault()).map((h, i) => h - vault0[i]!)).toEqual([0n, 10_000n]);
  });
});

describe('bad conversions are refused', () => {
  const marketId = () => questions[0]!.negRiskEvent!.marketId;
  const ask = (convert: { marketId: string; fromNo: number[] }, amount = '1000000') =>
    moneyActionCalls(provider, contracts, actorOf('key').account.address, { action: 'convert', amount, convert });

  it('by the toolkit, before anything is signed', async () => {
    expect(await refusal(() => ask({ marketId: marketId(), fromNo: [] }))).toMatch(/at least one outcome/);
    expect(await refusal(() => ask({ marketId: marketId(), fromNo: [4] }))).toMatch(/not in this event .*4 outcomes/);
    expect(await refusal(() => ask({ marketId: marketId(), fromNo: [1, 1] }))).toMatch(/chosen twice/);
    expect(await refusal(() => ask({ marketId: marketId(), fromNo: [3] }, '0'))).toMatch(/positive whole number/);
    expect(await refusal(() => ask({ marketId: marketId(), fromNo: [3] }))).toMatch(
      /holds 0 No shares of outcome 3; cannot convert 1/,
    );
    expect(await refusal(() => ask({ marketId: `0x${'ab'.repeat(31)}00`, fromNo: [0] }))).toMatch(/knows no event/);
    expect(await refusal(() => ask({ marketId: questionIdOf(marketId(), 1), fromNo: [0] }))).toMatch(
      /a question id, not an event's market id/,
    );
    expect(await refusal(() => ask({ marketId: lone.negRiskEvent!.marketId, fromNo: [0] }))).toMatch(
      /1 question\(s\): there is nothing to convert into/,
    );
  });

  it('by the contract: an index set outside the event, an unknown event, a question filed by another', async () => {
    const trader = new Wallet(sandbox.testWallets[0]!.privateKey, provider);
    const asTrader = adapter.connect(trader) as Contract;
    const reason = async (work: Promise<unknown>) => {
      try {
        await work;
      } catch (error) {
        return adapter.interface.parseError((error as { data: string }).data)?.name;
      }
      return 'no revert';
    };
    expect(await reason(asTrader.getFunction('convertPositions').staticCall(marketId(), 1n << 4n, 1n))).toBe(
      'InvalidIndexSet',
    );
    expect(await reason(asTrader.getFunction('convertPositions').staticCall(marketId(), 0n, 1n))).toBe(
      'InvalidIndexSet',
    );
    expect(await reason(asTrader.getFunction('convertPositions').staticCall(`0x${'cd'.repeat(32)}`, 1n, 1n))).toBe(
      'MarketNotPrepared',
    );
    expect(await reason(asTrader.getFunction('convertPositions').staticCall(lone.negRiskEvent!.marketId, 1n, 1n))).toBe(
      'NoConvertiblePositions',
    );
    expect(
      await reason(asTrader.getFunction('prepareQuestion').staticCall(marketId(), questions[0]!.conditionId, '0x')),
    ).toBe('OnlyOracle');
    // More than held: ConditionalTokens refuses the transfer of the caller's No.
    expect(await reason(asTrader.getFunction('convertPositions').staticCall(marketId(), 8n, 10n ** 12n))).not.toBe(
      'no revert',
    );
  });
});
