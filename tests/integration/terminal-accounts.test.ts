// The terminal finds and trades from the trader's real Polymarket account, on the whole local sandbox (chain,
// exchange, Polymarket's Gamma and Data APIs) through the router: for each of the sandbox's ready-made accounts
// (proxy wallet, Safe, deposit wallet) the owner's key is imported, the account is found (from the owner's
// profile, confirmed by derivation), a BUY and a SELL fill and settle on chain from the ACCOUNT's collateral and
// tokens, and balances, positions, open orders and trades are the account's; choosing the key itself instead is
// kept across a restart; an override to an address the key does not control is refused before anything is signed.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Contract, Interface, Wallet, type JsonRpcProvider } from 'ethers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Result, WalletAccount } from '../../src/shared/contract';
import { ErrorCode } from '../../packages/toolkit/src/model/errors';
import { CredentialVault } from '../../src/main/credentials/api-credentials';
import { MemorySecretStore } from '../../src/main/credentials/secret-store';
import { allowOrigins, type SenderInfo } from '../../src/main/ipc/router';
import { openTerminal, type Terminal } from '../../src/main/terminal/terminal';
import { parseAppProfile } from '../../src/main/settings/profile';
import { TradingService } from '../../src/main/trading/service';
import { parseTradingProfile } from '../../src/main/trading/profile';
import { startSignerThread } from '../../src/main/wallets/signer-thread';
import { startSandbox } from '../../sandbox/index';
import { TX_OVERRIDES, openAccount, sandboxProvider } from '../../sandbox/chain/index';
import { accountTransactions } from '../../packages/toolkit/src/accounts/actions';
import { readSafeNonce } from '../../packages/toolkit/src/accounts/safe';
import { walletConfigSchema } from '../../packages/toolkit/src/chain/wallet-config';
import { PASSWORD, makerOrder, marketMaker, type TradingSandbox } from '../helpers/trading-sandbox';

const APP = 'app://pmdesk';
const window1: SenderInfo = { origin: APP, mainFrame: true, clientId: 'window-1' };
const MARKET = '90021';
const KIND_OF = { proxy: 'proxy', safe: 'safe', deposit: 'deposit-wallet' } as const;
const NAME_OF = { proxy: 'proxy wallet', safe: 'Safe', deposit: 'deposit wallet' } as const;

let sb: TradingSandbox;
let raw: Record<string, unknown>;
let terminal: Terminal;
let dataDir: string;
let chain: JsonRpcProvider;
let yes: string;
let no: string;

async function call<T>(op: string, input: unknown, on: Terminal = terminal): Promise<T> {
  const result = (await on.router.call(op, input, window1)) as Result<T>;
  if (!result.ok) throw new Error(`${op} failed: ${result.error.code} ${result.error.message}`);
  return result.value;
}

function open(): Terminal {
  return openTerminal({
    profile: parseAppProfile(raw),
    rawProfile: raw,
    shell: 'browser',
    allowSender: allowOrigins([APP]),
    wallets: { dataDir, signer: startSignerThread(), scryptN: 2 ** 12 },
    orderFlow: new TradingService({ profile: parseTradingProfile(raw), vault: vaultFor, timeoutMs: 20_000 }),
  });
}
let vaultFor: CredentialVault;

const collateralOf = (address: string) =>
  new Contract(
    sb.sandbox.deployment.contracts.collateral,
    ['function balanceOf(address) view returns (uint256)'],
    chain,
  ).getFunction('balanceOf')(address) as Promise<bigint>;
const sharesOf = (address: string, tokenId: string) =>
  new Contract(
    sb.sandbox.deployment.contracts.conditionalTokens,
    ['function balanceOf(address, uint256) view returns (uint256)'],
    chain,
  ).getFunction('balanceOf')(address, tokenId) as Promise<bigint>;

/** Waits (by the clock: the sandbox settles matched trades on chain on its own) until `check` holds. */
async function settled(check: () => Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`never settled: ${what}`);
}

