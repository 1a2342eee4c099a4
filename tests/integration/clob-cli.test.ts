// `pmdesk clob|keys|order|trades|balance` as a black box: the real CLI process against a real HTTP server on
// loopback. Exit 0 on success, 2 for input refused before any request, 1 otherwise; secrets never printed.
import { createHmac } from 'node:crypto';
import { mkdtemp, readFile, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TypedDataEncoder, recoverAddress } from 'ethers';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFixtureServer, type FixtureServer, type RecordedRequest } from '../helpers/fixture-server';
import { runPmdesk, type PmdeskRun } from '../helpers/pmdesk-process';

const KEY = '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80';
const ADDRESS = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';
const SECRET = 'c2VjcmV0LWJ5dGVzLWZvci10ZXN0cy0xMjM0NTY3OA==';
const PASSPHRASE = 'correct-horse-passphrase';
const ENV = {
  PMDESK_PRIVATE_KEY: KEY,
  PMDESK_API_KEY: 'api-key-1',
  PMDESK_API_SECRET: SECRET,
  PMDESK_API_PASSPHRASE: PASSPHRASE,
};
const TOKEN = '71321045679252212594626385532706912750332728571942532289631379312455583992563';

let server: FixtureServer;
let dir: string;

type Run = PmdeskRun;

function pmdesk(args: string[], env: Record<string, string> = ENV): Promise<Run> {
  return runPmdesk(['--clob-url', server.url, ...args], { env });
}

