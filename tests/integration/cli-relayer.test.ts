// `pmdesk split | merge | redeem | pusd wrap` through Polymarket's relayer, as a black box on the sandbox: a proxy
// wallet (relayed through the profile's relay hub), a Safe and a deposit wallet whose owner key holds NO POL at all
// (and still holds none after), every effect read back from the chain to the base unit; a deposit wallet that is not deployed yet is deployed first through the relayer; the
// sandbox profile's relayer API keys are used with no login; `pmdesk relayer tx` reads the transaction back; and the
// path is refused where it cannot be honoured (--via relayer for the key itself, --via key for a deposit wallet).
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Contract, Interface, Wallet, getAddress } from 'ethers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../sandbox/index';
import { TX_OVERRIDES, compileContracts, conditionalTokensArtifact, sandboxProvider } from '../../sandbox/chain/index';
import { positionBalances } from '../../packages/toolkit/src/positions/resolution';
import { tokenBalance } from '../../packages/toolkit/src/collateral/pusd';
import { deriveDepositWallet } from '../../packages/toolkit/src/accounts/derive';
import { parseNetworkProfile, walletConfigFor } from '../../packages/toolkit/src/chain/networks';
import { runPmdesk, type PmdeskRun } from '../helpers/pmdesk-process';

const MARKET = '90021'; // Bitcoin above $120k: a standard binary market
const GASLESS = "Sent through Polymarket's relayer — no gas needed";
/** Each test runs several real CLI processes against the sandbox: generous on a busy machine. */
const SLOW = 240_000;
let sandbox: RunningSandbox;
let provider: ReturnType<typeof sandboxProvider>;
let dir: string;
let profileFile: string;
let noKeysFile: string;

const account = (kind: 'proxy' | 'safe' | 'deposit') => sandbox.profile.testAccounts.find((a) => a.kind === kind)!;
const keyOf = (owner: string) =>
  sandbox.profile.testWallets.find((w) => getAddress(w.address) === getAddress(owner))!.privateKey;
const market = () =>
  sandbox.deployment.markets[sandbox.catalog.events.flatMap((e) => e.markets).findIndex((m) => m.id === MARKET)]!;
const held = (holder: string) =>
  positionBalances(provider, sandbox.profile.contracts.conditionalTokens, holder, market().tokenIds);
const cash = (holder: string) => tokenBalance(provider, sandbox.profile.contracts.collateral, holder);
const usdcE = (holder: string) => tokenBalance(provider, sandbox.profile.contracts.usdcE!, holder);
const pol = (address: string) => provider.getBalance(address);

function pmdesk(args: string[], key: string, profile = profileFile): Promise<PmdeskRun> {
  return runPmdesk(['--network', profile, ...args], { env: { PMDESK_PRIVATE_KEY: key } });
}
interface Relayed {
  via: string;
  sent: boolean;
  hashes: string[];
  relayerType: string;
  relayer: { transactionID: string; transactionHash: string; state: string };
  account: { address: string };
}
const json = (run: PmdeskRun) => JSON.parse(run.stdout) as Relayed;
const errorOf = (run: PmdeskRun) =>
  (JSON.parse(run.stderr.trim()) as { error: { code: string; message: string } }).error;

beforeAll(async () => {
  sandbox = await startSandbox({ ports: { rpc: 0, clob: 0, aggregator: 0 }, simulate: 'off' });
  provider = sandboxProvider(sandbox.profile.rpcUrl, sandbox.profile.chainId);
  dir = await mkdtemp(join(tmpdir(), 'pmdesk-cli-relayer-'));
  profileFile = join(dir, 'sandbox.json');
  await writeFile(profileFile, JSON.stringify(sandbox.profile));
  noKeysFile = join(dir, 'no-relayer-keys.json');
  await writeFile(noKeysFile, JSON.stringify({ ...sandbox.profile, relayerApiKeys: [] }));
  // The owners hold no POL at all: whatever is sent, the relayer pays for.
  for (const w of sandbox.profile.testWallets) await provider.send('anvil_setBalance', [w.address, '0x0']);
}, 180_000);

