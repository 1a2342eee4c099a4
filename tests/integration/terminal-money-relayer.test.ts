// The trader's money from the terminal through Polymarket's relayer, on the whole local sandbox through the router:
// the sandbox profile gives each test wallet a relayer API key, so a proxy wallet's (through the profile's relay hub),
// a Safe's and a deposit wallet's wrap, split, merge and redeem go through the relayer with no login — signed in the
// signer worker, the owner key holding NO POL before and after — each effect checked on the chain to the base unit. Funds and previews say which way and why; asking
// for the key's path is honoured for a Safe and refused for a deposit wallet; the key itself never uses the relayer.
// A Safe and a deposit wallet that never approved the exchange (nor were deployed) place a first order: the
// approvals go through the relayer as one batch first.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Contract, MaxUint256, Wallet, type JsonRpcProvider } from 'ethers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AccountFunds, MoneyActionDone, MoneyActionPreview, TerminalEvents } from '../../src/shared/contract';
import { CredentialVault } from '../../src/main/credentials/api-credentials';
import { MemorySecretStore } from '../../src/main/credentials/secret-store';
import { allowOrigins, type SenderInfo } from '../../src/main/ipc/router';
import { openTerminal, type Terminal } from '../../src/main/terminal/terminal';
import { parseAppProfile } from '../../src/main/settings/profile';
import { TradingService } from '../../src/main/trading/service';
import { parseTradingProfile } from '../../src/main/trading/profile';
import { startSignerThread } from '../../src/main/wallets/signer-thread';
import { startSandbox, type RunningSandbox } from '../../sandbox/index';
import { TX_OVERRIDES, compileContracts, sandboxProvider } from '../../sandbox/chain/index';
import { deriveAccounts } from '../../packages/toolkit/src/accounts/derive';
import { parseNetworkProfile, walletConfigFor } from '../../packages/toolkit/src/chain/networks';
import { PASSWORD } from '../helpers/trading-sandbox';
import { chainHoldings } from '../helpers/chain-holdings';
import { routerCalls } from '../helpers/hub-client';

const APP = 'app://pmdesk';
const window1: SenderInfo = { origin: APP, mainFrame: true, clientId: 'window-1' };
const MARKET = '90021';
const GASLESS = "Through Polymarket's relayer — no gas needed";

let sandbox: RunningSandbox;
let terminal: Terminal;
let dataDir: string;
let chain: JsonRpcProvider;
let yes: string;
let no: string;

const { result, call } = routerCalls(() => terminal, window1);

const { pusdOf, usdcEOf, sharesOf, allowanceOf } = chainHoldings(
  () => chain,
  () => sandbox.deployment.contracts,
);

const account = (kind: 'proxy' | 'safe' | 'deposit') => sandbox.profile.testAccounts.find((a) => a.kind === kind)!;
const ownerKey = (kind: 'proxy' | 'safe' | 'deposit') =>
  sandbox.profile.testWallets.find((w) => w.address.toLowerCase() === account(kind).owner.toLowerCase())!;

beforeAll(async () => {
  sandbox = await startSandbox({
    ports: { rpc: 0, clob: 0, aggregator: 0 },
    simulate: 'off',
    seed: 11,
    orderVersion: 2,
    source: 'polymarket',
  });
  const raw = sandbox.profile as unknown as Record<string, unknown>;
  dataDir = await mkdtemp(join(tmpdir(), 'pmdesk-terminal-relayer-'));
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
  for (const kind of ['proxy', 'safe', 'deposit'] as const) {
    await call('importWallet', {
      label: kind,
      password: PASSWORD,
      source: { kind: 'privateKey', privateKey: ownerKey(kind).privateKey },
    });
    await call('unlockWallet', { label: kind, password: PASSWORD, autoLockMinutes: 0 });
    await chain.send('anvil_setBalance', [ownerKey(kind).address, '0x0']);
  }
}, 120_000);

