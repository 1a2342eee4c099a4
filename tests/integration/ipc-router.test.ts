// The router in front of every operation, with the real services behind it: an aggregator client talking to
// a fixture server that records every request, and the wallets over a real signer worker in a temp folder.
// The sender check and the schema check must stop a request before either service sees it.
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  DEFAULT_MAX_PAYLOAD_BYTES,
  OPERATION_NAMES,
  ContractErrorCode,
  operations,
  type OperationName,
  type Result,
} from '../../src/shared/contract';
import { ErrorCode } from '../../packages/toolkit/src/model/errors';
import { allowOrigins, registerRouter, type SenderInfo } from '../../src/main/ipc/router';
import { openTerminal, type Terminal } from '../../src/main/terminal/terminal';
import { TRADING_OPERATIONS, TRADING_UNAVAILABLE } from '../../src/main/ipc/services';
import { startSignerThread } from '../../src/main/wallets/signer-thread';
import { startFixtureServer, type FixtureServer } from '../helpers/fixture-server';
import { event, fillHistory } from '../helpers/aggregator-fixtures';
import { VALID_INPUT, WRONG_FOR_EVERY_FIELD, findSecrets } from '../helpers/contract-examples';

const APP = 'app://pmdesk';
const trusted: SenderInfo = { origin: APP, mainFrame: true, clientId: 'window-1' };

let server: FixtureServer;
let terminal: Terminal;
let dataDir: string;

beforeAll(async () => {
  server = await startFixtureServer();
  server.on('GET', '/v1/ongoing-events', (_r, reply) => reply.json(200, [event]));
  server.on('GET', '/v1/markets/506729/orderbook/filledevents', (_r, reply) => reply.json(200, fillHistory));
  dataDir = await mkdtemp(join(tmpdir(), 'pmdesk-ipc-'));
  terminal = openTerminal({
    profile: { name: 'fixture', chainId: 31338, clobUrl: '', aggregatorUrl: server.url },
    shell: 'electron',
    allowSender: allowOrigins([APP]),
    wallets: { dataDir, signer: startSignerThread(), scryptN: 2 ** 12 },
  });
});
afterAll(async () => {
  await terminal?.close();
  await server?.stop();
  await rm(dataDir, { recursive: true, force: true });
});
beforeEach(() => {
  server.requests.length = 0;
});

const call = (op: unknown, payload: unknown, sender: SenderInfo = trusted) => terminal.router.call(op, payload, sender);
const walletFiles = async () => (await readdir(join(dataDir, 'wallets')).catch(() => [])).length;

function expectRefused(result: Result<unknown>, code: string): void {
  expect(result.ok).toBe(false);
  if (result.ok) return;
  expect(result.error.code).toBe(code);
  expect(typeof result.error.message).toBe('string');
  expect(Object.keys(result.error).sort()).toEqual(['code', 'message']);
}

describe('the sender check', () => {
  it.each([
    ['another origin', { origin: 'https://evil.example', mainFrame: true, clientId: 'x' }],
    ['a look-alike origin', { origin: 'app://pmdesk.evil', mainFrame: true, clientId: 'x' }],
    ['no origin (a file: or data: page)', { origin: null, mainFrame: true, clientId: 'x' }],
    ['our origin but an iframe', { origin: APP, mainFrame: false, clientId: 'x' }],
  ])('refuses %s before anything else, for every operation', async (_name, sender) => {
    for (const op of OPERATION_NAMES) expectRefused(await call(op, VALID_INPUT[op], sender), ErrorCode.FORBIDDEN);
    // An unknown operation from a stranger is refused the same way: it learns nothing about what exists.
    expectRefused(await call('noSuchThing', {}, sender), ErrorCode.FORBIDDEN);
    expect(server.requests).toHaveLength(0);
    expect(await walletFiles()).toBe(0);
  });

  it('a policy that throws refuses', async () => {
    const router = openTerminal({
      profile: { name: 'x', chainId: 31338, clobUrl: '', aggregatorUrl: server.url },
      shell: 'browser',
      allowSender: () => {
        throw new Error('broken policy');
      },
    }).router;
    expectRefused(await router.call('getNetwork', {}, trusted), ErrorCode.FORBIDDEN);
  });
});

