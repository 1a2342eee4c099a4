// `pmdesk account derive` and the --account/--signature-type overrides of `order build|place` and `trade`, as a
// black box: the real CLI process (bundle built by `npm run build:cli`). Derivation is offline; an override to an
// account the key does not control is refused (exit 2) before anything is signed, unlocked or sent.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { recoverAddress } from 'ethers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deriveAccounts } from '../../packages/toolkit/src/accounts/derive';
import { depositWalletDigest } from '../../packages/toolkit/src/orders/wallet-signature';
import { startFixtureServer, type FixtureServer } from '../helpers/fixture-server';
import { runPmdesk, type PmdeskRun } from '../helpers/pmdesk-process';

const KEY = '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80';
const ADDRESS = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';
const PASSWORD = 'correct horse battery staple';
const TOKEN = '71321045679252212594626385532706912750332728571942532289631379312455583992563';
/** docs/protocol.md#address-derivation rows 1 and 3 (Polygon). */
const ROW1 = {
  proxy: '0x365f0CA36Ae1f641E02fE3B7743673da42A13A70',
  safe: '0xd93B25cb943D14d0d34FBaF01Fc93a0f8b5F6E47',
  beacon: '0xBc0fF067b7740Eff76C1ca93c875Ba6B890d6B50',
  uups: '0xdf8b9E8f9AB23f261F6e1B171B7454ae6E46Ba76',
};
const ONE = '0x0000000000000000000000000000000000000001';
const ROW3 = {
  proxy: '0x7754536ecd85c00b2E0CF9c1aA679340D8550756',
  safe: '0x766b6851A199BF91Ae3fa13B1cfaC5187355118f',
  beacon: '0x94bF330955A0b957662fEaF878dE77bf25f76cD9',
  uups: '0x57ffBc34De23124fAeb8387fcd689d314E57aCcD',
};
const STRANGER = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
const ENV = {
  PMDESK_PRIVATE_KEY: KEY,
  PMDESK_API_KEY: 'api-key-1',
  PMDESK_API_SECRET: 'c2VjcmV0',
  PMDESK_API_PASSPHRASE: 'pp',
};

let dir: string;
let server: FixtureServer;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'pmdesk-cli-account-'));
  server = await startFixtureServer();
});
afterAll(async () => {
  await server.stop();
  await rm(dir, { recursive: true, force: true });
});

const json = (run: PmdeskRun) => JSON.parse(run.stdout) as Record<string, unknown>;
const errorOf = (run: PmdeskRun) =>
  (JSON.parse(run.stderr.trim()) as { error: { code: string; message: string } }).error;