const json = (run: Run) => JSON.parse(run.stdout) as Record<string, unknown>;
const errorOf = (run: Run) => (JSON.parse(run.stderr.trim()) as { error: Record<string, unknown> }).error;
function expectNoSecrets(run: Run) {
  for (const secret of [KEY, KEY.slice(2), SECRET, PASSPHRASE]) {
    expect(run.stdout).not.toContain(secret);
    expect(run.stderr).not.toContain(secret);
  }
}
function expectSigned(request: RecordedRequest, method: string, path: string) {
  const expected = createHmac('sha256', Buffer.from(SECRET, 'base64'))
    .update(`${request.headers.poly_timestamp as string}${method}${path}${request.body}`)
    .digest('base64')
    .replace(/\+/g, '-')
    .replace(/\//g, '_');
  expect(request.headers.poly_signature).toBe(expected);
  expect(request.headers.poly_address).toBe(ADDRESS);
}

const BUILD = [
  'order',
  'build',
  '--json',
  '--token',
  TOKEN,
  '--side',
  'SELL',
  '--price',
  '0.9975',
  '--size',
  '33.33',
  '--tick-size',
  '0.0025',
  '--neg-risk',
  'true',
];
/** The key's own Safe on Polygon (docs/protocol.md#address-derivation): an account it controls. */
const SAFE = '0xd93B25cb943D14d0d34FBaF01Fc93a0f8b5F6E47';
const FIXED = [
  '--salt',
  '479249096354',
  '--timestamp',
  '1780449126930',
  '--order-version',
  '2',
  '--chain',
  '137',
  '--signature-type',
  '2',
  '--account',
  SAFE,
];

beforeAll(async () => {
  server = await startFixtureServer();
  dir = await mkdtemp(join(tmpdir(), 'pmdesk-clob-cli-'));
});
afterAll(() => server.stop());
beforeEach(() => {
  server.reset();
  server.fallback = (_req, reply) => reply.json(404, { message: 'no fixture for this route' });
});

describe('pmdesk order build (no network)', () => {
  it('prints a deterministic signed order, its hash and the POST body', async () => {
    const first = await pmdesk([
      ...BUILD,
      ...FIXED,
      '--order-type',
      'GTD',
      '--post-only',
      '--expiration',
      '1900000000',
      '--owner',
      'owner-1',
    ]);
    expect(first.code).toBe(0);
    const again = await pmdesk([
      ...BUILD,
      ...FIXED,
      '--order-type',
      'GTD',
      '--post-only',
      '--expiration',
      '1900000000',
      '--owner',
      'owner-1',
    ]);
    expect(again.stdout).toBe(first.stdout);
    const out = json(first) as {
      signedOrder: Record<string, unknown>;
      orderHash: string;
      body: Record<string, unknown>;
    };
    expect(Object.keys(out)).toEqual(['signedOrder', 'orderHash', 'body']);
    expect(out.signedOrder).toMatchObject({
      maker: SAFE,
      signer: ADDRESS,
      makerAmount: '33330000',
      takerAmount: '33246675',
      side: 'SELL',
      signatureType: 2,
      timestamp: '1780449126930',
      expiration: '1900000000',
    });
    expect(recoverAddress(out.orderHash, out.signedOrder.signature as string)).toBe(ADDRESS);
    expect(out.body).toMatchObject({
      deferExec: false,
      postOnly: true,
      owner: 'owner-1',
      orderType: 'GTD',
      order: { salt: 479249096354 },
    });
    expect(server.requests).toHaveLength(0);
    expectNoSecrets(first);
  });

  it('signs version 1 with fee, nonce and taker, and market orders at the given price', async () => {
    const v1 = await pmdesk([
      'order',
      'build',
      '--json',
      '--token',
      TOKEN,
      '--side',
      'SELL',
      '--price',
      '0.999',
      '--size',
      '33.33',
      '--tick-size',
      '0.001',
      ...FIXED.slice(0, 4),
      '--order-version',
      '1',
      '--fee-rate-bps',
      '100',
      '--nonce',
      '3',
      '--taker',
      ADDRESS,
    ]);
    expect(v1.code).toBe(0);
    expect(json(v1).signedOrder as Record<string, unknown>).toMatchObject({
      feeRateBps: '100',
      nonce: '3',
      taker: ADDRESS,
      maker: ADDRESS,
    });
    const market = await pmdesk([
      'order',
      'build',
      '--json',
      '--token',
      TOKEN,
      '--side',
      'BUY',
      '--amount',
      '100',
      '--price',
      '0.56',
      '--tick-size',
      '0.01',
      '--salt',
      '1',
      '--timestamp',
      '1',
    ]);
    expect(market.code).toBe(0);
    expect(json(market).signedOrder).toMatchObject({
      makerAmount: '100000000',
      takerAmount: '178571400',
      expiration: '0',
    });
    expect(json(market).body).toMatchObject({ orderType: 'FOK' });
  });

  it('refuses bad input with exit 2 and the reason, before anything is signed or sent', async () => {
    const cases: [string[], string, Record<string, string>?][] = [
      [
        [
          'order',
          'build',
          '--json',
          '--token',
          TOKEN,
          '--side',
          'SELL',
          '--price',
          '0.995',
          '--size',
          '1',
          '--tick-size',
          '0.01',
        ],
        'invalid price (0.995), min: 0.01 - max: 0.99',
      ],
      [
        ['order', 'build', '--json', '--token', TOKEN, '--side', 'BUY', '--price', '0.5', '--size', '1'],
        '--tick-size is required for order build (there is no market to ask).',
      ],
      [[...BUILD, '--side', 'HOLD'], '--side must be BUY or SELL, got HOLD'],
      [[...BUILD, '--amount', '5'], 'Give exactly one of --size (limit order) or --amount (market order).'],
      [[...BUILD, '--chain', '1'], 'Invalid network'],
      [[...BUILD, '--order-type', 'FOK', '--post-only'], 'postOnly is not supported for FOK/FAK orders'],
      [[...BUILD, '--sig-type', '4'], '--signature-type must be 0, 1, 2 or 3, got 4'],
      [
        [...BUILD, '--order-version', '1'],
        'invalid tick size (0.0025) for order version 1, must be one of 0.1, 0.01, 0.001, 0.0001',
      ],
      [BUILD, 'Set PMDESK_PRIVATE_KEY (hex) to sign.', {}],
    ];
    for (const [args, message, env] of cases) {
      const run = await pmdesk(args, env);
      expect(run.code, message).toBe(2);
      expect(errorOf(run).message).toBe(message);
      expect(run.stdout).toBe('');
    }
    expect(server.requests).toHaveLength(0);
  });
});

describe('a custom network profile (--network)', () => {
  it('signs for its chain, version and exchange, and reaches its exchange URL', async () => {
    const exchange = '0x5FbDB2315678afecb367f032d93F642f64180aa3';
    const file = join(dir, 'sandbox-network.json');
    await writeFile(
      file,
      JSON.stringify({
        name: 'sandbox',
        chainId: 31337,
        orderVersion: 3,
        clobUrl: server.url,
        contracts: { exchangeV3: exchange },
      }),
    );
    const run = await pmdesk([
      'order',
      'build',
      '--json',
      '--network',
      file,
      '--token',
      '7',
      '--side',
      'BUY',
      '--price',
      '0.5',
      '--size',
      '10',
      '--tick-size',
      '0.01',
      '--salt',
      '5',
      '--timestamp',
      '9',
    ]);
    expect(run.code).toBe(0);
    const out = json(run) as { signedOrder: Record<string, unknown>; orderHash: string };
    const { signature, expiration: _expiration, ...fields } = out.signedOrder;
    const types = {
      Order: [
        { name: 'salt', type: 'uint256' },
        { name: 'maker', type: 'address' },
        { name: 'signer', type: 'address' },
        { name: 'tokenId', type: 'uint256' },
        { name: 'makerAmount', type: 'uint256' },
        { name: 'takerAmount', type: 'uint256' },
        { name: 'side', type: 'uint8' },
        { name: 'signatureType', type: 'uint8' },
        { name: 'timestamp', type: 'uint256' },
        { name: 'metadata', type: 'bytes32' },
        { name: 'builder', type: 'bytes32' },
      ],
    };
    const domain = { name: 'Polymarket CTF Exchange', version: '3', chainId: 31337, verifyingContract: exchange };
    expect(out.orderHash).toBe(TypedDataEncoder.hash(domain, types, { ...fields, side: 0 }));
    expect(recoverAddress(out.orderHash, signature as string)).toBe(ADDRESS);

    server.json('GET', '/ok', 'OK');
    const ok = await spawnWithout(['--network', file, '--json', 'clob', 'ok']);
    expect(ok.code).toBe(0);
    expect(server.last().path).toBe('/ok');

    const missing = await pmdesk([
      'order',
      'build',
      '--json',
      '--network',
      file,
      '--token',
      '7',
      '--side',
      'BUY',
      '--price',
      '0.5',
      '--size',
      '1',
      '--tick-size',
      '0.01',
      '--order-version',
      '2',
    ]);
    expect(missing.code).toBe(2);
    expect(errorOf(missing).message).toBe('The network profile sandbox has no exchangeV2 address for order version 2.');
    await writeFile(join(dir, 'broken.json'), '{"chainId": "x"');
    const broken = await pmdesk(['order', 'build', '--json', '--network', join(dir, 'broken.json'), ...BUILD.slice(3)]);
    expect(broken.code).toBe(2);
  });
});

/** Runs pmdesk without the --clob-url flag, so the URL must come from elsewhere (the profile). */
function spawnWithout(args: string[]): Promise<Run> {
  return runPmdesk(args);
}

describe('pmdesk clob reads', () => {
  // Each read is answered in its own shape (a junk body is the fault suite's) and printed exactly as parsed.
  const BOOK = { market: '0xc', asset_id: TOKEN, bids: [{ price: '0.4', size: '3' }], asks: [], hash: 'h' };
  const reads: [string[], string, unknown, unknown][] = [
    [['clob', 'ok'], '/ok', 'OK', 'OK'],
    [['clob', 'time'], '/time', 1_700_000_000, 1_700_000_000],
    [['clob', 'version'], '/version', {}, 2],
    [['clob', 'book', TOKEN], `/book?token_id=${TOKEN}`, BOOK, BOOK],
    [
      ['clob', 'price', TOKEN, '--side', 'BUY'],
      `/price?token_id=${TOKEN}&side=BUY`,
      { price: '0.4' },
      { price: '0.4' },
    ],
    [['clob', 'midpoint', TOKEN], `/midpoint?token_id=${TOKEN}`, { mid: '0.45' }, { mid: '0.45' }],
    [['clob', 'spread', TOKEN], `/spread?token_id=${TOKEN}`, { spread: '0.1' }, { spread: '0.1' }],
    [
      ['clob', 'last-trade', TOKEN],
      `/last-trade-price?token_id=${TOKEN}`,
      { price: '0.4', side: 'SELL' },
      { price: '0.4', side: 'SELL' },
    ],
    [
      ['clob', 'tick-size', TOKEN],
      `/tick-size?token_id=${TOKEN}`,
      { minimum_tick_size: 0.001 },
      { minimum_tick_size: '0.001' },
    ],
    [['clob', 'neg-risk', TOKEN], `/neg-risk?token_id=${TOKEN}`, { neg_risk: true }, { neg_risk: true }],
    [
      ['clob', 'prices-history', '--market', TOKEN, '--interval', '1w'],
      `/prices-history?market=${TOKEN}&interval=1w`,
      { history: [{ t: 1, p: 0.4 }] },
      { history: [{ t: 1, p: 0.4 }] },
    ],
  ];
  for (const [args, url, answer, expected] of reads) {
    it(`${args.slice(0, 2).join(' ')} sends ${url.split('?')[0]} and prints the parsed answer`, async () => {
      server.fallback = (_req, reply) => reply.json(200, answer);
      const run = await pmdesk(['--json', ...args], {});
      expect(run.code).toBe(0);
      expect(server.last().url).toBe(url);
      expect(json(run)).toEqual(expected);
    });
  }

  it('clob book prints bids and asks best first without --json', async () => {
    server.json('GET', '/book', {
      asset_id: TOKEN,
      tick_size: '0.01',
      bids: [
        { price: '0.40', size: '10' },
        { price: '0.45', size: '5' },
      ],
      asks: [
        { price: '0.60', size: '7' },
        { price: '0.55', size: '3' },
        { price: '0.50', size: '1' },
      ],
    });
    const run = await pmdesk(['clob', 'book', TOKEN], {});
    expect(run.code).toBe(0);
    expect(run.stdout.split('\n').slice(0, 6)).toEqual([
      `${TOKEN}  tick 0.01`,
      'bid size   bid   ask  ask size',
      '--------  ----  ----  --------',
      '       5  0.45  0.50         1',
      '      10  0.40  0.55         3',
      '                0.60         7',
    ]);
  });

  it('pages every market with --all, and reports a server failure with exit 1', async () => {
    server.on('GET', '/markets', (req, reply) =>
      reply.json(
        200,
        req.query.get('next_cursor') === 'MA=='
          ? { data: [{ id: 1 }], next_cursor: 'MQ==' }
          : { data: [{ id: 2 }], next_cursor: 'LTE=' },
      ),
    );
    const run = await pmdesk(['--json', 'clob', 'markets', '--all'], {});
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual([{ id: 1 }, { id: 2 }]);
    server.json('GET', '/ok', { error: 'maintenance' }, 503);
    const down = await pmdesk(['--json', 'clob', 'ok'], {});
    expect(down.code).toBe(1);
    expect(errorOf(down)).toMatchObject({ code: 'ERR_SERVER', statusCode: 503, methodName: 'getOk' });
  });
});

describe('pmdesk keys', () => {
  it('writes created credentials to a new 0600 file, prints only the key, and warns', async () => {
    server.json('POST', '/auth/api-key', { apiKey: 'new-key', secret: 'new-secret', passphrase: 'new-pass' });
    const out = join(dir, 'creds.json');
    const run = await pmdesk(['--json', 'keys', 'create', '--out', out, '--nonce', '4']);
    expect(run.code).toBe(0);
    expect(json(run)).toEqual({ key: 'new-key', savedTo: out });
    expect(run.stdout).not.toContain('new-secret');
    expect(run.stderr).toContain('cannot be recovered');
    expect(JSON.parse(await readFile(out, 'utf8'))).toEqual({
      key: 'new-key',
      secret: 'new-secret',
      passphrase: 'new-pass',
    });
    expect((await stat(out)).mode & 0o777).toBe(0o600);
    expect(server.last().headers).toMatchObject({ poly_address: ADDRESS, poly_nonce: '4' });
    const sent = server.requests.length;
    const again = await pmdesk(['--json', 'keys', 'create', '--out', out]);
    expect(again.code).toBe(2);
    expect(errorOf(again).message).toContain('it exists');
    // Refused before the exchange is asked: no key is made that would have nowhere to go.
    expect(server.requests).toHaveLength(sent);
    expect(JSON.parse(await readFile(out, 'utf8'))).toMatchObject({ key: 'new-key' });
  });

  it('leaves no file behind when the exchange gives no key', async () => {
    server.json('POST', '/auth/api-key', { error: 'refused' }, 400);
    const out = join(dir, 'refused.json');
    const run = await pmdesk(['--json', 'keys', 'create', '--out', out]);
    expect(run.code).toBe(1);
    await expect(stat(out)).rejects.toThrow(/ENOENT/);
  });

  it('derives first, creates when none results, and refuses to print credentials', async () => {
    server.json('GET', '/auth/derive-api-key', { error: 'not found' }, 404);
    server.json('POST', '/auth/api-key', { apiKey: 'k2', secret: 's2', passphrase: 'p2' });
    const run = await pmdesk(['--json', 'keys', 'create-or-derive', '--out', join(dir, 'c2.json')]);
    expect(run.code).toBe(0);
    expect(server.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      'GET /auth/derive-api-key',
      'POST /auth/api-key',
    ]);
    const noOut = await pmdesk(['--json', 'keys', 'derive']);
    expect(noOut.code).toBe(2);
  });

  it('lists and deletes with level 2 headers', async () => {
    server.json('GET', '/auth/api-keys', { apiKeys: ['api-key-1'] });
    server.json('DELETE', '/auth/api-key', 'OK');
    expect((await pmdesk(['--json', 'keys', 'list'])).code).toBe(0);
    expectSigned(server.last(), 'GET', '/auth/api-keys');
    expect((await pmdesk(['--json', 'keys', 'delete'])).code).toBe(0);
    expectSigned(server.last(), 'DELETE', '/auth/api-key');
    const missing = await pmdesk(['--json', 'keys', 'list'], { PMDESK_PRIVATE_KEY: KEY });
    expect(missing.code).toBe(2);
  });
});

