// The dead-man switch through the real exchange client against a fixture HTTP server: the first beat starts
// a chain with "", every later one sends the id the last answer named, a failing exchange is reported as
// failing (and a forgotten chain restarted), and stopping ends the beats. The clock is injected.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ClobClient } from '../../packages/toolkit/src/clob/client';
import { privateKeySigner } from '../../packages/toolkit/src/orders/signer';
import { DeadManSwitch, type HeartbeatState } from '../../src/main/feeds/heartbeat';
import { ManualScheduler } from '../../src/main/feeds/scheduler';
import { startFixtureServer, type FixtureServer } from '../helpers/fixture-server';
import { until } from '../helpers/until';

const KEY = '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80';
const CREDS = { key: 'api-key-1', secret: 'c2VjcmV0LWJ5dGVzLWZvci10ZXN0cy0xMjM0NTY3OA==', passphrase: 'pass-phrase' };

let server: FixtureServer;
let answers: { status: number; body: unknown }[] = [];
beforeAll(async () => {
  server = await startFixtureServer();
  server.on('POST', '/v1/heartbeats', (_r, reply) => {
    const next = answers.shift() ?? { status: 500, body: { error: 'no scripted answer' } };
    reply.json(next.status, next.body);
  });
});
afterAll(async () => {
  await server.stop();
});

describe('dead-man switch', () => {
  it('chains heartbeat ids, reports failures and a restarted chain, and stops', async () => {
    server.requests.length = 0;
    answers = [
      { status: 200, body: { heartbeat_id: 'hb-1' } },
      { status: 200, body: { heartbeat_id: 'hb-2' } },
      { status: 503, body: { error: 'unavailable' } },
      { status: 400, body: { error: 'Invalid heartbeat id' } },
      { status: 200, body: { heartbeat_id: 'hb-3' } },
    ];
    const clock = new ManualScheduler();
    const states: [HeartbeatState, string | undefined][] = [];
    const client = new ClobClient({ host: server.url, chainId: 137, signer: privateKeySigner(KEY), creds: CREDS });
    const dms = new DeadManSwitch({
      client,
      intervalMs: 5_000,
      scheduler: clock,
      onState: (s, d) => states.push([s, d]),
    });
    expect(dms.state).toBe('off');
    dms.start();
    const beat = async (n: number) => {
      await until(() => server.to('/v1/heartbeats').length === n && clock.pending === 1, `beat ${n}`);
    };
    await beat(1);
    expect(dms.state).toBe('on');
    clock.advance(5_000);
    await beat(2);
    clock.advance(5_000);
    await beat(3);
    expect(dms.state).toBe('failing');
    clock.advance(5_000);
    await beat(4);
    clock.advance(5_000);
    await beat(5);
    expect(dms.state).toBe('on');

    const sent = server.to('/v1/heartbeats').map((r) => JSON.parse(r.body) as { heartbeat_id: string });
    // hb-2 is resent after the 503 (the chain may still be alive); after the 400 a new chain starts with "".
    expect(sent.map((b) => b.heartbeat_id)).toEqual(['', 'hb-1', 'hb-2', 'hb-2', '']);
    expect(server.to('/v1/heartbeats')[0]!.headers['poly_api_key']).toBe(CREDS.key);
    expect(states.map(([s]) => s)).toEqual(['on', 'failing', 'failing', 'on']);
    expect(states[1]![1]).toContain('unavailable');

    dms.stop();
    expect(dms.state).toBe('off');
    expect(clock.pending).toBe(0);
    clock.advance(60_000);
    expect(server.to('/v1/heartbeats')).toHaveLength(5);
    expect(states.at(-1)).toEqual(['off', undefined]);
  });

  it('reports failing when the exchange cannot be reached', async () => {
    const clock = new ManualScheduler();
    const states: HeartbeatState[] = [];
    const client = new ClobClient({
      host: 'http://127.0.0.1:9',
      chainId: 137,
      signer: privateKeySigner(KEY),
      creds: CREDS,
    });
    const dms = new DeadManSwitch({ client, scheduler: clock, onState: (s) => states.push(s) });
    dms.start();
    await until(() => states.length === 1, 'first beat');
    expect(states).toEqual(['failing']);
    dms.stop();
  });
});
