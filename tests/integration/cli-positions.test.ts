// `pmdesk split | merge | redeem` as a black box on the sandbox chain: the real CLI process acting as the key's
// own address, its proxy wallet (the factory's batch call) and its Safe (an owner-signed execTransaction), with
// every effect read back from the chain to the base unit. Nothing is sent without --yes; a market that has not
// resolved cannot be redeemed; an account the key does not control and a deposit wallet are refused before
// anything is sent.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Contract, Interface, Wallet, getAddress } from 'ethers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../sandbox/index';
import { TX_OVERRIDES, conditionalTokensArtifact, sandboxProvider } from '../../sandbox/chain/index';
import { positionBalances } from '../../packages/toolkit/src/positions/resolution';
import { tokenBalance } from '../../packages/toolkit/src/collateral/pusd';
import { runPmdesk, type PmdeskRun } from '../helpers/pmdesk-process';

const MARKET = '90021'; // Bitcoin above $120k: a standard (not neg-risk) binary market
let sandbox: RunningSandbox;
let provider: ReturnType<typeof sandboxProvider>;
let dir: string;
let profileFile: string;

const account = (kind: 'proxy' | 'safe' | 'deposit') => sandbox.profile.testAccounts.find((a) => a.kind === kind)!;
const keyOf = (owner: string) =>
  sandbox.profile.testWallets.find((w) => getAddress(w.address) === getAddress(owner))!.privateKey;
const market = () =>
  sandbox.deployment.markets[sandbox.catalog.events.flatMap((e) => e.markets).findIndex((m) => m.id === MARKET)]!;
const held = (holder: string) =>
  positionBalances(provider, sandbox.profile.contracts.conditionalTokens, holder, market().tokenIds);
const cash = (holder: string) => tokenBalance(provider, sandbox.profile.contracts.collateral, holder);

/** The key's own path (the key sends and pays gas): the sandbox profile's relayer keys would otherwise send a wallet's through the relayer (cli-relayer.test.ts). */
function pmdesk(args: string[], key: string): Promise<PmdeskRun> {
  const via = ['split', 'merge', 'redeem', 'pusd'].includes(args[0]!) ? ['--via', 'key'] : [];
  return runPmdesk(['--network', profileFile, ...args, ...via], { env: { PMDESK_PRIVATE_KEY: key } });
}
const json = (run: PmdeskRun) =>
  JSON.parse(run.stdout) as { sent: boolean; hashes: string[]; transactions: { from: string; to: string }[] };
const errorOf = (run: PmdeskRun) =>
  (JSON.parse(run.stderr.trim()) as { error: { code: string; message: string } }).error;

beforeAll(async () => {
  sandbox = await startSandbox({ ports: { rpc: 0, clob: 0, aggregator: 0 }, simulate: 'off' });
  provider = sandboxProvider(sandbox.profile.rpcUrl, sandbox.profile.chainId);
  dir = await mkdtemp(join(tmpdir(), 'pmdesk-cli-positions-'));
  profileFile = join(dir, 'sandbox.json');
  await writeFile(profileFile, JSON.stringify(sandbox.profile));
}, 120_000);