describe('pmdesk account derive', () => {
  it('prints every kind for the published vectors, offline and with no key', async () => {
    for (const [owner, row] of [
      [ADDRESS, ROW1],
      [ONE, ROW3],
    ] as const) {
      const run = await runPmdesk(['account', 'derive', owner.toLowerCase(), '--json']);
      expect(run.code, run.stderr).toBe(0);
      expect(json(run)).toEqual({
        owner,
        chainId: 137,
        accounts: [
          { kind: 'eoa', signatureType: 0, address: owner },
          { kind: 'deposit-wallet', signatureType: 3, address: row.beacon, era: 'beacon' },
          { kind: 'deposit-wallet', signatureType: 3, address: row.uups, era: 'uups' },
          { kind: 'safe', signatureType: 2, address: row.safe },
          { kind: 'proxy', signatureType: 1, address: row.proxy },
        ],
      });
    }
    const text = await runPmdesk(['account', 'derive', ADDRESS]);
    expect(text.code).toBe(0);
    for (const address of Object.values(ROW1)) expect(text.stdout).toContain(address);
    expect(text.stdout).toMatch(/confirm an address on-chain or on your Polymarket profile/);
  });

  it("derives for Amoy (Safe only) and for a network profile's own factories", async () => {
    const amoy = await runPmdesk(['account', 'derive', ADDRESS, '--chain', '80002', '--json']);
    expect(json(amoy).accounts).toEqual([
      { kind: 'eoa', signatureType: 0, address: ADDRESS },
      { kind: 'safe', signatureType: 2, address: ROW1.safe },
    ]);
    const wallets = {
      proxyFactory: '0x5FbDB2315678afecb367f032d93F642f64180aa3',
      proxyImplementation: '0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512',
      safeFactory: '0x9fE46736679d2D9a65F0992F2272dE9f3c7fa6e0',
      safeInitCodeHash: `0x${'cd'.repeat(32)}`,
      depositWalletFactory: '0xCf7Ed3AccA5a467e9e704C703E8D87F634fB0Fc9',
      depositWalletBeacon: '0xDc64a140Aa3E981100a9becA4E685f962f0cF6C9',
    };
    const file = join(dir, 'sandbox.json');
    await writeFile(file, JSON.stringify({ name: 'sandbox', chainId: 31337, contracts: {}, wallets }));
    const run = await runPmdesk(['--network', file, 'account', 'derive', ADDRESS, '--json']);
    expect(run.code, run.stderr).toBe(0);
    const expected = deriveAccounts(ADDRESS, wallets);
    expect(json(run)).toEqual({
      owner: ADDRESS,
      chainId: 31337,
      accounts: [
        { kind: 'eoa', signatureType: 0, address: ADDRESS },
        { kind: 'deposit-wallet', signatureType: 3, address: expected.depositWallet!.beacon, era: 'beacon' },
        { kind: 'safe', signatureType: 2, address: expected.safe },
        { kind: 'proxy', signatureType: 1, address: expected.proxy },
      ],
    });
    expect(expected.proxy).not.toBe(ROW1.proxy);
  });

  it('refuses a non-address and an unknown chain with exit 2', async () => {
    const bad = await runPmdesk(['account', 'derive', '0x1234', '--json']);
    expect(bad.code).toBe(2);
    expect(errorOf(bad).message).toBe('owner is not an address: 0x1234');
    const chain = await runPmdesk(['account', 'derive', ADDRESS, '--chain', '5', '--json']);
    expect(chain.code).toBe(2);
    expect(errorOf(chain).message).toBe(
      'No wallet factories are known for chain 5: give a --network profile with "wallets".',
    );
  });
});

const BUILD = [
  'order',
  'build',
  '--json',
  '--token',
  TOKEN,
  '--side',
  'BUY',
  '--price',
  '0.56',
  '--size',
  '21.04',
  '--tick-size',
  '0.01',
  '--salt',
  '7',
  '--timestamp',
  '1780449126930',
  '--chain',
  '137',
];

describe('order build with --account / --signature-type', () => {
  it("signs for the key's proxy, Safe and deposit wallet, from a type alone or an address", async () => {
    const cases: [string[], string, string, number][] = [
      [['--signature-type', '1'], ROW1.proxy, ADDRESS, 1],
      [['--account', ROW1.safe.toLowerCase()], ROW1.safe, ADDRESS, 2],
      [['--funder', ROW1.safe, '--sig-type', '2'], ROW1.safe, ADDRESS, 2],
      [['--signature-type', '3', '--order-version', '3'], ROW1.beacon, ROW1.beacon, 3],
      [['--account', ROW1.uups, '--signature-type', '3'], ROW1.uups, ROW1.uups, 3],
      [['--account', ADDRESS], ADDRESS, ADDRESS, 0],
    ];
    for (const [flags, maker, signer, signatureType] of cases) {
      const run = await runPmdesk([...BUILD, ...flags], { env: ENV });
      expect(run.code, `${flags.join(' ')}: ${run.stderr}`).toBe(0);
      const out = json(run) as { signedOrder: Record<string, unknown>; orderHash: string };
      expect(out.signedOrder).toMatchObject({ maker, signer, signatureType });
      const signature = out.signedOrder.signature as string;
      if (signatureType === 3) {
        expect(signature).toHaveLength(2 + 317 * 2);
        const { signature: _s, ...fields } = out.signedOrder;
        const version = flags.includes('--order-version') ? 3 : 2;
        const contract =
          version === 3 ? '0xe3333700cA9d93003F00f0F71f8515005F6c00Aa' : '0xE111180000d2663C0091e4f400237545B87B996B';
        expect(
          recoverAddress(depositWalletDigest(version, 137, contract, fields as never), signature.slice(0, 132)),
        ).toBe(ADDRESS);
      } else {
        expect(recoverAddress(out.orderHash, signature)).toBe(ADDRESS);
      }
    }
  });

  it('refuses, with exit 2 and nothing signed, an account the key does not control or of another type', async () => {
    const cases: [string[], string][] = [
      [
        ['--account', STRANGER],
        `The wallet ${STRANGER} does not match the signer ${ADDRESS} or any supported deterministic wallet address (proxy, Safe, deposit wallet) on this chain.`,
      ],
      [
        ['--funder', '0x1234567890AbcdEF1234567890aBcdef12345678', '--sig-type', '2'],
        'The wallet 0x1234567890AbcdEF1234567890aBcdef12345678 does not match the signer',
      ],
      [
        ['--account', ROW1.safe, '--signature-type', '1'],
        `The account ${ROW1.safe} is the key's Safe (signature type 2), not a signature type 1 account.`,
      ],
      [['--account', ROW1.proxy, '--chain', '80002'], `The wallet ${ROW1.proxy} does not match the signer ${ADDRESS}`],
      [
        ['--signature-type', '1', '--chain', '80002'],
        'This chain has no proxy wallet factory: signature type 1 cannot be derived here.',
      ],
      [
        ['--signature-type', '3', '--order-version', '1', '--tick-size', '0.01'],
        'signature type POLY_1271 is not supported for v1 orders',
      ],
      [['--signature-type', '5'], '--signature-type must be 0, 1, 2 or 3, got 5'],
    ];
    for (const [flags, message] of cases) {
      const run = await runPmdesk([...BUILD, ...flags], { env: ENV });
      expect(run.code, flags.join(' ')).toBe(2);
      expect(errorOf(run).message.startsWith(message), `${errorOf(run).message} / ${message}`).toBe(true);
      expect(run.stdout).toBe('');
    }
  });
});

