// A relayer that refuses, goes silent after taking a request, or reports a state that never ends, met by `pmdesk
// split` from a Safe and a deposit wallet on the sandbox (tests/helpers/relayer-fault-proxy.ts in front of the sandbox
// relayer): nothing is ever submitted twice, nothing is half-done (an action whose wallet deployment did not end is
// never signed), and the message says what is known — the relayer's own refusal, "it was not sent again", or
// "Submitted as 0x…, not yet mined: pmdesk relayer tx <id>", which then reads the transaction back.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Contract, Wallet, getAddress } from 'ethers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../sandbox/index';
import { TX_OVERRIDES, compileContracts, sandboxProvider } from '../../sandbox/chain/index';
import { positionBalances } from '../../packages/toolkit/src/positions/resolution';
import { tokenBalance } from '../../packages/toolkit/src/collateral/pusd';
import { deriveDepositWallet } from '../../packages/toolkit/src/accounts/derive';
import { parseNetworkProfile, walletConfigFor } from '../../packages/toolkit/src/chain/networks';
import { RelayerFaultProxy } from '../helpers/relayer-fault-proxy';
import { runPmdesk, type PmdeskRun } from '../helpers/pmdesk-process';

const MARKET = '90021';
/** Real CLI processes against the sandbox: generous on a busy machine. */
const SLOW = 240_000;
let sandbox: RunningSandbox;
let provider: ReturnType<typeof sandboxProvider>;
let proxy: RelayerFaultProxy;
let dir: string;
let faultyFile: string;
let directFile: string;

const safe = () => sandbox.profile.testAccounts.find((a) => a.kind === 'safe')!;
const keyOf = (owner: string) =>
  sandbox.profile.testWallets.find((w) => getAddress(w.address) === getAddress(owner))!.privateKey;
const market = () =>
  sandbox.deployment.markets[sandbox.catalog.events.flatMap((e) => e.markets).findIndex((m) => m.id === MARKET)]!;
const held = (holder: string) =>
  positionBalances(provider, sandbox.profile.contracts.conditionalTokens, holder, market().tokenIds);
const cash = (holder: string) => tokenBalance(provider, sandbox.profile.contracts.collateral, holder);
const errorOf = (run: PmdeskRun) =>
  (JSON.parse(run.stderr.trim()) as { error: { code: string; message: string } }).error;

function pmdesk(args: string[], key: string, profile = faultyFile): Promise<PmdeskRun> {
  return runPmdesk(['--network', profile, ...args], { env: { PMDESK_PRIVATE_KEY: key } });
}

beforeAll(async () => {
  sandbox = await startSandbox({ ports: { rpc: 0, clob: 0, aggregator: 0 }, simulate: 'off' });
  provider = sandboxProvider(sandbox.profile.rpcUrl, sandbox.profile.chainId);
  proxy = new RelayerFaultProxy(sandbox.profile.relayerUrl);
  await proxy.start();
  dir = await mkdtemp(join(tmpdir(), 'pmdesk-relayer-faults-'));
  faultyFile = join(dir, 'faulty.json');
  directFile = join(dir, 'direct.json');
  await writeFile(faultyFile, JSON.stringify({ ...sandbox.profile, relayerUrl: proxy.url }));
  await writeFile(directFile, JSON.stringify(sandbox.profile));
}, 180_000);

