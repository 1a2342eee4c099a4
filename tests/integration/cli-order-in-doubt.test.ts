// `pmdesk order place` on the profile `npm run sandbox -- --profile-out FILE` writes, as a user runs both: it signs
// for the sandbox's own exchange (the one profile loader's version defaults), and a post with no definite answer
// is reconciled by the order's hash; when the exchange then stays down, it says the order may be live, with the
// hash and the command to check, exit 3 — and the exchange indeed holds that one order.
import { spawn } from 'node:child_process';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ClobClient } from '../../packages/toolkit/src/clob/client';
import type { ApiCredentials } from '../../packages/toolkit/src/clob/auth';
import { parseNetworkProfile } from '../../packages/toolkit/src/chain/networks';
import { silentLogger } from '../../packages/toolkit/src/base/logger';
import { privateKeySigner } from '../../packages/toolkit/src/orders/signer';
import { runPmdesk } from '../helpers/pmdesk-process';
import { ForwardingProxy } from '../helpers/forwarding-proxy';

/** 'lose-answer': the exchange places the order, its answer is cut; 'go-down': that, and every later request is cut too. */
type Fault = 'lose-answer' | 'go-down';

/** Forwards to the sandbox CLOB; the next POST /order meets the queued fault. */
class FaultyProxy extends ForwardingProxy {
  fault: Fault | undefined;
  readonly forwardedPosts: string[] = [];

  protected async onRequest(req: IncomingMessage, res: ServerResponse, body: string): Promise<void> {
    const isPost = ForwardingProxy.isPost(req, '/order');
    const answer = await this.forward(req, body);
    if (isPost) this.forwardedPosts.push(body);
    if (isPost && this.fault) {
      if (this.fault === 'go-down') this.down = true;
      this.fault = undefined;
      req.socket.destroy();
      return;
    }
    ForwardingProxy.reply(res, answer);
  }
}

/** `npm run sandbox` in its own process, until it has written its profile. */
function runSandbox(args: string[]) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'sandbox/cli.ts', ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  const ready = new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString();
      if (stdout.includes('Press Ctrl-C to stop.') || stdout.includes('sandbox ready:')) resolve();
    });
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('exit', (code) => reject(new Error(`the sandbox exited early (${code}): ${stderr}`)));
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, ready, exited };
}

describe('pmdesk order place on the profile npm run sandbox writes', () => {
  let sandbox: ReturnType<typeof runSandbox>;
  let profileFile: string;
  let proxy: FaultyProxy;
  let direct: ClobClient;
  let env: Record<string, string>;
  let token: string;

  beforeAll(async () => {
    const dir = await mkdtemp(join(tmpdir(), 'pmdesk-in-doubt-'));
    profileFile = join(dir, 'profile.json');
    sandbox = runSandbox(['--ports-auto', '--no-sim', '--profile-out', profileFile, '--seed', '5']);
    await sandbox.ready;
    const raw = JSON.parse(await readFile(profileFile, 'utf8')) as {
      clobUrl: string;
      testWallets: { privateKey: string }[];
    };
    const network = parseNetworkProfile(raw);
    const key = raw.testWallets[0]!.privateKey;
    const base = {
      host: raw.clobUrl,
      chainId: network.chainId,
      networks: [network],
      throwOnError: true,
      logger: silentLogger,
    };
    const creds = (await new ClobClient({
      ...base,
      signer: privateKeySigner(key),
    }).createOrDeriveApiKey()) as ApiCredentials;
    direct = new ClobClient({ ...base, signer: privateKeySigner(key), creds });
    env = {
      PMDESK_PRIVATE_KEY: key,
      PMDESK_API_KEY: creds.key,
      PMDESK_API_SECRET: creds.secret,
      PMDESK_API_PASSPHRASE: creds.passphrase,
    };
    const markets = (await direct.getMarkets()) as {
      data: { active?: boolean; closed?: boolean; neg_risk?: boolean; tokens: { token_id: string }[] }[];
    };
    token = markets.data.find((m) => m.active !== false && !m.closed && !m.neg_risk)!.tokens[0]!.token_id;
    proxy = new FaultyProxy(raw.clobUrl);
    await proxy.start();
  }, 120_000);
  afterAll(async () => {
    await proxy?.stop();
    sandbox?.child.kill('SIGTERM');
    await sandbox?.exited;
  });

  const place = (price: string, viaProxy: boolean) =>
    runPmdesk(
      [
        '--json',
        '--network',
        profileFile,
        ...(viaProxy ? ['--clob-url', proxy.url] : []),
        'order',
        'place',
        '--token',
        token,
        '--side',
        'BUY',
        '--price',
        price,
        '--size',
        '10',
      ],
      { env },
    );
  const openHashes = async () =>
    ((await direct.getOpenOrders({ asset_id: token })) as { id: string }[]).map((o) => o.id);

  it('places an order with the documented flow: the sandbox exchange signs version 2 orders', async () => {
    const run = await place('0.05', false);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const out = JSON.parse(run.stdout) as {
      orderHash: string;
      orderVersion: number;
      reconciled: boolean;
      status: { status: string };
    };
    expect(out).toMatchObject({ orderVersion: 2, reconciled: false, status: { status: 'LIVE' } });
    expect(await openHashes()).toContain(out.orderHash);
    await direct.cancelAll();
  }, 60_000);

  it('a post whose answer is lost is found by its hash and placed once (exit 0)', async () => {
    proxy.forwardedPosts.length = 0;
    proxy.fault = 'lose-answer';
    const run = await place('0.06', true);
    expect(run.code).toBe(0);
    const out = JSON.parse(run.stdout) as { orderHash: string; reconciled: boolean };
    expect(out.reconciled).toBe(true);
    expect(proxy.forwardedPosts).toHaveLength(1);
    expect(await openHashes()).toEqual([out.orderHash]);
    await direct.cancelAll();
  }, 60_000);

  it('when the exchange goes down after taking the order, says it may be live with its hash and `pmdesk order get`, exit 3', async () => {
    proxy.forwardedPosts.length = 0;
    proxy.fault = 'go-down';
    const run = await place('0.07', true);
    proxy.down = false;
    expect(run.code).toBe(3);
    expect(run.stdout).toBe('');
    const error = (JSON.parse(run.stderr.trim()) as { error: { code: string; message: string; orderHash: string } })
      .error;
    expect(error.orderHash).toMatch(/^0x[0-9a-f]{64}$/);
    expect(error.message).toContain(`may be live`);
    expect(error.message).toContain(`pmdesk order get ${error.orderHash}`);
    // It was never sent twice, and the exchange does hold it: "may be live" was the truth, not a failure.
    expect(proxy.forwardedPosts).toHaveLength(1);
    expect(await openHashes()).toEqual([error.orderHash]);
    // Text mode says the same to a person.
    proxy.fault = 'go-down';
    const text = await runPmdesk(
      [
        '--network',
        profileFile,
        '--clob-url',
        proxy.url,
        'order',
        'place',
        '--token',
        token,
        '--side',
        'BUY',
        '--price',
        '0.08',
        '--size',
        '10',
      ],
      { env },
    );
    proxy.down = false;
    expect(text.code).toBe(3);
    expect(text.stderr).toMatch(/Order 0x[0-9a-f]{64} may be live: .*Check it with `pmdesk order get 0x[0-9a-f]{64}`/);
    await direct.cancelAll();
  }, 60_000);
});
