// Converting No shares of the sandbox's Fed event from the terminal, through the router on the whole local sandbox
// with no relayer keys (the key signs and pays the gas): the event's outcomes by question index with what the
// account holds, a preview that says exactly what is given and received and sends nothing, a conversion as the key
// itself and one as its Safe (every call run as the Safe), each checked on chain to the base unit; a size above the
// holdings, a binary event and an outcome chosen twice are refused with the catalogue's codes.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Contract, type JsonRpcProvider } from 'ethers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConversionChoices, ConversionDone, ConversionPreview } from '../../src/shared/contract';
import { CredentialVault } from '../../src/main/credentials/api-credentials';
import { MemorySecretStore } from '../../src/main/credentials/secret-store';
import { allowOrigins, type SenderInfo } from '../../src/main/ipc/router';
import { openTerminal, type Terminal } from '../../src/main/terminal/terminal';
import { parseAppProfile } from '../../src/main/settings/profile';
import { TradingService } from '../../src/main/trading/service';
import { parseTradingProfile } from '../../src/main/trading/profile';
import { startSignerThread } from '../../src/main/wallets/signer-thread';
import { startSandbox, type RunningSandbox } from '../../sandbox/index';
import { sandboxProvider } from '../../sandbox/chain/index';
import { PASSWORD } from '../helpers/trading-sandbox';
import { chainHoldings } from '../helpers/chain-holdings';
import { routerCalls } from '../helpers/hub-client';

const APP = 'app://pmdesk';
const window1: SenderInfo = { origin: APP, mainFrame: true, clientId: 'window-1' };
const EVENT = '9001';

let sandbox: RunningSandbox;
let terminal: Terminal;
let dataDir: string;
let chain: JsonRpcProvider;

const { result, call } = routerCalls(() => terminal, window1);
const { pusdOf } = chainHoldings(
  () => chain,
  () => sandbox.deployment.contracts,
);
const safe = () => sandbox.profile.testAccounts.find((a) => a.kind === 'safe')!;
const keyOf = (address: string) =>
  sandbox.profile.testWallets.find((w) => w.address.toLowerCase() === address.toLowerCase())!;
/** [yes0, no0, yes1, no1, yes2, no2] of the event's markets. */
const held = (holder: string) => {
  const ctf = new Contract(
    sandbox.deployment.contracts.conditionalTokens,
    ['function balanceOf(address, uint256) view returns (uint256)'],
    chain,
  );
  const ids = sandbox.catalog.events
    .find((e) => e.id === EVENT)!
    .markets.flatMap((m) => m.tokens.map((t) => t.tokenId));
  return Promise.all(ids.map((id) => ctf.getFunction('balanceOf')(holder, id) as Promise<bigint>));
};

beforeAll(async () => {
  sandbox = await startSandbox({
    ports: { rpc: 0, clob: 0, aggregator: 0 },
    simulate: 'off',
    seed: 11,
    source: 'polymarket',
  });
  const raw = { ...sandbox.profile, relayerApiKeys: [] } as unknown as Record<string, unknown>;
  dataDir = await mkdtemp(join(tmpdir(), 'pmdesk-terminal-convert-'));
  const vault = await CredentialVault.open({ keychain: new MemorySecretStore() });
  terminal = openTerminal({
    profile: parseAppProfile(raw),
    rawProfile: raw,
    shell: 'browser',
    allowSender: allowOrigins([APP]),
    wallets: { dataDir, signer: startSignerThread(), scryptN: 2 ** 12 },
    orderFlow: new TradingService({ profile: parseTradingProfile(raw), vault, timeoutMs: 20_000 }),
  });
  chain = sandboxProvider(sandbox.deployment.rpcUrl, sandbox.deployment.chainId);
  // Test wallet 0 owns no account (it acts as itself); the Safe's owner acts as the Safe.
  for (const [label, key] of [
    ['key', sandbox.profile.testWallets[0]!.privateKey],
    ['safe', keyOf(safe().owner).privateKey],
  ] as const) {
    await call('importWallet', { label, password: PASSWORD, source: { kind: 'privateKey', privateKey: key } });
    await call('unlockWallet', { label, password: PASSWORD, autoLockMinutes: 0 });
  }
  for (const wallet of ['key', 'safe'])
    for (const [marketId, amount] of [
      ['90011', '10'],
      ['90013', '3'],
    ])
      await call('runMoneyAction', { wallet, action: 'split', marketId, amount });
}, 180_000);