describe('valid calls reach the services', () => {
  it('listEvents sends the page to the aggregator and tags the result', async () => {
    const result = await call('listEvents', { page: 2, limit: 1 });
    expect(result).toMatchObject({ ok: true, value: { page: 2, limit: 1, hasMore: true, events: [{ id: '12483' }] } });
    expect(server.requests.map((r) => r.url)).toEqual(['/v1/ongoing-events?protocol=polymarket&page=2&limit=1']);
  });

  it('getCandles buckets the fills of the outcome asked for', async () => {
    const result = await call('getCandles', { marketId: '506729', outcomeIndex: 0, interval: '1h' });
    expect(result).toEqual({
      ok: true,
      value: [
        { time: 1747389600, open: 0.51, high: 0.55, low: 0.51, close: 0.55, volume: 120 },
        { time: 1747393200, open: 0.5, high: 0.5, low: 0.5, close: 0.5, volume: 5 },
      ],
    });
    expectRefused(await call('getCandles', { marketId: '506729', outcomeIndex: 5 }), ErrorCode.NOT_FOUND);
  });

  it('getCandles serves minute candles: each fill in its own minute, none for empty minutes', async () => {
    const result = await call('getCandles', { marketId: '506729', outcomeIndex: 0, interval: '1m' });
    // Fills at …90000, …90500 and …94000 s: three different minutes, each bucket starting on its minute.
    expect(result).toEqual({
      ok: true,
      value: [
        { time: 1747389960, open: 0.51, high: 0.51, low: 0.51, close: 0.51, volume: 100 },
        { time: 1747390500, open: 0.55, high: 0.55, low: 0.55, close: 0.55, volume: 20 },
        { time: 1747393980, open: 0.5, high: 0.5, low: 0.5, close: 0.5, volume: 5 },
      ],
    });
    expectRefused(
      await call('getCandles', { marketId: '506729', outcomeIndex: 0, interval: '2m' }),
      ErrorCode.INVALID_PARAMETER,
    );
  });

  it('a server error becomes its catalogue code, not a crash', async () => {
    expectRefused(await call('getMarket', { marketId: 'missing' }), ErrorCode.NOT_FOUND);
  });

  it('every trading operation says plainly that trading is not available yet', async () => {
    for (const op of TRADING_OPERATIONS) {
      const result = await call(op, VALID_INPUT[op]);
      expectRefused(result, ContractErrorCode.NOT_AVAILABLE);
      expect(!result.ok && result.error.message).toBe(TRADING_UNAVAILABLE);
    }
  });

  it('the network answer carries no test-wallet keys and names the shell', async () => {
    const result = await call('getNetwork', {});
    expect(result).toEqual({
      ok: true,
      value: {
        name: 'fixture',
        chainId: 31338,
        orderVersion: null,
        source: 'aggregator',
        clobUrl: '',
        aggregatorUrl: server.url,
        gammaUrl: '',
        sandbox: true,
        shell: 'electron',
      },
    });
  });

  it('a wallet error never echoes the password or key it was given', async () => {
    const privateKey = `0x${'ab'.repeat(32)}`;
    const tooShort = 'short1';
    const result = await call('importWallet', {
      label: 'k',
      password: tooShort,
      source: { kind: 'privateKey', privateKey },
    });
    expectRefused(result, ErrorCode.INVALID_PARAMETER);
    expect(findSecrets(result, [privateKey, tooShort])).toEqual([]);
    expect(await walletFiles()).toBe(0);
  });
});

// ---------------------------------------------------------------------------------------------------------