afterAll(async () => {
  chain?.destroy();
  await terminal?.close();
  await sandbox?.stop();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

describe.each(['proxy', 'safe', 'deposit'] as const)(
  'money from a %s through the relayer, the key holding no POL',
  (kind) => {
    it('says which way and why, wraps, splits and merges to the base unit, and the key still holds no POL', async () => {
      const holder = account(kind).address;
      const key = ownerKey(kind).address;
      const funds = await call<AccountFunds>('getAccountFunds', { wallet: kind });
      expect(funds).toMatchObject({
        accountKind: { proxy: 'proxy', safe: 'safe', deposit: 'deposit-wallet' }[kind],
        actionsUnavailable: null,
        via: 'relayer',
      });
      expect(funds.viaReason).toBe(`${GASLESS} (a relayer API key for ${key}, the network profile's test key)`);

      const [pusd0, usdcE0, yes0, no0, nonce0] = await Promise.all([
        pusdOf(holder),
        usdcEOf(holder),
        sharesOf(holder, yes),
        sharesOf(holder, no),
        chain.getTransactionCount(key),
      ]);
      const preview = await call<MoneyActionPreview>('previewMoneyAction', {
        wallet: kind,
        action: 'wrap',
        amount: '2.5',
      });
      expect(preview).toMatchObject({ via: 'relayer', lines: ['$2.50 USDC.e → $2.50 pUSD'], gas: { units: '0' } });
      expect(await usdcEOf(holder)).toBe(usdcE0);

      const wrapped = await call<MoneyActionDone>('runMoneyAction', { wallet: kind, action: 'wrap', amount: '2.5' });
      expect(wrapped.via).toBe('relayer');
      expect(wrapped.relayer?.summary).toMatch(
        /^Sent through Polymarket's relayer — no gas needed: mined as 0x[0-9a-f]{64}\.$/,
      );
      expect(['STATE_MINED', 'STATE_CONFIRMED']).toContain(wrapped.relayer?.state);
      expect(wrapped.txHashes).toEqual([wrapped.relayer!.transactionHash]);
      expect(await usdcEOf(holder)).toBe(usdcE0 - 2_500_000n);
      expect(await pusdOf(holder)).toBe(pusd0 + 2_500_000n);

      await call<MoneyActionDone>('runMoneyAction', { wallet: kind, action: 'split', marketId: MARKET, amount: '3' });
      await call<MoneyActionDone>('runMoneyAction', { wallet: kind, action: 'merge', marketId: MARKET, amount: '1' });
      expect(await pusdOf(holder)).toBe(pusd0 + 2_500_000n - 2_000_000n);
      expect([await sharesOf(holder, yes), await sharesOf(holder, no)]).toEqual([yes0 + 2_000_000n, no0 + 2_000_000n]);

      // The key sent nothing and paid nothing: the relayer did.
      expect(await chain.getTransactionCount(key)).toBe(nonce0);
      expect(await chain.getBalance(key)).toBe(0n);
    }, 120_000);
  },
);

describe('a first order from an account that has never approved the exchange, the key holding no POL', () => {
  it.each(['deposit-wallet', 'safe'] as const)(
    'as a %s: the approvals go through the relayer (deploying it first), then the order',
    async (kind) => {
      // The first test wallet owns no test account: its Safe and deposit wallet have no code and no approval.
      const owner = sandbox.profile.testWallets[0]!;
      const derived = deriveAccounts(owner.address, walletConfigFor(parseNetworkProfile(sandbox.profile)));
      const holder = kind === 'safe' ? derived.safe! : derived.depositWallet!.beacon!;
      const minter = new Wallet(sandbox.deployment.operator.privateKey, chain);
      await (
        await new Contract(
          sandbox.deployment.contracts.collateral,
          compileContracts().Collateral.abi,
          minter,
        ).getFunction('mint')(holder, 20_000_000n, TX_OVERRIDES)
      ).wait();
      if (kind === 'deposit-wallet') {
        await call('importWallet', {
          label: 'fresh',
          password: PASSWORD,
          source: { kind: 'privateKey', privateKey: owner.privateKey },
        });
        await call('unlockWallet', { label: 'fresh', password: PASSWORD, autoLockMinutes: 0 });
        await chain.send('anvil_setBalance', [owner.address, '0x0']);
      }
      await call('chooseWalletAccount', { wallet: 'fresh', account: holder });
      expect(await chain.getCode(holder)).toBe('0x');
      const { exchange, negRiskExchange } = sandbox.profile.contracts;
      const allowance = (spender: string) => allowanceOf(sandbox.deployment.contracts.collateral, holder, spender);
      expect(await allowance(exchange!)).toBe(0n);

      const notices: TerminalEvents['notice'][] = [];
      const off = terminal.hub.connect(`order-listener-${kind}`, (event, payload) => {
        if (event === 'notice') notices.push(payload as TerminalEvents['notice']);
      });
      let placed: { status: string };
      try {
        placed = await call<{ status: string }>('placeOrder', {
          wallet: 'fresh',
          marketId: MARKET,
          tokenId: yes,
          side: 'BUY',
          price: 0.05,
          size: 10,
        });
      } finally {
        off();
      }
      expect(placed.status).toBe('LIVE');
      const approvals = notices.filter((n) => n.kind === 'approval');
      expect(approvals).toHaveLength(4);
      expect(new Set(approvals.map((n) => n.txHash)).size).toBe(1);
      expect(approvals[0]!.message).toMatch(/^Allowance set through Polymarket's relayer — no gas needed: /);
      expect(await chain.getCode(holder)).not.toBe('0x');
      for (const spender of [exchange!, negRiskExchange!]) expect(await allowance(spender)).toBe(MaxUint256);
      expect(await chain.getBalance(owner.address)).toBe(0n);
    },
    120_000,
  );
});

describe('the path asked for', () => {
  it("tells every window each relayed step, and redeems a resolved market's winnings gaslessly", async () => {
    await sandbox.resolveMarket(MARKET, 0);
    const holder = account('deposit').address;
    const [pusd0, yes0] = await Promise.all([pusdOf(holder), sharesOf(holder, yes)]);
    const notices: TerminalEvents['notice'][] = [];
    const off = terminal.hub.connect('notice-listener', (event, payload) => {
      if (event === 'notice') notices.push(payload as TerminalEvents['notice']);
    });
    try {
      await call<MoneyActionDone>('runMoneyAction', { wallet: 'deposit', action: 'redeem', marketId: MARKET });
    } finally {
      off();
    }
    expect(await pusdOf(holder)).toBe(pusd0 + yes0);
    expect(notices.map((n) => n.message)).toContainEqual(
      expect.stringMatching(/^redeem: submitted to Polymarket's relayer as \S+ \(STATE_\w+\)$/),
    );
    expect(await chain.getBalance(ownerKey('deposit').address)).toBe(0n);

    // A proxy wallet's redeem goes through the sandbox's relay hub, as the profile names it.
    const proxy = account('proxy').address;
    const [proxyCash0, proxyYes0] = await Promise.all([pusdOf(proxy), sharesOf(proxy, yes)]);
    const redeemed = await call<MoneyActionDone>('runMoneyAction', {
      wallet: 'proxy',
      action: 'redeem',
      marketId: MARKET,
    });
    expect(redeemed.via).toBe('relayer');
    expect(await pusdOf(proxy)).toBe(proxyCash0 + proxyYes0);
    expect(await sharesOf(proxy, yes)).toBe(0n);
    expect(await chain.getBalance(ownerKey('proxy').address)).toBe(0n);
  }, 120_000);

  it('honours the key path for a Safe (which then needs POL) and refuses it for a deposit wallet', async () => {
    const safe = await call<MoneyActionPreview>('previewMoneyAction', {
      wallet: 'safe',
      action: 'unwrap',
      amount: '1',
      via: 'key',
    }).catch((e: Error) => e);
    // The key holds no POL: the key path is quoted and refused before anything is sent.
    expect(String((safe as Error).message)).toMatch(/has 0 POL; this needs about/);
    const deposit = await result('previewMoneyAction', {
      wallet: 'deposit',
      action: 'unwrap',
      amount: '1',
      via: 'key',
    });
    expect(deposit).toMatchObject({ ok: false, error: { code: 'ERR_NOT_AVAILABLE' } });
  }, 60_000);
});