afterAll(async () => {
  await proxy?.stop();
  provider?.destroy();
  await sandbox?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('a relayer that fails the trader', () => {
  it(
    'refuses with a 4xx: its message is shown, nothing changed, nothing resubmitted',
    async () => {
      const { address, owner } = safe();
      const [cash0, held0] = [await cash(address), await held(address)];
      const before = proxy.submissions.length;
      proxy.submitFaults.push('refuse');
      const run = await pmdesk(['split', MARKET, '2', '--yes', '--json'], keyOf(owner));
      expect(run.code).not.toBe(0);
      expect(errorOf(run).message).toContain('nonce 7 is not the Safe’s nonce 8');
      expect(proxy.submissions.length - before).toBe(1);
      expect([await cash(address), await held(address)]).toEqual([cash0, held0]);
    },
    SLOW,
  );

  it(
    'takes the request and goes silent: a timeout that says it was not sent again, and it ran once',
    async () => {
      const { address, owner } = safe();
      const [cash0, held0] = [await cash(address), await held(address)];
      const before = proxy.submissions.length;
      proxy.submitFaults.push('hold');
      const run = await pmdesk(['split', MARKET, '2', '--yes', '--json', '--timeout-ms', '3000'], keyOf(owner));
      expect(run.code).not.toBe(0);
      expect(errorOf(run).code).toBe('ERR_TIMEOUT');
      expect(errorOf(run).message).toMatch(/may have received the SAFE request; it was not sent again/);
      expect(proxy.submissions.length - before).toBe(1);
      // The relayer did run it, exactly once.
      expect(await cash(address)).toBe(cash0 - 2_000_000n);
      expect(await held(address)).toEqual(held0.map((h) => h + 2_000_000n));
    },
    SLOW,
  );

  it(
    'answers a state that never ends: says what is known and how to look again, which then shows it mined',
    async () => {
      const { address, owner } = safe();
      const cash0 = await cash(address);
      const before = proxy.submissions.length;
      proxy.neverEnds = true;
      try {
        const run = await pmdesk(['split', MARKET, '1', '--yes', '--json', '--wait', '0'], keyOf(owner));
        expect(run.code).not.toBe(0);
        const error = errorOf(run);
        expect(error.code).toBe('ERR_TIMEOUT');
        const said = /^Submitted as (0x[0-9a-f]{64}), not yet mined \(STATE_NEW\): pmdesk relayer tx (\S+)$/.exec(
          error.message,
        );
        expect(said, error.message).not.toBeNull();
        expect(proxy.submissions.length - before).toBe(1);
        const tx = await pmdesk(['relayer', 'tx', said![2]!, '--json'], keyOf(owner), directFile);
        expect(tx.code, tx.stderr).toBe(0);
        const record = JSON.parse(tx.stdout) as { state: string; transactionHash: string };
        expect(record.transactionHash).toBe(said![1]);
        expect(['STATE_MINED', 'STATE_CONFIRMED']).toContain(record.state);
        expect(await cash(address)).toBe(cash0 - 1_000_000n);
      } finally {
        proxy.neverEnds = false;
      }
    },
    SLOW,
  );

  it(
    'leaves nothing half-done: a deployment that never ends stops the action before it is signed',
    async () => {
      const owner = sandbox.profile.testWallets[0]!; // its deposit wallet has no code yet
      const wallet = deriveDepositWallet(
        owner.address,
        walletConfigFor(parseNetworkProfile(sandbox.profile)),
        'beacon',
      )!;
      const minter = new Wallet(sandbox.deployment.operator.privateKey, provider);
      const token = new Contract(sandbox.profile.contracts.usdcE!, compileContracts().Collateral.abi, minter);
      await (await token.getFunction('mint')(wallet, 4_000_000n, TX_OVERRIDES)).wait();
      const before = proxy.submissions.length;
      proxy.neverEnds = true;
      try {
        const run = await pmdesk(
          ['pusd', 'wrap', '1', '--account', wallet, '--yes', '--json', '--wait', '0'],
          owner.privateKey,
        );
        expect(run.code).not.toBe(0);
        expect(errorOf(run).message).toMatch(
          /had to be deployed first, and that did not end: Submitted as 0x[0-9a-f]{64}, not yet mined \(STATE_NEW\): pmdesk relayer tx \S+ The action itself was not sent\./,
        );
        const sent = proxy.submissions.slice(before).map((b) => (JSON.parse(b) as { type: string }).type);
        expect(sent).toEqual(['WALLET-CREATE']);
        expect(await tokenBalance(provider, sandbox.profile.contracts.collateral, wallet)).toBe(0n);
      } finally {
        proxy.neverEnds = false;
      }
    },
    SLOW,
  );
});
