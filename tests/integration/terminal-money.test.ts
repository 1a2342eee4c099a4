// The trader's money from the terminal, through the router on the whole local sandbox: as the Safe of a sandbox
// test wallet (the key signs and pays the gas; every call runs as the Safe), pUSD is wrapped from USDC.e and
// unwrapped back, a complete set is split and merged, and after the market resolves the winning shares are
// redeemed — each checked on the chain to the base unit. A deposit wallet is refused (relayer only), and a key
// without enough POL is told so before anything is sent.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { JsonRpcProvider } from 'ethers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AccountFunds, MoneyActionDone, MoneyActionPreview } from '../../src/shared/contract';
import { ErrorCode } from '../../packages/toolkit/src/model/errors';
import { CredentialVault } from '../../src/main/credentials/api-credentials';
import { MemorySecretStore } from '../../src/main/credentials/secret-store';
import { allowOrigins, type SenderInfo } from '../../src/main/ipc/router';
import { openTerminal, type Terminal } from '../../src/main/terminal/terminal';
import { parseAppProfile } from '../../src/main/settings/profile';
import { TradingService } from '../../src/main/trading/service';
import { parseTradingProfile } from '../../src/main/trading/profile';
import { startSignerThread } from '../../src/main/wallets/signer-thread';
import { actionContractsFor } from '../../packages/toolkit/src/accounts/action-contracts';
import { walletConfigFor } from '../../packages/toolkit/src/chain/networks';
import { startSandbox, type RunningSandbox } from '../../sandbox/index';
import { sandboxProvider } from '../../sandbox/chain/index';
import { PASSWORD } from '../helpers/trading-sandbox';
import { chainHoldings } from '../helpers/chain-holdings';
import { routerCalls } from '../helpers/hub-client';

const APP = 'app://pmdesk';
const window1: SenderInfo = { origin: APP, mainFrame: true, clientId: 'window-1' };
const MARKET = '90021';

let sandbox: RunningSandbox;
let terminal: Terminal;
let dataDir: string;
let chain: JsonRpcProvider;
let yes: string;
let no: string;

const { result, call } = routerCalls(() => terminal, window1);

const { pusdOf, usdcEOf, sharesOf } = chainHoldings(
  () => chain,
  () => sandbox.deployment.contracts,
);

const account = (kind: 'safe' | 'deposit') => sandbox.profile.testAccounts.find((a) => a.kind === kind)!;
const ownerKey = (kind: 'safe' | 'deposit') =>
  sandbox.profile.testWallets.find((w) => w.address.toLowerCase() === account(kind).owner.toLowerCase())!;

beforeAll(async () => {
  sandbox = await startSandbox({
    ports: { rpc: 0, clob: 0, aggregator: 0 },
    simulate: 'off',
    seed: 11,
    orderVersion: 2,
    source: 'polymarket',
  });
  // No relayer keys: this file is the key's own path (the key signs and pays gas); terminal-money-relayer.test.ts has the relayer's.
  const raw = { ...sandbox.profile, relayerApiKeys: [] } as unknown as Record<string, unknown>;
  dataDir = await mkdtemp(join(tmpdir(), 'pmdesk-terminal-money-'));
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
  const market = sandbox.catalog.market(MARKET)!;
  [yes, no] = [market.tokens[0].tokenId, market.tokens[1].tokenId];
  for (const kind of ['safe', 'deposit'] as const) {
    await call('importWallet', {
      label: kind,
      password: PASSWORD,
      source: { kind: 'privateKey', privateKey: ownerKey(kind).privateKey },
    });
    await call('unlockWallet', { label: kind, password: PASSWORD, autoLockMinutes: 0 });
  }
}, 120_000);