afterAll(async () => {
  provider?.destroy();
  await sandbox?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('pmdesk split and merge', () => {
  it('shows what it would send and sends nothing without --yes', async () => {
    const owner = sandbox.profile.testWallets[0]!;
    const before = await held(owner.address);
    const run = await pmdesk(['split', MARKET, '5'], owner.privateKey);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('$5.00 → 5 of each outcome');
    expect(run.stdout).toContain('Nothing sent: add --yes to send.');
    expect(await held(owner.address)).toEqual(before);
  });

  it.each([
    [
      'the key itself',
      () => sandbox.profile.testWallets[0]!.address,
      () => sandbox.profile.testWallets[0]!.privateKey,
      [] as string[],
    ],
    ['a proxy wallet', () => account('proxy').address, () => keyOf(account('proxy').owner), ['--account', 'proxy']],
    ['a Safe', () => account('safe').address, () => keyOf(account('safe').owner), ['--account', 'safe']],
  ])(
    'as %s: splits 10 dollars into 10 of each outcome, then merges 4 back, to the base unit',
    async (_name, holderOf, keyFor, flags) => {
      const holder = holderOf();
      const extra = flags.length ? ['--account', holder] : [];
      const [cash0, held0] = [await cash(holder), await held(holder)];
      const split = await pmdesk(['split', MARKET, '10', '--yes', '--json', ...extra], keyFor());
      expect(split.code, split.stderr).toBe(0);
      expect(json(split).sent).toBe(true);
      // The key sends, whatever account acts: one transaction for a proxy or Safe batch.
      const key = new Wallet(keyFor()).address;
      expect(json(split).transactions.every((t) => getAddress(t.from) === key)).toBe(true);
      expect(await cash(holder)).toBe(cash0 - 10_000_000n);
      expect(await held(holder)).toEqual(held0.map((h) => h + 10_000_000n));

      const merge = await pmdesk(['merge', MARKET, '4', '--yes', '--json', ...extra], keyFor());
      expect(merge.code, merge.stderr).toBe(0);
      expect(await cash(holder)).toBe(cash0 - 6_000_000n);
      expect(await held(holder)).toEqual(held0.map((h) => h + 6_000_000n));
    },
  );

  it("acts from the account `account show` names when no flag says otherwise: a Safe owner's split is the Safe's, and it says so", async () => {
    const safe = account('safe');
    const key = keyOf(safe.owner);
    const [safeHeld, keyHeld] = [await held(safe.address), await held(safe.owner)];
    const split = await pmdesk(['split', MARKET, '1', '--yes', '--json'], key);
    expect(split.code, split.stderr).toBe(0);
    expect(
      (JSON.parse(split.stdout) as { account: { address: string; kind: string; signatureType: number } }).account,
    ).toMatchObject({ address: safe.address, kind: 'safe', signatureType: 2 });
    expect(await held(safe.address)).toEqual(safeHeld.map((h) => h + 1_000_000n));
    expect(await held(safe.owner)).toEqual(keyHeld);
    // Text: stderr names the account and why; --signature-type 0 acts as the key itself.
    const text = await pmdesk(['split', MARKET, '1', '--signature-type', '0'], key);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stderr).toContain(
      `pmdesk: acting from ${getAddress(safe.owner)} (eoa, signature type 0): named by --account/--signature-type.`,
    );
    const shown = await pmdesk(['split', MARKET, '1'], key);
    expect(shown.stderr).toMatch(
      new RegExp(`^pmdesk: acting from ${safe.address} \\(safe, signature type 2\\): `, 'm'),
    );
    // The set goes back (the redeem below counts the Safe's shares), from the Safe again by default.
    expect((await pmdesk(['merge', MARKET, '1', '--yes', '--json'], key)).code).toBe(0);
    expect(await held(safe.address)).toEqual(safeHeld);
  });

  it('refuses before sending anything: more than the full sets held, an account the key does not own, a deposit wallet', async () => {
    const owner = sandbox.profile.testWallets[0]!;
    const tooMuch = await pmdesk(['merge', MARKET, '1000000', '--yes', '--json'], owner.privateKey);
    expect([tooMuch.code, errorOf(tooMuch).code]).toEqual([2, 'ERR_INVALID_PARAM']);
    const notMine = await pmdesk(
      ['split', MARKET, '1', '--yes', '--json', '--account', account('safe').address],
      owner.privateKey,
    );
    expect([notMine.code, errorOf(notMine).code]).toEqual([2, 'ERR_INVALID_PARAM']);
    const deposit = account('deposit');
    const relayer = await pmdesk(
      ['split', MARKET, '1', '--yes', '--json', '--account', deposit.address],
      keyOf(deposit.owner),
    );
    expect(errorOf(relayer).code).toBe('ERR_NOT_AVAILABLE');
    expect(relayer.code).not.toBe(0);
  });
});

describe('pmdesk redeem', () => {
  it('refuses an unresolved market, then after the result is reported pays exactly the winning shares', async () => {
    const safe = account('safe');
    const key = keyOf(safe.owner);
    const early = await pmdesk(['redeem', MARKET, '--yes', '--json', '--account', safe.address], key);
    expect([early.code, errorOf(early).code]).toEqual([2, 'ERR_INVALID_PARAM']);
    expect(errorOf(early).message).toMatch(/not resolved yet/);

    // The sandbox's operator is its markets' oracle: YES wins.
    const oracle = new Wallet(sandbox.deployment.operator.privateKey, provider);
    const ctf = new Contract(
      sandbox.profile.contracts.conditionalTokens,
      new Interface(conditionalTokensArtifact().abi as never),
      oracle,
    );
    await (await ctf.getFunction('reportPayouts')(market().questionId, [1, 0], TX_OVERRIDES)).wait();

    const [yes] = await held(safe.address);
    const cash0 = await cash(safe.address);
    const shown = await pmdesk(['redeem', MARKET, '--account', safe.address], key);
    expect(shown.stdout).toMatch(/payout\s+\$6\.00 \(Won \$6\.00\)/);
    const redeem = await pmdesk(['redeem', MARKET, '--yes', '--json', '--account', safe.address], key);
    expect(redeem.code, redeem.stderr).toBe(0);
    expect(yes).toBe(6_000_000n);
    expect(await cash(safe.address)).toBe(cash0 + 6_000_000n);
    expect(await held(safe.address)).toEqual([0n, 0n]);
  });
});

describe('pmdesk redeem on a neg-risk market', () => {
  it('redeems through the neg-risk adapter: the winning shares paid exactly, the losing ones burnt', async () => {
    const owner = sandbox.profile.testWallets[0]!;
    const index = sandbox.catalog.events.flatMap((e) => e.markets).findIndex((m) => m.id === '90012');
    const negRisk = sandbox.deployment.markets[index]!;
    expect(negRisk.negRisk).toBe(true);
    const split = await pmdesk(['split', '90012', '7', '--yes', '--json'], owner.privateKey);
    expect(split.code, split.stderr).toBe(0);
    const oracle = new Wallet(sandbox.deployment.operator.privateKey, provider);
    const ctf = new Contract(
      sandbox.profile.contracts.conditionalTokens,
      new Interface(conditionalTokensArtifact().abi as never),
      oracle,
    );
    // The second outcome (NO) wins this one.
    await (await ctf.getFunction('reportPayouts')(negRisk.questionId, [0, 1], TX_OVERRIDES)).wait();
    const heldBefore = await positionBalances(
      provider,
      sandbox.profile.contracts.conditionalTokens,
      owner.address,
      negRisk.tokenIds,
    );
    const cash0 = await cash(owner.address);
    const redeem = await pmdesk(['redeem', '90012', '--yes', '--json'], owner.privateKey);
    expect(redeem.code, redeem.stderr).toBe(0);
    expect(await cash(owner.address)).toBe(cash0 + heldBefore[1]!);
    expect(
      await positionBalances(provider, sandbox.profile.contracts.conditionalTokens, owner.address, negRisk.tokenIds),
    ).toEqual([0n, 0n]);
  });
});

describe('pmdesk account show', () => {
  it("finds the Safe owner's accounts on the chain and trades from the funded Safe; a fresh key trades as itself", async () => {
    const safe = account('safe');
    const run = await pmdesk(['account', 'show', '--json'], keyOf(safe.owner));
    expect(run.code, run.stderr).toBe(0);
    const shown = JSON.parse(run.stdout) as {
      chosen: { address: string; kind: string };
      reason: string;
      candidates: { kind: string; deployed: boolean; balance: string }[];
    };
    expect(shown.chosen).toMatchObject({ address: safe.address, kind: 'safe' });
    expect(['funded', 'profile']).toContain(shown.reason);
    expect(shown.candidates.find((c) => c.kind === 'safe')).toMatchObject({ deployed: true });
    expect(BigInt(shown.candidates.find((c) => c.kind === 'safe')!.balance)).toBeGreaterThan(0n);

    const fresh = Wallet.createRandom();
    const alone = await pmdesk(['account', 'show', fresh.address], '');
    expect(alone.code, alone.stderr).toBe(0);
    expect(alone.stdout).toMatch(/trades from\s+0x[0-9a-fA-F]{40} \(eoa\)/);
    expect(alone.stdout).toContain('the key trades as itself');
  });
});

describe('pmdesk pusd', () => {
  it('wraps USDC.e into pUSD and unwraps it back, as a proxy wallet, to the base unit', async () => {
    const proxy = account('proxy');
    const key = keyOf(proxy.owner);
    const usdcE = () => tokenBalance(provider, sandbox.profile.contracts.usdcE!, proxy.address);
    const [e0, p0] = [await usdcE(), await cash(proxy.address)];
    const wrap = await pmdesk(['pusd', 'wrap', '5', '--yes', '--json', '--account', proxy.address], key);
    expect(wrap.code, wrap.stderr).toBe(0);
    expect([await usdcE(), await cash(proxy.address)]).toEqual([e0 - 5_000_000n, p0 + 5_000_000n]);
    const unwrap = await pmdesk(['pusd', 'unwrap', '2', '--yes', '--json', '--account', proxy.address], key);
    expect(unwrap.code, unwrap.stderr).toBe(0);
    expect([await usdcE(), await cash(proxy.address)]).toEqual([e0 - 3_000_000n, p0 + 3_000_000n]);
    const tooMuch = await pmdesk(['pusd', 'unwrap', '100000000', '--json', '--account', proxy.address], key);
    expect([tooMuch.code, errorOf(tooMuch).code]).toEqual([2, 'ERR_INVALID_PARAM']);
  });
});