afterAll(async () => {
  chain?.destroy();
  await terminal?.close();
  await sandbox?.stop();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

describe('conversions through the router', () => {
  it("lists the event's outcomes by question index with the No and Yes shares the account holds", async () => {
    const choices = await call<ConversionChoices>('getConversionChoices', { wallet: 'key', eventId: EVENT });
    expect(choices.negRiskMarketId).toMatch(/^0x[0-9a-f]{62}00$/);
    expect(choices.feeBips).toBe(0);
    expect(choices.outcomes.map((o) => [o.index, o.name, o.marketId, o.noHeld.units, o.yesHeld.units])).toEqual([
      [0, 'No change', '90011', '10000000', '10000000'],
      [1, '25 bps cut', '90012', '0', '0'],
      [2, '50+ bps cut', '90013', '3000000', '3000000'],
    ]);
  }, 60_000);

  it('previews exactly what is given and received and sends nothing; then converts as the key itself', async () => {
    const me = sandbox.profile.testWallets[0]!.address;
    const [cash0, held0, nonce0] = [await pusdOf(me), await held(me), await chain.getTransactionCount(me)];
    const ask = { wallet: 'key', eventId: EVENT, fromNo: [0, 2], size: '2.5' };
    const preview = await call<ConversionPreview>('previewConversion', ask);
    expect(preview).toMatchObject({
      account: me,
      accountKind: 'eoa',
      via: 'key',
      size: { units: '2500000', text: '2.5' },
      given: [
        { index: 0, outcome: 'No change', shares: { units: '2500000' } },
        { index: 2, outcome: '50+ bps cut', shares: { units: '2500000' } },
      ],
      received: [{ index: 1, outcome: '25 bps cut', shares: { units: '2500000' } }],
      collateral: { units: '2500000', text: '$2.50' },
      fee: null,
      lines: [
        'Give 2.5 No of No change',
        'Give 2.5 No of 50+ bps cut',
        'Receive 2.5 Yes of 25 bps cut',
        'Receive $2.50 pUSD',
      ],
    });
    expect(await chain.getTransactionCount(me)).toBe(nonce0);

    const done = await call<ConversionDone>('runConversion', ask);
    expect(done.txHashes.length).toBeGreaterThan(0);
    expect(await pusdOf(me)).toBe(cash0 + 2_500_000n);
    expect((await held(me)).map((h, i) => h - held0[i]!)).toEqual([0n, -2_500_000n, 2_500_000n, 0n, 0n, -2_500_000n]);
  }, 120_000);

  it('converts as the Safe, its key paying the gas: one No for the other two Yes', async () => {
    const account = safe().address;
    const [cash0, held0] = [await pusdOf(account), await held(account)];
    const done = await call<ConversionDone>('runConversion', {
      wallet: 'safe',
      eventId: 'fed-decision-in-december-2026',
      fromNo: [0],
      size: '1',
    });
    expect(done).toMatchObject({ account, accountKind: 'safe', via: 'key', relayer: null });
    expect(await pusdOf(account)).toBe(cash0);
    expect((await held(account)).map((h, i) => h - held0[i]!)).toEqual([
      0n,
      -1_000_000n,
      1_000_000n,
      0n,
      1_000_000n,
      0n,
    ]);
  }, 120_000);

  it('refuses a size above the holdings, a binary event and an outcome chosen twice', async () => {
    const tooMuch = await result('previewConversion', { wallet: 'key', eventId: EVENT, fromNo: [2], size: '50' });
    expect(tooMuch).toMatchObject({ ok: false, error: { code: 'ERR_INVALID_PARAM' } });
    expect(JSON.stringify(tooMuch)).toMatch(/holds 0\.5 No shares of outcome 2; cannot convert 50/);
    const binary = await result('previewConversion', { wallet: 'key', eventId: '9002', fromNo: [0], size: '1' });
    expect(binary).toMatchObject({ ok: false, error: { code: 'ERR_INVALID_PARAM' } });
    expect(JSON.stringify(binary)).toMatch(/not a negative-risk event/);
    const twice = await result('previewConversion', { wallet: 'key', eventId: EVENT, fromNo: [0, 0], size: '1' });
    expect(twice).toMatchObject({ ok: false });
    expect(JSON.stringify(twice)).toMatch(/chosen twice/);
  }, 60_000);
});
