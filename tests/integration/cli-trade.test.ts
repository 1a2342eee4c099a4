// `pmdesk trade buy|sell` as a black box: the real CLI process (bundle built by `npm run build:cli`) with its real
// signer worker and data folder, against the whole sandbox through the profile it writes, found at the sandbox's
// default place (TMPDIR) or given with --profile.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ClobClient } from '../../packages/toolkit/src/clob/client';
import type { ApiCredentials } from '../../packages/toolkit/src/clob/auth';
import { privateKeySigner } from '../../packages/toolkit/src/orders/signer';
import { startSignerThread } from '../../src/main/wallets/signer-thread';
import type { SignerClient } from '../../src/main/wallets/signer-client';
import {
  PASSWORD,
  freshWallet,
  makerOrder,
  marketMaker,
  startTradingSandbox,
  type TradingSandbox,
} from '../helpers/trading-sandbox';
import { runPmdesk, type PmdeskRun } from '../helpers/pmdesk-process';
import { getAddress, Wallet } from 'ethers';
import { sandboxProvider } from '../../sandbox/chain/index';
import { positionBalances } from '../../packages/toolkit/src/positions/resolution';
import { CHOICE } from '../../src/cli/trading-account';

type Run = PmdeskRun;

function pmdesk(args: string[], env: Record<string, string>, input?: string): Promise<Run> {
  return runPmdesk(args, { env: { PMDESK_PASSWORD: PASSWORD, ...env }, input });
}

