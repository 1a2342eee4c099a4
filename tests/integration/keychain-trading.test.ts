// The order flow's API credentials in the real OS keychain (gnome-keyring in the private D-Bus session that
// scripts/with-keychain.sh starts): a wallet's first `pmdesk trade` creates them and keeps them there, and the
// next process creates none; credentials the exchange refuses are replaced. Runs in the `keychain` project.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CredentialVault } from '../../src/main/credentials/api-credentials';
import { CREDS_CREATION_WARNING } from '../../packages/toolkit/src/clob/auth';
import { startSignerThread } from '../../src/main/wallets/signer-thread';
import type { SignerClient } from '../../src/main/wallets/signer-client';
import { PASSWORD, freshWallet, startTradingSandbox, type TradingSandbox } from '../helpers/trading-sandbox';
import { runPmdesk, type PmdeskRun } from '../helpers/pmdesk-process';

function pmdesk(args: string[], env: Record<string, string>, input?: string): Promise<PmdeskRun> {
  // The whole environment: the child needs this session's D-Bus address to reach the keychain.
  return runPmdesk(args, { env: { PMDESK_PASSWORD: PASSWORD, ...env }, input, inheritEnv: true });
}

describe('pmdesk trade keeps API credentials in the OS keychain', () => {
  let sb: TradingSandbox;
  let signer: SignerClient;
  let env: Record<string, string>;
  let dir: string | undefined;
  let address: string;

  beforeAll(async () => {
    sb = await startTradingSandbox();
    dir = await mkdtemp(join(tmpdir(), 'pmdesk-keychain-trade-'));
    const profile = join(dir, 'profile.json');
    await writeFile(profile, JSON.stringify(sb.sandbox.profile));
    env = { PMDESK_DATA_DIR: join(dir, 'data') };
    signer = startSignerThread();
    const fresh = await freshWallet(sb, signer, { unlock: false });
    address = fresh.address;
    expect(
      (await pmdesk(['wallet', 'import', '--label', 'trader', '--private-key-stdin'], env, fresh.privateKey)).code,
    ).toBe(0);
    env.PROFILE = profile;
  }, 120_000);
  afterAll(async () => {
    if (address) await (await CredentialVault.open()).forgetWallet(address);
    await signer?.close();
    await sb?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('creates them on the first order and keeps them; the next process creates none; stale ones are replaced', async () => {
    const order = [
      'trade',
      'buy',
      '--market',
      '90021',
      '--outcome',
      'Yes',
      '--size',
      '5',
      '--price',
      '0.1',
      '--profile',
      env.PROFILE!,
    ];
    const first = await pmdesk(order, env);
    expect(first.code).toBe(0);
    expect(first.stderr).toContain(`${CREDS_CREATION_WARNING} PM Desk keeps them in the OS keychain`);
    expect(first.stderr).not.toContain('No OS keychain');

    const vault = await CredentialVault.open();
    expect(vault.storage).toBe('keychain');
    const kept = await vault.load(address, sb.profile.network.clobUrl);
    expect(kept).toMatchObject({ key: expect.any(String), secret: expect.any(String), passphrase: expect.any(String) });

    const second = await pmdesk([...order.slice(0, -4), '--price', '0.11', '--profile', env.PROFILE!], env);
    expect(second.code).toBe(0);
    expect(second.stderr).not.toContain(CREDS_CREATION_WARNING);
    expect(await vault.load(address, sb.profile.network.clobUrl)).toEqual(kept);

    // Credentials the exchange no longer knows (a revoked key, a restarted exchange): proven, refused, replaced.
    await vault.save(address, sb.profile.network.clobUrl, {
      key: '00000000-0000-0000-0000-000000000000',
      secret: 'c3RhbGU=',
      passphrase: 'stale',
    });
    const third = await pmdesk([...order.slice(0, -4), '--price', '0.12', '--profile', env.PROFILE!], env);
    expect(third.code).toBe(0);
    expect(await vault.load(address, sb.profile.network.clobUrl)).toEqual(kept);
  });
});