describe('order place with an account the key does not control', () => {
  it('is refused before anything is signed or sent', async () => {
    server.reset();
    server.fallback = (_req, reply) => reply.json(500, { message: 'nothing should reach the exchange' });
    const run = await runPmdesk(
      [
        '--clob-url',
        server.url,
        'order',
        'place',
        '--json',
        '--token',
        TOKEN,
        '--side',
        'BUY',
        '--price',
        '0.5',
        '--size',
        '5',
        '--account',
        STRANGER,
      ],
      { env: ENV },
    );
    expect(run.code).toBe(2);
    expect(errorOf(run).message).toMatch(new RegExp(`^The wallet ${STRANGER} does not match the signer ${ADDRESS}`));
    expect(server.requests).toHaveLength(0);
  });
});

describe('trade with --account / --signature-type', () => {
  it('refuses a foreign account, and a wallet account, before the wallet is unlocked or anything sent', async () => {
    const env = { PMDESK_DATA_DIR: join(dir, 'data'), PMDESK_PASSWORD: PASSWORD };
    const imported = await runPmdesk(['wallet', 'import', '--label', 'trader', '--private-key-stdin', '--json'], {
      env,
      input: KEY,
    });
    expect(imported.code, imported.stderr).toBe(0);
    server.reset();
    server.fallback = (_req, reply) => reply.json(500, { message: 'nothing should be asked' });
    const profile = join(dir, 'trade-profile.json');
    await writeFile(
      profile,
      JSON.stringify({
        chainId: 137,
        orderVersion: 2,
        rpcUrl: server.url,
        clobUrl: server.url,
        aggregatorUrl: server.url,
        contracts: {},
      }),
    );
    const base = ['trade', 'buy', '--market', 'm-1', '--outcome', 'Yes', '--size', '5', '--profile', profile, '--json'];
    // A wrong password would fail the unlock: the refusals below must come before it is ever used.
    const wrong = { ...env, PMDESK_PASSWORD: 'not the password' };
    const cases: [string[], string][] = [
      [['--account', STRANGER], `The wallet ${STRANGER} does not match the signer ${ADDRESS}`],
      [['--signature-type', '9'], '--signature-type must be 0, 1, 2 or 3, got 9'],
      [['--account', 'me'], '--account is not an address: me'],
    ];
    for (const [flags, message] of cases) {
      const run = await runPmdesk([...base, ...flags], { env: wrong });
      expect(run.code, `${flags.join(' ')}: ${run.stderr}`).toBe(2);
      expect(errorOf(run).message.startsWith(message), errorOf(run).message).toBe(true);
    }
    expect(server.requests).toHaveLength(0);
  });
});
