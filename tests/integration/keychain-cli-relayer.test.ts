// `pmdesk relayer login` against the sandbox relayer with a real OS keychain (scripts/with-keychain.sh): the API key
// comes from standard input, is checked with the relayer before it is kept, is never printed back, and then sends a
// Safe's split through the relayer on a profile that hands out no keys; a key the relayer refuses is not kept, and
// `pmdesk relayer logout` forgets it (the Safe then falls back to the key).
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AsyncEntry } from '@napi-rs/keyring';
import { getAddress } from 'ethers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../sandbox/index';
import { sandboxProvider } from '../../sandbox/chain/index';
import { tokenBalance } from '../../packages/toolkit/src/collateral/pusd';
import { KEYCHAIN_SERVICE } from '../../src/main/credentials/keychain-store';
import { relayerCredentialAccount } from '../../src/main/credentials/relayer-credentials';
import { runPmdesk, type PmdeskRun } from '../helpers/pmdesk-process';

const MARKET = '90021';
/** Real CLI processes against the sandbox: generous on a busy machine. */
const SLOW = 240_000;
let sandbox: RunningSandbox;
let provider: ReturnType<typeof sandboxProvider>;
let dir: string;
let noKeysFile: string;

const safe = () => sandbox.profile.testAccounts.find((a) => a.kind === 'safe')!;
const keyOf = (owner: string) =>
  sandbox.profile.testWallets.find((w) => getAddress(w.address) === getAddress(owner))!.privateKey;
const apiKeyOf = (owner: string) =>
  sandbox.profile.relayerApiKeys.find((k) => getAddress(k.address) === getAddress(owner))!.key;
const errorOf = (run: PmdeskRun) =>
  (JSON.parse(run.stderr.trim()) as { error: { code: string; message: string } }).error;

function pmdesk(args: string[], key: string, input?: string): Promise<PmdeskRun> {
  return runPmdesk(['--network', noKeysFile, ...args], {
    env: { PMDESK_PRIVATE_KEY: key },
    inheritEnv: true,
    ...(input === undefined ? {} : { input }),
  });
}

beforeAll(async () => {
  sandbox = await startSandbox({ ports: { rpc: 0, clob: 0, aggregator: 0 }, simulate: 'off' });
  provider = sandboxProvider(sandbox.profile.rpcUrl, sandbox.profile.chainId);
  dir = await mkdtemp(join(tmpdir(), 'pmdesk-cli-relayer-login-'));
  noKeysFile = join(dir, 'no-relayer-keys.json');
  await writeFile(noKeysFile, JSON.stringify({ ...sandbox.profile, relayerApiKeys: [] }));
  await provider.send('anvil_setBalance', [safe().owner, '0x0']);
}, 180_000);

afterAll(async () => {
  if (sandbox)
    await new AsyncEntry(
      KEYCHAIN_SERVICE,
      relayerCredentialAccount(safe().owner, sandbox.profile.relayerUrl),
    ).deletePassword();
  provider?.destroy();
  await sandbox?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('pmdesk relayer login', () => {
  it(
    'refuses a key the relayer does not accept and keeps nothing',
    async () => {
      const run = await pmdesk(['relayer', 'login', '--json'], keyOf(safe().owner), 'not-a-key-the-relayer-knows\n');
      expect(run.code).not.toBe(0);
      expect(errorOf(run).code).toBe('ERR_UNAUTHORIZED');
      expect(run.stderr).not.toContain('not-a-key-the-relayer-knows');
      expect(
        await new AsyncEntry(
          KEYCHAIN_SERVICE,
          relayerCredentialAccount(safe().owner, sandbox.profile.relayerUrl),
        ).getPassword(),
      ).toBeNull();
    },
    SLOW,
  );

  it(
    'stores the API key from standard input, never prints it, and the Safe then acts through the relayer with no POL',
    async () => {
      const { owner, address } = safe();
      const secret = apiKeyOf(owner);
      const login = await pmdesk(['relayer', 'login'], keyOf(owner), `${secret}\n`);
      expect(login.code, login.stderr).toBe(0);
      expect(login.stdout).toContain(`a relayer API key for ${getAddress(owner)}`);
      expect(login.stdout).toContain('OS keychain');
      expect(login.stdout + login.stderr).not.toContain(secret);

      const cash0 = await tokenBalance(provider, sandbox.profile.contracts.collateral, address);
      const split = await pmdesk(['split', MARKET, '1', '--yes'], keyOf(owner));
      expect(split.code, split.stderr).toBe(0);
      expect(split.stdout).toMatch(
        /no gas needed \(a relayer API key for 0x[0-9a-fA-F]{40}, stored by `pmdesk relayer login`\)/,
      );
      expect(split.stdout).toContain("Sent through Polymarket's relayer — no gas needed");
      expect(split.stdout + split.stderr).not.toContain(secret);
      expect(await tokenBalance(provider, sandbox.profile.contracts.collateral, address)).toBe(cash0 - 1_000_000n);
      expect(await provider.getBalance(owner)).toBe(0n);

      const logout = await pmdesk(['relayer', 'logout'], keyOf(owner));
      expect(logout.code, logout.stderr).toBe(0);
      const after = await pmdesk(['split', MARKET, '1'], keyOf(owner));
      expect(after.stdout + after.stderr).not.toContain('no gas needed');
    },
    SLOW,
  );

  it(
    'reads builder credentials as three lines and says how many it found when they are not',
    async () => {
      const run = await pmdesk(['relayer', 'login', '--builder', '--json'], keyOf(safe().owner), 'only-one-line\n');
      expect([run.code, errorOf(run).code]).toEqual([2, 'ERR_INVALID_PARAM']);
      expect(errorOf(run).message).toMatch(/builder key, secret and passphrase, one a line; it held 1 line/);
    },
    SLOW,
  );
});