describe('pmdesk trade', () => {
  let sb: TradingSandbox;
  let signer: SignerClient;
  let env: Record<string, string>;
  let dir: string | undefined;
  let profileFile: string;
  let privateKey: string;
  const HEX_TX = /^0x[0-9a-f]{64}$/;

  beforeAll(async () => {
    sb = await startTradingSandbox();
    dir = await mkdtemp(join(tmpdir(), 'pmdesk-cli-trade-'));
    // The sandbox's default profile place is $TMPDIR/pmdesk-sandbox-profile.json; this run's TMPDIR is ours.
    profileFile = join(dir, 'pmdesk-sandbox-profile.json');
    await writeFile(profileFile, JSON.stringify(sb.sandbox.profile));
    env = { TMPDIR: dir, PMDESK_DATA_DIR: join(dir, 'data') };
    signer = startSignerThread();
    const fresh = await freshWallet(sb, signer, { unlock: false });
    privateKey = fresh.privateKey;
    const imported = await pmdesk(
      ['wallet', 'import', '--label', 'trader', '--private-key-stdin', '--json'],
      env,
      fresh.privateKey,
    );
    expect(imported.code).toBe(0);
    const maker = await marketMaker(sb);
    const [yes, no] = sb.sandbox.catalog.market('90021')!.tokens;
    await makerOrder(maker.client, { tokenId: no.tokenId, side: 'BUY', price: 0.6, size: 100 });
    await makerOrder(maker.client, { tokenId: yes.tokenId, side: 'BUY', price: 0.2, size: 100 });
  }, 120_000);
  afterAll(async () => {
    await signer?.close();
    await sb?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('refuses bad flags before reading anything or sending anything (exit 2)', async () => {
    const base = ['trade', 'buy', '--market', '90021', '--outcome', 'Yes', '--json'];
    for (const [flags, message] of [
      [['--usdc', '1', '--size', '5'], 'Say how much, once: --usdc DOLLARS or --size SHARES.'],
      [[], 'Say how much, once: --usdc DOLLARS or --size SHARES.'],
      [['--size', '5', '--order-type', 'IOC'], '--order-type must be one of GTC, GTD, FOK, FAK.'],
      [['--size', '5', '--order-type', 'GTD'], 'A GTD order needs --expiration UNIX-SECONDS.'],
      [['--size', '5', '--expiration', '4102444800'], '--expiration applies to GTD orders only (--order-type GTD).'],
      [['--size', '5', '--order-type', 'FOK', '--post-only'], '--post-only applies to GTC and GTD orders only.'],
      [['--size', '-3'], '--size must be a positive number.'],
    ] as const) {
      const run = await pmdesk([...base, ...flags], { ...env, TMPDIR: '/nonexistent' });
      expect(run.code).toBe(2);
      expect(JSON.parse(run.stderr).error).toMatchObject({ code: 'ERR_INVALID_PARAM', message });
    }
  });

  it('places a fresh wallet’s first order with the default profile: four allowances, then the order, in the issue’s JSON', async () => {
    const run = await pmdesk(
      ['trade', 'buy', '--market', '90021', '--outcome', 'yes', '--usdc', '1', '--price', '0.1', '--json'],
      env,
    );
    expect(run.code).toBe(0);
    const out = JSON.parse(run.stdout);
    expect(Object.keys(out)).toEqual(['orderID', 'status', 'pending', 'approvals', 'account']);
    // A fresh key with no wallet deployed or funded trades as itself, and says so.
    expect(out.account).toEqual({
      address: getAddress(new Wallet(privateKey).address),
      kind: 'eoa',
      signatureType: 0,
      reason: 'key',
    });
    expect(out).toMatchObject({ orderID: expect.stringMatching(HEX_TX), status: 'LIVE', pending: true });
    const { exchange, negRiskExchange } = sb.sandbox.profile.contracts;
    expect(out.approvals.map((a: { spender: string }) => a.spender)).toEqual([
      exchange,
      negRiskExchange,
      exchange,
      negRiskExchange,
    ]);
    for (const a of out.approvals) {
      expect(Object.keys(a)).toEqual(['spender', 'txHash']);
      expect(a.txHash).toMatch(HEX_TX);
    }
  });

  it('buys at market by slug with --profile, setting no allowance again, and says so in text', async () => {
    const json = await pmdesk(
      [
        'trade',
        'buy',
        '--market',
        'bitcoin-above-120k-on-december-31-2026',
        '--outcome',
        'Yes',
        '--usdc',
        '4',
        '--order-type',
        'FOK',
        '--profile',
        profileFile,
        '--wallet',
        'trader',
        '--json',
      ],
      { ...env, TMPDIR: '/nonexistent' },
    );
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toMatchObject({ status: 'MATCHED', pending: false, approvals: [] });

    const text = await pmdesk(
      ['trade', 'sell', '--market', '90021', '--outcome', 'Yes', '--size', '5', '--order-type', 'FAK'],
      env,
    );
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/^market +Bitcoin above \$120k on December 31, 2026\?$/m);
    expect(text.stdout).toMatch(/^order +SELL 5 shares at market \(FAK\)$/m);
    expect(text.stdout).toMatch(/^status +MATCHED$/m);
    expect(text.stdout).not.toMatch(/approval/);
  });

  it('trades from the account `account show` names: a Safe-owning key’s shares arrive in its Safe, on the chain', async () => {
    const safe = sb.sandbox.profile.testAccounts.find((a) => a.kind === 'safe')!;
    const owner = sb.sandbox.profile.testWallets.find((w) => getAddress(w.address) === getAddress(safe.owner))!;
    // A data folder of its own: the other tests rely on 'trader' being the only wallet.
    const own = { ...env, PMDESK_DATA_DIR: join(dir!, 'safe-data') };
    expect(
      (
        await pmdesk(
          ['wallet', 'import', '--label', 'safe-owner', '--private-key-stdin', '--json'],
          own,
          owner.privateKey,
        )
      ).code,
    ).toBe(0);
    const yes = sb.sandbox.catalog.market('90021')!.tokens[0].tokenId;
    const provider = sandboxProvider(sb.sandbox.profile.rpcUrl, sb.sandbox.profile.chainId);
    try {
      const shares = async (holder: string) =>
        (await positionBalances(provider, sb.sandbox.profile.contracts.conditionalTokens, holder, [yes]))[0]!;
      const [safeBefore, keyBefore] = [await shares(safe.address), await shares(owner.address)];
      const shown = await pmdesk(['--network', profileFile, 'account', 'show', owner.address, '--json'], own);
      const found = JSON.parse(shown.stdout) as {
        chosen: { address: string; kind: string };
        reason: keyof typeof CHOICE;
      };
      expect(found.chosen).toMatchObject({ address: safe.address, kind: 'safe' });

      // Text: stderr says which account acts, before anything is signed.
      const text = await pmdesk(
        [
          'trade',
          'buy',
          '--market',
          '90021',
          '--outcome',
          'Yes',
          '--usdc',
          '2',
          '--order-type',
          'FOK',
          '--price',
          '0.45',
          '--wallet',
          'safe-owner',
        ],
        own,
      );
      expect(text.code, text.stderr).toBe(0);
      expect(text.stderr).toContain(
        `pmdesk: acting from ${safe.address} (safe, signature type 2): ${CHOICE[found.reason]}.`,
      );
      expect(text.stdout).toMatch(/^status +MATCHED$/m);
      // On the chain: the Safe holds the shares, the key none.
      await expect.poll(() => shares(safe.address), { timeout: 30_000 }).toBeGreaterThan(safeBefore);
      expect(await shares(owner.address)).toBe(keyBefore);

      // --json: the account is a field; --signature-type 0 makes the key trade as itself.
      const json = await pmdesk(
        [
          'trade',
          'buy',
          '--market',
          '90021',
          '--outcome',
          'Yes',
          '--usdc',
          '2',
          '--order-type',
          'FOK',
          '--price',
          '0.45',
          '--wallet',
          'safe-owner',
          '--json',
        ],
        own,
      );
      expect(JSON.parse(json.stdout).account).toEqual({
        address: safe.address,
        kind: 'safe',
        signatureType: 2,
        reason: found.reason,
      });
      const asKey = await pmdesk(
        [
          'trade',
          'buy',
          '--market',
          '90021',
          '--outcome',
          'Yes',
          '--size',
          '5',
          '--price',
          '0.05',
          '--wallet',
          'safe-owner',
          '--signature-type',
          '0',
          '--json',
        ],
        own,
      );
      expect(asKey.code, asKey.stderr).toBe(0);
      expect(JSON.parse(asKey.stdout).account).toEqual({
        address: getAddress(owner.address),
        kind: 'eoa',
        signatureType: 0,
        reason: 'flag',
      });
    } finally {
      provider.destroy();
    }
  }, 120_000);

  it('order place signs for the account `account show` names when the profile names a chain node, and says which', async () => {
    const safe = sb.sandbox.profile.testAccounts.find((a) => a.kind === 'safe')!;
    const owner = sb.sandbox.profile.testWallets.find((w) => getAddress(w.address) === getAddress(safe.owner))!;
    const { network } = sb.profile;
    const creds = (await new ClobClient({
      host: network.clobUrl,
      chainId: network.chainId,
      signer: privateKeySigner(owner.privateKey),
      throwOnError: true,
      networks: [network],
    }).createOrDeriveApiKey()) as ApiCredentials;
    const keys = {
      PMDESK_PRIVATE_KEY: owner.privateKey,
      PMDESK_API_KEY: creds.key,
      PMDESK_API_SECRET: creds.secret,
      PMDESK_API_PASSPHRASE: creds.passphrase,
    };
    const yes = sb.sandbox.catalog.market('90021')!.tokens[0].tokenId;
    const run = await runPmdesk(
      [
        '--json',
        '--network',
        profileFile,
        'order',
        'place',
        '--token',
        yes,
        '--side',
        'BUY',
        '--price',
        '0.02',
        '--size',
        '5',
      ],
      { env: keys },
    );
    expect(run.code, run.stderr).toBe(0);
    const out = JSON.parse(run.stdout) as { account: { address: string; kind: string }; response: { orderID: string } };
    expect(out.account).toMatchObject({ address: safe.address, kind: 'safe', signatureType: 2 });
    // The exchange holds the order as the Safe's: its maker is the Safe, the key only signs.
    const client = new ClobClient({
      host: network.clobUrl,
      chainId: network.chainId,
      signer: privateKeySigner(owner.privateKey),
      creds,
      throwOnError: true,
      networks: [network],
    });
    expect(
      getAddress(String(((await client.getOrder(out.response.orderID)) as { maker_address?: string }).maker_address)),
    ).toBe(safe.address);
    const text = await runPmdesk(
      [
        '--network',
        profileFile,
        'order',
        'place',
        '--token',
        yes,
        '--side',
        'BUY',
        '--price',
        '0.02',
        '--size',
        '5',
        '--signature-type',
        '0',
      ],
      { env: keys },
    );
    expect(text.stderr).toContain(
      `pmdesk: acting from ${getAddress(owner.address)} (eoa, signature type 0): named by --account/--signature-type.`,
    );
  }, 60_000);

  it('order place with no chain node named follows the one account rule, or refuses to guess, never signing as the key by default', async () => {
    // The sandbox's profile with no node in it (and no PMDESK_RPC_URL): only the profile and the exchange can tell.
    const { rpcUrl: _node, ...nodeless } = sb.sandbox.profile as unknown as Record<string, unknown>;
    const nodelessFile = join(dir!, 'pmdesk-nodeless-profile.json');
    await writeFile(nodelessFile, JSON.stringify(nodeless));
    const { network } = sb.profile;
    const yes = sb.sandbox.catalog.market('90021')!.tokens[0].tokenId;
    const keysOf = async (key: string) => {
      const creds = (await new ClobClient({
        host: network.clobUrl,
        chainId: network.chainId,
        signer: privateKeySigner(key),
        throwOnError: true,
        networks: [network],
      }).createOrDeriveApiKey()) as ApiCredentials;
      return {
        PMDESK_PRIVATE_KEY: key,
        PMDESK_API_KEY: creds.key,
        PMDESK_API_SECRET: creds.secret,
        PMDESK_API_PASSPHRASE: creds.passphrase,
        PMDESK_RPC_URL: '',
      };
    };
    const place = [
      '--json',
      '--network',
      nodelessFile,
      'order',
      'place',
      '--token',
      yes,
      '--side',
      'BUY',
      '--price',
      '0.02',
      '--size',
      '5',
    ];

    // A Safe-owning key: its Safe holds the collateral, so the Safe signs as maker, as `account show` would name it.
    const safe = sb.sandbox.profile.testAccounts.find((a) => a.kind === 'safe')!;
    const owner = sb.sandbox.profile.testWallets.find((w) => getAddress(w.address) === getAddress(safe.owner))!;
    const run = await runPmdesk(place, { env: await keysOf(owner.privateKey) });
    expect(run.code, run.stderr).toBe(0);
    const out = JSON.parse(run.stdout) as {
      account: { address: string; kind: string; reason: string };
      response: { orderID: string };
    };
    expect(out.account).toMatchObject({ address: safe.address, kind: 'safe', signatureType: 2 });
    expect(['profile', 'funded']).toContain(out.account.reason);

    // A key none of whose wallets is funded: what only a node could tell is not guessed; nothing is signed or sent.
    const stranger = Wallet.createRandom();
    const refused = await runPmdesk(place, { env: await keysOf(stranger.privateKey) });
    expect(refused.code).toBe(2);
    const error = JSON.parse(refused.stderr).error as { code: string; message: string };
    expect(error.code).toBe('ERR_INVALID_PARAM');
    expect(error.message).toContain(
      `No chain node is named (a --network profile with an rpcUrl, or PMDESK_RPC_URL) to find which account of the key ${stranger.address} trades`,
    );
    expect(error.message).toContain(
      'pass --signature-type (0 for the key itself) or --account, or name a node. Nothing was signed or sent.',
    );
    // Said outright, the key itself is accepted without a node (and then refused by the exchange: it holds nothing).
    const asKey = await runPmdesk([...place.slice(1), '--signature-type', '0'], {
      env: await keysOf(stranger.privateKey),
    });
    expect(asKey.stderr).toContain(
      `pmdesk: acting from ${stranger.address} (eoa, signature type 0): named by --account/--signature-type.`,
    );
  }, 90_000);

  it('prints every failed pre-trade check and exits 1, placing nothing', async () => {
    const json = await pmdesk(
      ['trade', 'buy', '--market', '90021', '--outcome', 'Yes', '--size', '2', '--price', '0.555', '--json'],
      env,
    );
    expect(json.code).toBe(1);
    const error = JSON.parse(json.stderr).error;
    expect(error.code).toBe('ERR_VALIDATION');
    expect(error.message.split('\n')).toEqual([
      'The order was not placed:',
      "- The price 0.555 is not on this market's 0.01 tick: use 0.55 or 0.56.",
      "- 2 shares is under this market's minimum order of 5 shares: order at least 5.",
    ]);
    const text = await pmdesk(
      ['trade', 'sell', '--market', '90021', '--outcome', 'No', '--size', '50', '--price', '0.5'],
      env,
    );
    expect(text.code).toBe(1);
    expect(text.stderr).toContain('- This sell needs 50 "No" shares but the wallet holds 0: sell at most 0.');
  });

  it('says the documented sentence for an unknown market or outcome (exit 1: the aggregator was asked)', async () => {
    const market = await pmdesk(
      ['trade', 'buy', '--market', 'no-such-market', '--outcome', 'Yes', '--size', '5', '--json'],
      env,
    );
    expect(market.code).toBe(1);
    expect(JSON.parse(market.stderr).error).toMatchObject({ code: 'ERR_NOT_FOUND', message: 'Exchange not found' });
    const outcome = await pmdesk(
      ['trade', 'buy', '--market', '90021', '--outcome', 'Maybe', '--size', '5', '--json'],
      env,
    );
    expect(JSON.parse(outcome.stderr).error).toMatchObject({
      code: 'ERR_NOT_FOUND',
      message: 'Position token not found',
    });
  });

  it('never prints the wallet key or the API credentials', async () => {
    const run = await pmdesk(
      ['trade', 'buy', '--market', '90021', '--outcome', 'Yes', '--size', '5', '--price', '0.1'],
      env,
    );
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^pending +yes$/m);
    // The wallet's credentials are deterministic: derive them here to know what must never show.
    const { network } = sb.profile;
    const creds = (await new ClobClient({
      host: network.clobUrl,
      chainId: network.chainId,
      signer: privateKeySigner(privateKey),
      throwOnError: true,
      networks: [network],
    }).deriveApiKey()) as ApiCredentials;
    const printed = `${run.stdout}${run.stderr}`;
    for (const secret of [privateKey.slice(2), creds.secret, creds.passphrase, creds.key])
      expect(printed).not.toContain(secret);
  });
});