afterAll(async () => {
  provider?.destroy();
  await sandbox?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('money commands through the relayer, the key holding no POL', () => {
  it.each(['proxy', 'safe', 'deposit'] as const)(
    "as a %s: split, merge and wrap, each effect on chain, the key's POL still zero",
    async (kind) => {
      const { address: holder, owner } = account(kind);
      const key = keyOf(owner);
      const [cash0, held0, usdcE0] = [await cash(holder), await held(holder), await usdcE(holder)];

      const shown = await pmdesk(['split', MARKET, '10'], key);
      expect(shown.code, shown.stderr).toBe(0);
      expect(shown.stdout).toMatch(
        /sent through\s+Polymarket's relayer at http:\/\/127\.0\.0\.1:\d+ — no gas needed \(a relayer API key for 0x[0-9a-fA-F]{40}, the network profile's test key\)/,
      );
      expect(shown.stdout).toContain('Nothing sent: add --yes to send.');
      expect(await held(holder)).toEqual(held0);

      const split = await pmdesk(['split', MARKET, '10', '--yes'], key);
      expect(split.code, split.stderr).toBe(0);
      expect(split.stdout).toContain(GASLESS);
      expect(split.stderr).toMatch(/submitted to Polymarket's relayer as \S+/);
      expect(await cash(holder)).toBe(cash0 - 10_000_000n);
      expect(await held(holder)).toEqual(held0.map((h) => h + 10_000_000n));

      const merge = await pmdesk(['merge', MARKET, '4', '--yes', '--json'], key);
      expect(merge.code, merge.stderr).toBe(0);
      const merged = json(merge);
      expect([merged.via, merged.sent, merged.relayerType, getAddress(merged.account.address)]).toEqual([
        'relayer',
        true,
        { proxy: 'PROXY', safe: 'SAFE', deposit: 'WALLET' }[kind],
        getAddress(holder),
      ]);
      expect(['STATE_MINED', 'STATE_CONFIRMED']).toContain(merged.relayer.state);
      expect(await cash(holder)).toBe(cash0 - 6_000_000n);
      expect(await held(holder)).toEqual(held0.map((h) => h + 6_000_000n));

      const wrap = await pmdesk(['pusd', 'wrap', '2', '--yes', '--json'], key);
      expect(wrap.code, wrap.stderr).toBe(0);
      expect(await usdcE(holder)).toBe(usdcE0 - 2_000_000n);
      expect(await cash(holder)).toBe(cash0 - 4_000_000n);

      // The relayer's record of the merge, as `pmdesk relayer tx` reads it back.
      const tx = await pmdesk(['relayer', 'tx', merged.relayer.transactionID], key);
      expect(tx.code, tx.stderr).toBe(0);
      expect(tx.stdout).toMatch(/state\s+STATE_(MINED|CONFIRMED)/);
      expect(tx.stdout).toContain(merged.relayer.transactionHash);

      expect(await pol(new Wallet(key).address)).toBe(0n);
    },
    SLOW,
  );

  it(
    "redeems a resolved market's winnings through the relayer, gasless",
    async () => {
      // The sandbox's operator is its markets' oracle: YES wins.
      const oracle = new Wallet(sandbox.deployment.operator.privateKey, provider);
      const ctf = new Contract(
        sandbox.profile.contracts.conditionalTokens,
        new Interface(conditionalTokensArtifact().abi as never),
        oracle,
      );
      await (await ctf.getFunction('reportPayouts')(market().questionId, [1, 0], TX_OVERRIDES)).wait();
      for (const kind of ['proxy', 'safe', 'deposit'] as const) {
        const { address: holder, owner } = account(kind);
        const [yes] = await held(holder);
        const cash0 = await cash(holder);
        const redeem = await pmdesk(['redeem', MARKET, '--yes'], keyOf(owner));
        expect(redeem.code, redeem.stderr).toBe(0);
        expect(redeem.stdout).toContain(GASLESS);
        expect(await cash(holder)).toBe(cash0 + yes!);
        expect(await held(holder)).toEqual([0n, 0n]);
        expect(await pol(owner)).toBe(0n);
      }
    },
    SLOW,
  );

  it(
    'deploys a deposit wallet that has no code yet through the relayer, then wraps from it',
    async () => {
      const owner = sandbox.profile.testWallets[0]!; // owns no test account: its deposit wallet is not deployed
      const wallet = deriveDepositWallet(
        owner.address,
        walletConfigFor(parseNetworkProfile(sandbox.profile)),
        'beacon',
      )!;
      expect(await provider.getCode(wallet)).toBe('0x');
      const minter = new Wallet(sandbox.deployment.operator.privateKey, provider);
      const token = new Contract(sandbox.profile.contracts.usdcE!, compileContracts().Collateral.abi, minter);
      await (await token.getFunction('mint')(wallet, 5_000_000n, TX_OVERRIDES)).wait();

      const shown = await pmdesk(['pusd', 'wrap', '3', '--account', wallet], owner.privateKey);
      expect(shown.code, shown.stderr).toBe(0);
      expect(shown.stdout).toMatch(/WALLET, after deploying the deposit wallet \(WALLET-CREATE\)/);
      const wrap = await pmdesk(['pusd', 'wrap', '3', '--account', wallet, '--yes'], owner.privateKey);
      expect(wrap.code, wrap.stderr).toBe(0);
      expect(wrap.stderr).toContain('deploying it through the relayer first');
      expect(await provider.getCode(wallet)).not.toBe('0x');
      expect(await usdcE(wallet)).toBe(2_000_000n);
      expect(await cash(wallet)).toBe(3_000_000n);
      expect(await pol(owner.address)).toBe(0n);
    },
    SLOW,
  );
});

describe('which path a money command takes', () => {
  it(
    'without relayer credentials a Safe falls back to the key, which must then pay gas (and here cannot)',
    async () => {
      const { owner } = account('safe');
      const shown = await pmdesk(['split', MARKET, '1'], keyOf(owner), noKeysFile);
      // The key path quotes gas against the key's POL: zero, so it refuses before sending anything.
      expect(shown.code).not.toBe(0);
      expect(shown.stderr).toMatch(/POL/);
      const forced = await pmdesk(['split', MARKET, '1', '--via', 'relayer', '--json'], keyOf(owner), noKeysFile);
      expect([forced.code, errorOf(forced).code]).toEqual([2, 'ERR_INVALID_PARAM']);
      expect(errorOf(forced).message).toContain('pmdesk relayer login');
    },
    SLOW,
  );

  it(
    'refuses --via relayer for the key itself, --via key for a deposit wallet, and a --via that is neither',
    async () => {
      const eoa = await pmdesk(
        ['split', MARKET, '1', '--json', '--via', 'relayer', '--signature-type', '0'],
        sandbox.profile.testWallets[0]!.privateKey,
      );
      expect([eoa.code, errorOf(eoa).code]).toEqual([2, 'ERR_INVALID_PARAM']);
      const { owner } = account('deposit');
      const deposit = await pmdesk(['split', MARKET, '1', '--yes', '--json', '--via', 'key'], keyOf(owner));
      expect(errorOf(deposit).code).toBe('ERR_NOT_AVAILABLE');
      expect(errorOf(deposit).message).toContain('pmdesk relayer login');
      const neither = await pmdesk(['split', MARKET, '1', '--json', '--via', 'gsn'], keyOf(owner));
      expect([neither.code, errorOf(neither).code]).toEqual([2, 'ERR_INVALID_PARAM']);
    },
    SLOW,
  );

  it(
    'with no keychain, `pmdesk relayer login` says the relayer credentials live for this run only, not derived again',
    async () => {
      // runPmdesk gives the CLI no D-Bus session: no OS keychain.
      const { owner } = account('safe');
      const apiKey = sandbox.profile.relayerApiKeys.find((k) => getAddress(k.address) === getAddress(owner))!.key;
      const login = await runPmdesk(['--network', noKeysFile, 'relayer', 'login'], {
        env: { PMDESK_PRIVATE_KEY: keyOf(owner) },
        input: `${apiKey}\n`,
      });
      expect(login.code, login.stderr).toBe(0);
      expect(login.stderr).toContain('No OS keychain is available');
      expect(login.stderr).toContain(
        'Relayer credentials cannot be derived: they are kept in memory for this run only; enter them again next time.',
      );
      expect(login.stdout).toContain('no keychain: kept in memory for this run only');
      expect(login.stdout).toContain('They are gone when this command ends');
      expect(login.stdout + login.stderr).not.toContain(apiKey);
    },
    SLOW,
  );

  it('`pmdesk relayer tx` of an unknown id is not found', async () => {
    const run = await pmdesk(
      ['relayer', 'tx', 'no-such-transaction', '--json'],
      sandbox.profile.testWallets[0]!.privateKey,
    );
    expect([run.code, errorOf(run).code]).toEqual([1, 'ERR_NOT_FOUND']);
  });
});