describe('pmdesk order place and account commands', () => {
  beforeEach(() => {
    server.json('GET', '/tick-size', { minimum_tick_size: 0.01 });
    server.json('GET', '/neg-risk', { neg_risk: false });
    server.json('GET', '/version', { version: 2 });
    server.json('POST', '/order', { success: true, orderID: '0xorder', status: 'live' });
    server.json('GET', '/data/order/0xorder', { id: '0xorder', status: 'LIVE', size_matched: '0' });
  });

  it('asks the market what it needs, signs, posts, then reads the status', async () => {
    // No chain node here: the key trading as itself is said outright (order place no longer assumes it).
    const run = await pmdesk([
      '--json',
      'order',
      'place',
      '--token',
      TOKEN,
      '--side',
      'BUY',
      '--price',
      '0.56',
      '--size',
      '21.04',
      '--signature-type',
      '0',
    ]);
    expect(run.code).toBe(0);
    expect(server.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      'GET /tick-size',
      'GET /version',
      'GET /neg-risk',
      'POST /order',
      'GET /data/order/0xorder',
    ]);
    const post = server.to('/order')[0]!;
    expectSigned(post, 'POST', '/order');
    expect(JSON.parse(post.body)).toMatchObject({
      owner: 'api-key-1',
      orderType: 'GTC',
      order: { makerAmount: '11782400', takerAmount: '21040000' },
    });
    expect(json(run)).toMatchObject({ orderVersion: 2, response: { orderID: '0xorder' }, status: { status: 'LIVE' } });
    expectNoSecrets(run);
  });

  it('prices a market order from the book', async () => {
    server.json('GET', '/book', { asset_id: TOKEN, asks: [{ price: '0.6', size: '1000' }], bids: [] });
    const run = await pmdesk([
      '--json',
      'order',
      'place',
      '--token',
      TOKEN,
      '--side',
      'BUY',
      '--amount',
      '30',
      '--tick-size',
      '0.01',
      '--neg-risk',
      'false',
      '--order-version',
      '2',
      '--signature-type',
      '0',
    ]);
    expect(run.code).toBe(0);
    expect(JSON.parse(server.to('/order')[0]!.body)).toMatchObject({
      orderType: 'FOK',
      order: { makerAmount: '30000000', takerAmount: '50000000' },
    });
  });

  const cancelled = { canceled: ['0xa'], not_canceled: {} };
  const WELL_FORMED: Record<string, unknown> = {
    '/order': cancelled,
    '/orders': cancelled,
    '/cancel-all': cancelled,
    '/cancel-market-orders': cancelled,
    '/balance-allowance': { balance: '0', allowances: {} },
  };
  const signedCalls: [string[], string, string, string, string][] = [
    [['order', 'get', '0xorder'], 'GET', '/data/order/0xorder', '/data/order/0xorder', ''],
    [['order', 'open', '--market', '0xm'], 'GET', '/data/orders', '/data/orders?market=0xm&next_cursor=MA%3D%3D', ''],
    [['order', 'cancel', '0xa'], 'DELETE', '/order', '/order', '{"orderID":"0xa"}'],
    [['order', 'cancel', '0xa', '0xb'], 'DELETE', '/orders', '/orders', '["0xa","0xb"]'],
    [['order', 'cancel-all'], 'DELETE', '/cancel-all', '/cancel-all', ''],
    [
      ['order', 'cancel-market', '--market', '0xm', '--asset', TOKEN],
      'DELETE',
      '/cancel-market-orders',
      '/cancel-market-orders',
      `{"market":"0xm","asset_id":"${TOKEN}"}`,
    ],
    [['trades', '--asset', TOKEN], 'GET', '/data/trades', `/data/trades?asset_id=${TOKEN}&next_cursor=MA%3D%3D`, ''],
    [
      ['balance', '--asset-type', 'CONDITIONAL', '--token', TOKEN],
      'GET',
      '/balance-allowance',
      `/balance-allowance?asset_type=CONDITIONAL&token_id=${TOKEN}&signature_type=0`,
      '',
    ],
  ];
  for (const [args, method, path, url, body] of signedCalls) {
    it(`${args.join(' ')} sends a signed ${method} ${path}`, async () => {
      // Each answer in its endpoint's shape: a wrong shape is refused (the fault suite shows it).
      server.fallback = (req, reply) => reply.json(200, WELL_FORMED[req.url.split('?')[0]!] ?? { ok: true });
      server.on('GET', '/data/orders', (_r, reply) => reply.json(200, { data: [{ id: 'a' }], next_cursor: 'LTE=' }));
      server.on('GET', '/data/trades', (_r, reply) => reply.json(200, { data: [{ id: 't' }], next_cursor: 'LTE=' }));
      const run = await pmdesk(['--json', ...args]);
      expect(run.code).toBe(0);
      expect(`${server.last().method} ${server.last().url}`).toBe(`${method} ${url}`);
      expect(server.last().body).toBe(body);
      expectSigned(server.last(), method, path);
      expectNoSecrets(run);
    });
  }

  it('refuses cancel-market without a market, and balance of a token without --token, before any request', async () => {
    expect((await pmdesk(['--json', 'order', 'cancel-market'])).code).toBe(2);
    expect((await pmdesk(['--json', 'balance', '--asset-type', 'CONDITIONAL'])).code).toBe(2);
    expect(server.requests).toHaveLength(0);
  });
});