beforeAll(async () => {
  // Polymarket direct: the account is asked of Gamma's public profile, as on polymarket.com.
  const sandbox = await startSandbox({
    ports: { rpc: 0, clob: 0, aggregator: 0 },
    simulate: 'off',
    seed: 11,
    orderVersion: 2,
    source: 'polymarket',
  });
  sb = { sandbox, profile: parseTradingProfile(sandbox.profile), stop: () => sandbox.stop() };
  raw = sandbox.profile as unknown as Record<string, unknown>;
  dataDir = await mkdtemp(join(tmpdir(), 'pmdesk-terminal-accounts-'));
  vaultFor = await CredentialVault.open({ keychain: new MemorySecretStore() });
  terminal = open();
  chain = sandboxProvider(sandbox.deployment.rpcUrl, sandbox.deployment.chainId);
  const market = sandbox.catalog.market(MARKET)!;
  [yes, no] = [market.tokens[0].tokenId, market.tokens[1].tokenId];
  // The other side, from a test wallet that owns no account: an ask for Yes at 0.40 (a bid for No at 0.60) and a bid for Yes at 0.30.
  const maker = await marketMaker(sb, 0);
  expect(await makerOrder(maker.client, { tokenId: no, side: 'BUY', price: 0.6, size: 200 })).toMatchObject({
    success: true,
    status: 'live',
  });
  expect(await makerOrder(maker.client, { tokenId: yes, side: 'BUY', price: 0.3, size: 200 })).toMatchObject({
    success: true,
    status: 'live',
  });
}, 120_000);