function cyclic(): unknown {
  const a: Record<string, unknown> = { label: 'x' };
  a.self = a;
  return a;
}
function deep(levels: number): unknown {
  let v: unknown = 'bottom';
  for (let i = 0; i < levels; i++) v = [v];
  return v;
}
/** A tiny seeded generator, so a failing case can be replayed. */
function prng(seed: number) {
  let s = seed >>> 0;
  return () => (s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32;
}
function randomJunk(next: () => number, depth = 0): unknown {
  const pick = Math.floor(next() * 9);
  switch (pick) {
    case 0:
      return null;
    case 1:
      return next() < 0.5;
    case 2:
      return [Number.NaN, Number.POSITIVE_INFINITY, -0, 1e308, -1, 2 ** 53 + 1][Math.floor(next() * 6)];
    case 3:
      return String.fromCharCode(...Array.from({ length: Math.floor(next() * 40) }, () => Math.floor(next() * 0xd7ff)));
    case 4:
      return depth > 3 ? [] : Array.from({ length: Math.floor(next() * 4) }, () => randomJunk(next, depth + 1));
    default:
      return depth > 3
        ? {}
        : Object.fromEntries(
            Array.from({ length: 1 + Math.floor(next() * 3) }, (_, i) => [
              `k${i}${Math.floor(next() * 99)}`,
              randomJunk(next, depth + 1),
            ]),
          );
  }
}

/** Inputs that are wrong by construction for operation `op`. */
function malformed(op: OperationName): [string, unknown][] {
  const valid = VALID_INPUT[op] as Record<string, unknown>;
  const limit = operations[op].maxPayloadBytes ?? DEFAULT_MAX_PAYLOAD_BYTES;
  const cases: [string, unknown][] = [
    ['null', null],
    ['a number', 42],
    ['a string', 'listEvents'],
    ['an array', [valid]],
    ['true', true],
    ['an unknown field', { ...valid, extra: 1 }],
    ['an own __proto__ field', { ...JSON.parse('{"__proto__":{"polluted":true}}'), ...valid }],
    ['a constructor field', { ...valid, constructor: { prototype: { polluted: true } } }],
    ['oversized', { ...valid, padding: 'x'.repeat(limit) }],
    ['oversized, multi-byte', { ...valid, padding: '€'.repeat(Math.ceil(limit / 3) + 1) }],
    ['a cycle', cyclic()],
    ['a BigInt', { ...valid, big: 10n }],
    ['nested 100000 deep', { ...valid, deep: deep(100_000) }],
    ['a Map', new Map(Object.entries(valid))],
    ['a Date', new Date()],
    ['a Set', new Set([valid])],
    ['bytes', new Uint8Array(8)],
    ['a class instance', Object.assign(new (class Order {})(), valid)],
    ['a Map in a field', { ...valid, extra: new Map() }],
  ];
  for (const field of Object.keys(valid)) {
    const right = (valid as Record<string, unknown>)[field];
    for (const wrong of WRONG_FOR_EVERY_FIELD) {
      // `true` in a boolean field, `[]` in a list field and `null` in a nullable one (a field whose valid example is
      // null: chooseWalletAccount's account) are well-formed: everything else must be refused.
      if (
        (typeof wrong === 'boolean' && typeof right === 'boolean') ||
        (Array.isArray(wrong) && Array.isArray(right)) ||
        (wrong === null && right === null)
      )
        continue;
      cases.push([`${field} = ${JSON.stringify(wrong)}`, { ...valid, [field]: wrong }]);
    }
    cases.push([`${field} a function`, { ...valid, [field]: () => 1 }]);
    cases.push([`${field} a Date`, { ...valid, [field]: new Date() }]);
  }
  const next = prng(op.length * 7919);
  for (let i = 0; i < 25; i++) cases.push([`random junk #${i}`, { ...valid, [`junk${i}`]: randomJunk(next) }]);
  return cases;
}

describe('fuzz: malformed, oversized and wrongly typed payloads at every operation', () => {
  it.each(OPERATION_NAMES.map((op) => [op]))(
    '%s rejects each with ERR_INVALID_PARAM before any service',
    async (op) => {
      for (const [name, payload] of malformed(op)) {
        const result = await call(op, payload);
        expect({ name, ok: result.ok, code: !result.ok && result.error.code }).toEqual({
          name,
          ok: false,
          code: ErrorCode.INVALID_PARAMETER,
        });
      }
      expect(server.requests).toHaveLength(0);
      expect(await walletFiles()).toBe(0);
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    },
  );

  it('random payloads never crash the router, and only schema-valid ones reach a service', async () => {
    const next = prng(20261122);
    for (let i = 0; i < 400; i++) {
      const op = OPERATION_NAMES[Math.floor(next() * OPERATION_NAMES.length)]!;
      const payload = randomJunk(next);
      const before = server.requests.length;
      const result = await call(op, payload);
      expect(typeof result.ok).toBe('boolean');
      if (!operations[op].input.safeParse(payload).success) {
        expect(result.ok).toBe(false);
        expect(server.requests.length).toBe(before);
      }
    }
    expect(await walletFiles()).toBe(0);
  });

  it('an unknown operation or a non-string name is refused with a code', async () => {
    for (const name of [
      'invoke',
      'signMessage',
      'signTypedData',
      '__proto__',
      'constructor',
      'toString',
      42,
      null,
      {},
      ['listEvents'],
    ]) {
      expectRefused(await call(name, {}), ErrorCode.INVALID_PARAMETER);
    }
  });
});

describe('registering on a transport', () => {
  it('puts every operation on its own channel, routes through the router, and disposes them all once', async () => {
    const channels = new Map<string, (sender: SenderInfo, payload: unknown) => Promise<Result<unknown>>>();
    const removed: string[] = [];
    const dispose = registerRouter(terminal.router, {
      handle: (operation, listener) => {
        channels.set(operation, listener);
        return () => removed.push(operation);
      },
    });
    expect([...channels.keys()]).toEqual([...OPERATION_NAMES]);
    expect(await channels.get('getNetwork')!(trusted, {})).toMatchObject({ ok: true });
    expectRefused(await channels.get('getNetwork')!({ ...trusted, mainFrame: false }, {}), ErrorCode.FORBIDDEN);
    dispose();
    dispose();
    expect(removed).toEqual([...OPERATION_NAMES]);
  });
});