afterAll(async () => {
  chain?.destroy();
  await terminal?.close();
  await sandbox?.stop();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

describe('money from a Safe account', () => {
  it("shows the Safe's pUSD and USDC.e and the key's POL, exactly as the chain holds them", async () => {
    const safe = account('safe');
    const funds = await call<AccountFunds>('getAccountFunds', { wallet: 'safe' });
    expect(funds).toMatchObject({
      wallet: 'safe',
      account: safe.address,
      accountKind: 'safe',
      key: ownerKey('safe').address,
      actionsUnavailable: null,
      via: 'key',
      viaReason: 'Your key pays gas in POL: no relayer credentials',
    });
    expect(funds.pusd.units).toBe((await pusdOf(safe.address)).toString());
    expect(funds.usdcE?.units).toBe((await usdcEOf(safe.address)).toString());
    expect(funds.keyGas.units).toBe((await chain.getBalance(ownerKey('safe').address)).toString());
    expect(funds.keyGas.text).toMatch(/ POL$/);
  }, 60_000);

  it('previews a wrap with its exact amount and gas and sends nothing; then wraps and unwraps as the Safe, to the base unit', async () => {
    const safe = account('safe').address;
    const key = ownerKey('safe').address;
    const [pusd0, usdcE0, keyPusd0, nonce0] = await Promise.all([
      pusdOf(safe),
      usdcEOf(safe),
      pusdOf(key),
      chain.getTransactionCount(key),
    ]);

    const preview = await call<MoneyActionPreview>('previewMoneyAction', {
      wallet: 'safe',
      action: 'wrap',
      amount: '5.25',
    });
    expect(preview).toMatchObject({
      action: 'wrap',
      account: safe,
      accountKind: 'safe',
      key,
      amount: { units: '5250000', text: '$5.25' },
      lines: ['$5.25 USDC.e → $5.25 pUSD'],
      transactions: 1,
      atomic: true,
    });
    expect(BigInt(preview.gas.units)).toBeGreaterThan(0n);
    expect(await chain.getTransactionCount(key)).toBe(nonce0);

    const wrapped = await call<MoneyActionDone>('runMoneyAction', { wallet: 'safe', action: 'wrap', amount: '5.25' });
    expect(wrapped.txHashes).toHaveLength(1);
    expect(wrapped.exchangeRefreshed).toBe(true);
    expect(await usdcEOf(safe)).toBe(usdcE0 - 5_250_000n);
    expect(await pusdOf(safe)).toBe(pusd0 + 5_250_000n);
    // One transaction from the key (the Safe's execTransaction); the key's own pUSD is untouched.
    expect(await chain.getTransactionCount(key)).toBe(nonce0 + 1);
    expect((await chain.getTransaction(wrapped.txHashes[0]!))?.to?.toLowerCase()).toBe(safe.toLowerCase());
    expect(await pusdOf(key)).toBe(keyPusd0);

    await call<MoneyActionDone>('runMoneyAction', { wallet: 'safe', action: 'unwrap', amount: '2.000001' });
    expect(await usdcEOf(safe)).toBe(usdcE0 - 5_250_000n + 2_000_001n);
    expect(await pusdOf(safe)).toBe(pusd0 + 5_250_000n - 2_000_001n);

    const tooMuch = await result('previewMoneyAction', { wallet: 'safe', action: 'unwrap', amount: '100000000' });
    expect(tooMuch).toMatchObject({ ok: false, error: { code: ErrorCode.INVALID_PARAMETER } });
    if (!tooMuch.ok) expect(tooMuch.error.message).toMatch(`${safe} holds $`);
  }, 60_000);

  it('splits a complete set and merges part of it back, as the Safe, to the base unit', async () => {
    const safe = account('safe').address;
    const [pusd0, yes0, no0] = await Promise.all([pusdOf(safe), sharesOf(safe, yes), sharesOf(safe, no)]);
    const preview = await call<MoneyActionPreview>('previewMoneyAction', {
      wallet: 'safe',
      action: 'split',
      marketId: MARKET,
      amount: '3',
    });
    expect(preview.lines).toEqual(['$3.00 pUSD → 3 shares of each outcome']);
    await call('runMoneyAction', { wallet: 'safe', action: 'split', marketId: MARKET, amount: '3' });
    expect(await pusdOf(safe)).toBe(pusd0 - 3_000_000n);
    expect([await sharesOf(safe, yes), await sharesOf(safe, no)]).toEqual([yes0 + 3_000_000n, no0 + 3_000_000n]);

    const merge = await call<MoneyActionPreview>('previewMoneyAction', {
      wallet: 'safe',
      action: 'merge',
      marketId: MARKET,
      amount: '1.5',
    });
    expect(merge.lines).toEqual(['1.5 shares of each outcome → $1.50 pUSD']);
    await call('runMoneyAction', { wallet: 'safe', action: 'merge', marketId: MARKET, amount: '1.5' });
    expect(await pusdOf(safe)).toBe(pusd0 - 1_500_000n);
    expect([await sharesOf(safe, yes), await sharesOf(safe, no)]).toEqual([yes0 + 1_500_000n, no0 + 1_500_000n]);

    const tooMany = await result('previewMoneyAction', {
      wallet: 'safe',
      action: 'merge',
      marketId: MARKET,
      amount: '100000',
    });
    expect(tooMany).toMatchObject({ ok: false, error: { code: ErrorCode.INVALID_PARAMETER } });
  }, 60_000);

  it('refuses before sending when the key has too little POL, saying how much it has and needs', async () => {
    const key = ownerKey('safe').address;
    const before = await chain.getBalance(key);
    const nonce = await chain.getTransactionCount(key);
    await chain.send('anvil_setBalance', [key, '0x1']);
    try {
      const refused = await result('runMoneyAction', { wallet: 'safe', action: 'wrap', amount: '1' });
      expect(refused).toMatchObject({ ok: false, error: { code: ErrorCode.INVALID_PARAMETER } });
      if (!refused.ok)
        expect(refused.error.message).toMatch(
          new RegExp(`^The key ${key} has 0 POL; this needs about [0-9.]+ POL for gas\\.$`),
        );
      expect(await chain.getTransactionCount(key)).toBe(nonce);
    } finally {
      await chain.send('anvil_setBalance', [key, `0x${before.toString(16)}`]);
    }
  }, 60_000);

  it('redeems after the market resolves: the winning shares pay exactly, the losing ones nothing', async () => {
    const safe = account('safe').address;
    const early = await result('previewMoneyAction', { wallet: 'safe', action: 'redeem', marketId: MARKET });
    expect(early).toMatchObject({ ok: false, error: { code: ErrorCode.INVALID_PARAMETER } });
    if (!early.ok) expect(early.error.message).toMatch('not resolved yet');

    await sandbox.resolveMarket(MARKET, 0);
    const [pusd0, yes0, no0] = await Promise.all([pusdOf(safe), sharesOf(safe, yes), sharesOf(safe, no)]);
    expect(yes0).toBeGreaterThan(0n);
    const preview = await call<MoneyActionPreview>('previewMoneyAction', {
      wallet: 'safe',
      action: 'redeem',
      marketId: MARKET,
    });
    expect(preview.amount.units).toBe(yes0.toString());
    expect(preview.result).toBe(`Won ${preview.amount.text}`);
    expect(preview.held.map((h) => h.shares.units)).toEqual([yes0.toString(), no0.toString()]);

    const done = await call<MoneyActionDone>('runMoneyAction', { wallet: 'safe', action: 'redeem', marketId: MARKET });
    expect(done.txHashes).toHaveLength(1);
    expect(await pusdOf(safe)).toBe(pusd0 + yes0);
    expect([await sharesOf(safe, yes), await sharesOf(safe, no)]).toEqual([0n, 0n]);
    const nothing = await result('previewMoneyAction', { wallet: 'safe', action: 'redeem', marketId: MARKET });
    expect(nothing).toMatchObject({ ok: false, error: { code: ErrorCode.INVALID_PARAMETER } });
  }, 60_000);
});

describe('the key itself', () => {
  it('wraps in two transactions from the key (approve, then wrap), said before sending, to the base unit', async () => {
    const key = sandbox.profile.testWallets[0]!;
    await call('importWallet', {
      label: 'key',
      password: PASSWORD,
      source: { kind: 'privateKey', privateKey: key.privateKey },
    });
    await call('unlockWallet', { label: 'key', password: PASSWORD, autoLockMinutes: 0 });
    expect(await call<AccountFunds>('getAccountFunds', { wallet: 'key' })).toMatchObject({
      account: key.address,
      accountKind: 'eoa',
      key: key.address,
    });
    const [pusd0, usdcE0, nonce0] = await Promise.all([
      pusdOf(key.address),
      usdcEOf(key.address),
      chain.getTransactionCount(key.address),
    ]);
    const preview = await call<MoneyActionPreview>('previewMoneyAction', {
      wallet: 'key',
      action: 'wrap',
      amount: '1.5',
    });
    expect(preview).toMatchObject({
      accountKind: 'eoa',
      transactions: 2,
      atomic: false,
      note: expect.stringContaining('cannot batch'),
    });
    const done = await call<MoneyActionDone>('runMoneyAction', { wallet: 'key', action: 'wrap', amount: '1.5' });
    expect(done.txHashes).toHaveLength(2);
    expect(await chain.getTransactionCount(key.address)).toBe(nonce0 + 2);
    expect(await usdcEOf(key.address)).toBe(usdcE0 - 1_500_000n);
    expect(await pusdOf(key.address)).toBe(pusd0 + 1_500_000n);
  }, 60_000);
});

describe('a deposit wallet', () => {
  it('shows its funds with the reason the actions are not available, and refuses them (relayer only)', async () => {
    const funds = await call<AccountFunds>('getAccountFunds', { wallet: 'deposit' });
    expect(funds).toMatchObject({ account: account('deposit').address, accountKind: 'deposit-wallet' });
    expect(funds.actionsUnavailable).toMatch("Polymarket's relayer");
    const refused = await result('previewMoneyAction', { wallet: 'deposit', action: 'wrap', amount: '1' });
    expect(refused).toMatchObject({ ok: false, error: { code: 'ERR_NOT_AVAILABLE' } });
  }, 60_000);
});

describe('the signer worker', () => {
  it("builds nothing and sends nothing for an account that is not the key's own", async () => {
    const signer = startSignerThread();
    try {
      const key = ownerKey('safe');
      const { keystore } = await signer.importPrivateKey(key.privateKey, PASSWORD, { scryptN: 2 ** 12 });
      await signer.unlock(keystore, PASSWORD);
      const profile = parseTradingProfile(sandbox.profile);
      const other = sandbox.profile.testAccounts.find(
        (a) => a.kind === 'proxy' && a.owner.toLowerCase() !== key.address.toLowerCase(),
      )!;
      const nonce = await chain.getTransactionCount(key.address);
      const request = {
        action: { action: 'wrap' as const, amount: '1000000' },
        account: { kind: 'proxy' as const, address: other.address, wallets: walletConfigFor(profile.network) },
        contracts: actionContractsFor(profile.network),
        rpcUrl: profile.rpcUrl,
        chainId: profile.network.chainId,
        send: true,
      };
      await expect(signer.sendAccountAction(key.address, request)).rejects.toMatchObject({
        code: ErrorCode.INVALID_PARAMETER,
        message: expect.stringContaining(`The wallet ${other.address} does not match the signer ${key.address}`),
      });
      expect(await chain.getTransactionCount(key.address)).toBe(nonce);
    } finally {
      await signer.close();
    }
  }, 60_000);
});