afterAll(async () => {
  chain?.destroy();
  await terminal?.close();
  await sb?.stop();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

const order = (wallet: string, extra: Record<string, unknown>) => ({
  wallet,
  marketId: MARKET,
  tokenId: yes,
  ...extra,
});

describe.each(['proxy', 'safe', 'deposit'] as const)('the %s account', (kind) => {
  it('is found for its owner’s key, and a BUY and a SELL fill and settle on chain from the account’s funds', async () => {
    const ready = sb.sandbox.profile.testAccounts.find((a) => a.kind === kind)!;
    const owner = sb.sandbox.profile.testWallets.find((w) => w.address.toLowerCase() === ready.owner.toLowerCase())!;
    await call('importWallet', {
      label: kind,
      password: PASSWORD,
      source: { kind: 'privateKey', privateKey: owner.privateKey },
    });
    await call('unlockWallet', { label: kind, password: PASSWORD, autoLockMinutes: 0 });

    const found = await call<WalletAccount>('getWalletAccount', { wallet: kind });
    expect(found).toMatchObject({
      wallet: kind,
      owner: owner.address,
      network: 'sandbox',
      chosenBy: 'found',
      reason: 'profile',
      account: {
        address: ready.address,
        kind: KIND_OF[kind],
        signatureType: ready.signatureType,
        foundBy: 'profile',
        deployed: true,
      },
      description: `Polymarket account ${ready.address} (${NAME_OF[kind]}, owned by key ${owner.address})`,
    });
    expect(found.account.collateral).toBeGreaterThan(0);
    expect(found.candidates.map((c) => c.address)).toContain(owner.address);

    const [cash0, shares0, ownerCash0] = await Promise.all([
      collateralOf(ready.address),
      sharesOf(ready.address, yes),
      collateralOf(owner.address),
    ]);
    expect(await call('getBalances', { wallet: kind })).toEqual({ collateral: Number(cash0) / 1e6, outcomes: {} });

    // BUY 10 Yes at 0.40: 4 dollars leave the account, 10 shares arrive there; the key's own funds are untouched.
    expect(await call('placeOrder', order(kind, { side: 'BUY', price: 0.4, size: 10 }))).toMatchObject({
      status: 'MATCHED',
    });
    await settled(async () => (await sharesOf(ready.address, yes)) === shares0 + 10_000_000n, 'the buy');
    expect(await collateralOf(ready.address)).toBe(cash0 - 4_000_000n);
    expect(await collateralOf(owner.address)).toBe(ownerCash0);
    expect(await sharesOf(owner.address, yes)).toBe(0n);
    expect(await call('getBalances', { wallet: kind, marketId: MARKET })).toMatchObject({
      collateral: Number(cash0 - 4_000_000n) / 1e6,
      outcomes: { [yes]: 10 },
    });
    const positions = await call<{ conditionId: string | null; size: number }[]>('getPositions', { wallet: kind });
    expect(positions).toContainEqual(
      expect.objectContaining({ conditionId: sb.sandbox.catalog.market(MARKET)!.conditionId, size: 10 }),
    );

    // SELL them at 0.30: the shares leave the account, 3 dollars come back to it.
    expect(await call('placeOrder', order(kind, { side: 'SELL', price: 0.3, size: 10 }))).toMatchObject({
      status: 'MATCHED',
    });
    await settled(async () => (await sharesOf(ready.address, yes)) === shares0, 'the sell');
    expect(await collateralOf(ready.address)).toBe(cash0 - 1_000_000n);
    expect(await collateralOf(owner.address)).toBe(ownerCash0);

    const trades = await call<{ side: string; size: number; price: number }[]>('listTrades', {
      wallet: kind,
      marketId: MARKET,
    });
    expect(trades.map((t) => [t.side, t.size, t.price]).sort()).toEqual([
      ['BUY', 10, 0.4],
      ['SELL', 10, 0.3],
    ]);
    // An order that rests is listed as the account's, and cancelled through the key's credentials.
    const resting = await call<{ orderId: string; status: string }>(
      'placeOrder',
      order(kind, { side: 'BUY', price: 0.05, size: 10 }),
    );
    expect(resting.status).toBe('LIVE');
    const open = await call<{ orderId: string }[]>('listOpenOrders', { wallet: kind, marketId: MARKET });
    expect(open.map((o) => o.orderId)).toEqual([resting.orderId]);
    expect(await call('cancelOrder', { wallet: kind, orderId: resting.orderId })).toEqual({
      cancelled: [resting.orderId],
    });
  }, 90_000);
});

describe('choosing the account', () => {
  it('refuses an override to an address the key does not control, before anything is signed, and keeps the found account', async () => {
    const other = sb.sandbox.profile.testAccounts.find((a) => a.kind === 'proxy')!;
    const safe = sb.sandbox.profile.testAccounts.find((a) => a.kind === 'safe')!;
    const sent = await chain.getTransactionCount(safe.owner);
    const result = await terminal.router.call(
      'chooseWalletAccount',
      { wallet: 'safe', account: other.address },
      window1,
    );
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.code).toBe(ErrorCode.INVALID_PARAMETER);
    expect(result.error.message).toMatch(`The wallet ${other.address} does not match the signer ${safe.owner}`);
    expect(await chain.getTransactionCount(safe.owner)).toBe(sent);
    expect(await call<WalletAccount>('getWalletAccount', { wallet: 'safe' })).toMatchObject({
      chosenBy: 'found',
      account: { address: safe.address },
    });
  });

  it("sends a Safe's missing approval AS the Safe (the key signs and pays), never from the key, then places the order", async () => {
    const key = Wallet.createRandom();
    await chain.send('anvil_setBalance', [key.address, '0x8AC7230489E80000']);
    // The key's Safe, deployed, funded and approved as the sandbox opens accounts; then its collateral approval of
    // the exchange is withdrawn (as the Safe), so the order must set it again.
    const safe = await openAccount(sb.sandbox.deployment, 'safe', key.privateKey, 50_000_000n);
    const exchange = sb.sandbox.deployment.contracts.exchange;
    const collateral = sb.sandbox.deployment.contracts.collateral;
    const erc20 = new Interface([
      'function approve(address, uint256)',
      'function allowance(address, address) view returns (uint256)',
    ]);
    const revoke = await accountTransactions(
      { kind: 'safe', address: safe.address, owner: key.address },
      [{ to: collateral, data: erc20.encodeFunctionData('approve', [exchange, 0n]) }],
      {
        chainId: sb.sandbox.deployment.chainId,
        wallets: walletConfigSchema.parse(sb.sandbox.profile.wallets),
        multiSend: sb.sandbox.profile.wallets.multiSend,
        signer: key.connect(chain),
        safeNonce: (address) => readSafeNonce(chain, address),
      },
    );
    await (await key.connect(chain).sendTransaction({ ...revoke.transactions[0]!, ...TX_OVERRIDES })).wait();
    const allowance = (owner: string) =>
      new Contract(collateral, erc20, chain).getFunction('allowance')(owner, exchange) as Promise<bigint>;
    expect(await allowance(safe.address)).toBe(0n);

    await call('importWallet', {
      label: 'fresh',
      password: PASSWORD,
      source: { kind: 'privateKey', privateKey: key.privateKey },
    });
    await call('unlockWallet', { label: 'fresh', password: PASSWORD, autoLockMinutes: 0 });
    expect(await call<WalletAccount>('getWalletAccount', { wallet: 'fresh' })).toMatchObject({
      account: { address: safe.address, kind: 'safe' },
    });

    const preview = await call<{ problems: { check: string; blocking: boolean }[] }>(
      'previewOrder',
      order('fresh', { side: 'BUY', price: 0.05, size: 10 }),
    );
    expect(preview.problems.find((p) => p.check === 'ALLOWANCE_MISSING')).toMatchObject({ blocking: false });
    const placed = await call<{ orderId: string | null }>(
      'placeOrder',
      order('fresh', { side: 'BUY', price: 0.05, size: 10 }),
    );
    expect(placed.orderId).toMatch(/^0x/);
    expect(await allowance(safe.address)).toBeGreaterThan(0n);
    // Nothing was approved from the key: approving there would allow nothing for the Safe.
    expect(await allowance(key.address)).toBe(0n);
  });

  it('keeps the key itself, once chosen, across a restart of the terminal; the key then trades from its own funds', async () => {
    const safe = sb.sandbox.profile.testAccounts.find((a) => a.kind === 'safe')!;
    // A page follows the wallet live: its feed opens again for the chosen account, without closing on the page.
    const heard: {
      event: string;
      payload: { wallet?: string; marketId?: string; state?: string; trades?: unknown[] };
    }[] = [];
    terminal.hub.connect(window1.clientId, (event, payload) =>
      heard.push({ event, payload: payload as (typeof heard)[number]['payload'] }),
    );
    await call('watchAccount', { wallet: 'safe' });
    await settled(
      async () => heard.some((h) => h.event === 'account' && h.payload.wallet === 'safe'),
      'the Safe’s first snapshot',
    );
    heard.length = 0;
    const chosen = await call<WalletAccount>('chooseWalletAccount', { wallet: 'safe', account: safe.owner });
    await settled(
      async () => heard.some((h) => h.event === 'account' && h.payload.wallet === 'safe'),
      'a snapshot after the choice',
    );
    expect(
      heard.filter((h) => h.event === 'feedStatus' && h.payload.marketId === 'safe' && h.payload.state === 'closed'),
    ).toEqual([]);
    expect(terminal.services.accounts!.watched()).toEqual(['safe']);
    expect(chosen).toMatchObject({
      chosenBy: 'trader',
      reason: 'trader',
      account: { address: safe.owner, kind: 'eoa', signatureType: 0 },
      alsoInUse: [safe.address],
    });
    // Chosen over its Safe: the key's own address, and nothing that says there is no account wallet.
    expect(chosen.description).toBe(`The key ${safe.owner} trades from its own address`);

    await terminal.close();
    terminal = open();
    await call('unlockWallet', { label: 'safe', password: PASSWORD, autoLockMinutes: 0 });
    const again = await call<WalletAccount>('getWalletAccount', { wallet: 'safe' });
    expect(again).toMatchObject({ chosenBy: 'trader', account: { address: safe.owner, kind: 'eoa' } });
    // Balances are the key's own now (test wallet 2 holds its own collateral, apart from its Safe's).
    expect((await call<{ collateral: number }>('getBalances', { wallet: 'safe' })).collateral).toBe(
      Number(await collateralOf(safe.owner)) / 1e6,
    );

    const keyShares = await sharesOf(safe.owner, yes);
    expect(await call('placeOrder', order('safe', { side: 'BUY', price: 0.4, size: 5 }))).toMatchObject({
      status: 'MATCHED',
    });
    await settled(async () => (await sharesOf(safe.owner, yes)) === keyShares + 5_000_000n, 'the key’s own buy');

    // null goes back to the found account, and that too is kept.
    expect(await call<WalletAccount>('chooseWalletAccount', { wallet: 'safe', account: null })).toMatchObject({
      chosenBy: 'found',
      account: { address: safe.address },
    });
  });
});
