// The contract's trading operations on the whole local sandbox (real chain, exchange and aggregator) through
// the router, with wallets in a temp folder over a real signer worker: previewOrder (limit, market by dollars,
// a sell without tokens, an off-tick price, a locked wallet), placeOrder's post-only pass-through, and the
// notices a fresh wallet's first order sends to every window (approvals with their mined transactions).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { JsonRpcProvider } from 'ethers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EventName, OrderPreview, Result, TerminalEvents } from '../../src/shared/contract';
import { ErrorCode } from '../../packages/toolkit/src/model/errors';
import { CredentialVault } from '../../src/main/credentials/api-credentials';
import { MemorySecretStore } from '../../src/main/credentials/secret-store';
import { allowOrigins, type SenderInfo } from '../../src/main/ipc/router';
import { openTerminal, type Terminal } from '../../src/main/terminal/terminal';
import { parseAppProfile } from '../../src/main/settings/profile';
import { TradingService } from '../../src/main/trading/service';
import { startSignerThread } from '../../src/main/wallets/signer-thread';
import { sandboxProvider } from '../../sandbox/chain/index';
import {
  PASSWORD,
  freshWallet,
  makerOrder,
  marketMaker,
  startTradingSandbox,
  type TradingSandbox,
} from '../helpers/trading-sandbox';

const APP = 'app://pmdesk';
const window1: SenderInfo = { origin: APP, mainFrame: true, clientId: 'window-1' };
const MARKET = '90021';

let sb: TradingSandbox;
let terminal: Terminal;
let dataDir: string;
let chain: JsonRpcProvider;
let address: string;
let yes: string;
let no: string;
const heard: { event: EventName; payload: unknown }[] = [];

async function call<T>(op: string, input: unknown): Promise<T> {
  const result = (await terminal.router.call(op, input, window1)) as Result<T>;
  if (!result.ok) throw new Error(`${op} failed: ${result.error.code} ${result.error.message}`);
  return result.value;
}
const refusal = async (op: string, input: unknown) => {
  const result = await terminal.router.call(op, input, window1);
  if (result.ok) throw new Error(`${op} was expected to fail`);
  return result.error;
};
const notices = () => heard.filter((h) => h.event === 'notice').map((h) => h.payload as TerminalEvents['notice']);

beforeAll(async () => {
  sb = await startTradingSandbox();
  dataDir = await mkdtemp(join(tmpdir(), 'pmdesk-terminal-trading-'));
  const signer = startSignerThread();
  const vault = await CredentialVault.open({ keychain: new MemorySecretStore() });
  terminal = openTerminal({
    profile: parseAppProfile(sb.sandbox.profile),
    shell: 'browser',
    allowSender: allowOrigins([APP]),
    wallets: { dataDir, signer, scryptN: 2 ** 12 },
    orderFlow: new TradingService({ profile: sb.profile, vault, timeoutMs: 20_000 }),
  });
  terminal.hub.connect(window1.clientId, (event, payload) => heard.push({ event, payload }));
  // A funded wallet with no allowance, kept in the data folder under a label (locked until a test unlocks it).
  const funded = await freshWallet(sb, signer, { unlock: false });
  address = funded.address;
  chain = sandboxProvider(sb.sandbox.deployment.rpcUrl, sb.sandbox.deployment.chainId);
  await call('importWallet', {
    label: 'desk',
    password: PASSWORD,
    source: { kind: 'privateKey', privateKey: funded.privateKey },
  });
  const market = sb.sandbox.catalog.market(MARKET)!;
  [yes, no] = [market.tokens[0].tokenId, market.tokens[1].tokenId];
  // The other side: a bid for No at 0.60 is an ask for Yes at 0.40 (200 shares).
  const maker = await marketMaker(sb);
  expect(await makerOrder(maker.client, { tokenId: no, side: 'BUY', price: 0.6, size: 200 })).toMatchObject({
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

const order = (extra: Record<string, unknown>) => ({
  wallet: 'desk',
  marketId: MARKET,
  tokenId: yes,
  side: 'BUY',
  ...extra,
});
const checks = (preview: OrderPreview) => preview.problems.map((p) => [p.check, p.blocking]);

describe('previewOrder', () => {
  it('previews a locked wallet’s limit buy: snapped price, shares, cost, payout, and WALLET_LOCKED with the missing allowances', async () => {
    const preview = await call<OrderPreview>('previewOrder', order({ price: 0.05, amountUsd: 0.5 }));
    expect(preview).toMatchObject({
      side: 'BUY',
      orderType: 'GTC',
      price: 0.05,
      shares: 10,
      cost: 0.5,
      payout: 10,
      fees: 0,
      tickSize: '0.01',
      approvalsNeeded: 4,
    });
    expect(preview.minOrderSize).toBe(sb.sandbox.catalog.market(MARKET)!.minOrderSize);
    expect(preview.minOrderSize).toBeGreaterThan(0);
    expect(checks(preview)).toEqual([
      ['WALLET_LOCKED', true],
      ['ALLOWANCE_MISSING', false],
    ]);
    expect(preview.problems[0]!.message).toMatch(/locked: unlock it/);
    // Nothing was signed or sent: the wallet has sent no transaction and its collateral is untouched.
    expect(await chain.getTransactionCount(address)).toBe(0);
    expect(await call('getBalances', { wallet: 'desk' })).toMatchObject({ collateral: 1000 });
  });

  it('prices a market buy by dollars from the exchange’s book once unlocked', async () => {
    await call('unlockWallet', { label: 'desk', password: PASSWORD, autoLockMinutes: 0 });
    const preview = await call<OrderPreview>('previewOrder', order({ orderType: 'FOK', amountUsd: 8 }));
    expect(preview).toMatchObject({ orderType: 'FOK', price: 0.4, shares: 20, cost: 8, payout: 20, fees: 0 });
    expect(checks(preview)).toEqual([['ALLOWANCE_MISSING', false]]);
    const tooMuch = await call<OrderPreview>('previewOrder', order({ orderType: 'FOK', amountUsd: 500 }));
    expect(checks(tooMuch)).toContainEqual(['NOT_ENOUGH_LIQUIDITY', true]);
    expect(tooMuch.shares).toBe(200);
    // Dollars and cents as the ticket writes them, not 80 or 0.45.
    expect(tooMuch.problems.find((p) => p.check === 'NOT_ENOUGH_LIQUIDITY')!.message).toBe(
      'The book can fill only $80.00 of the $500.00: a fill-or-kill order would not be placed. Trade less, or use FAK to take what is there.',
    );
    const worst = await call<OrderPreview>('previewOrder', order({ orderType: 'FOK', amountUsd: 8, price: 0.35 }));
    expect(worst.problems.find((p) => p.check === 'NOT_ENOUGH_LIQUIDITY')?.message).toMatch(
      /^The book has no asks at 35¢ or better for "/,
    );
  });

  it('blocks a sell of shares the wallet does not hold', async () => {
    const preview = await call<OrderPreview>('previewOrder', order({ side: 'SELL', price: 0.5, size: 10 }));
    expect(preview).toMatchObject({ side: 'SELL', price: 0.5, shares: 10, cost: 5, payout: 10 });
    const sell = preview.problems.find((p) => p.check === 'NOT_ENOUGH_OUTCOME_TOKENS');
    expect(sell).toMatchObject({ blocking: true, message: expect.stringMatching(/sell at most 0/) });
  });

  it('snaps an off-tick price to the tick and says the order would be refused as typed', async () => {
    const preview = await call<OrderPreview>('previewOrder', order({ price: 0.053, size: 10 }));
    expect(preview.price).toBe(0.05);
    expect(preview.problems.find((p) => p.check === 'PRICE_OFF_TICK')).toMatchObject({
      blocking: true,
      message: expect.stringMatching(/use 0\.05 or 0\.06/),
    });
  });

  it('refuses an unknown wallet with a catalogue code', async () => {
    expect(await refusal('previewOrder', order({ wallet: 'nobody', price: 0.05, size: 10 }))).toMatchObject({
      code: ErrorCode.NOT_FOUND,
    });
  });
});

describe('placeOrder', () => {
  it('tells every window about a fresh wallet’s approvals (mined transactions) and its new credentials, once', async () => {
    heard.length = 0;
    const placed = await call<{ orderId: string; status: string }>('placeOrder', order({ price: 0.05, size: 10 }));
    expect(placed.status).toBe('LIVE');
    const approvals = notices().filter((n) => n.kind === 'approval');
    expect(approvals).toHaveLength(4);
    for (const approval of approvals) {
      expect(approval).toMatchObject({
        wallet: 'desk',
        txHash: expect.stringMatching(/^0x[0-9a-f]{64}$/),
        message: expect.stringContaining(approval.txHash!),
      });
      const receipt = (await chain.getTransactionReceipt(approval.txHash!))!;
      expect(receipt.status).toBe(1);
    }
    expect(notices().filter((n) => n.kind === 'credentials')).toHaveLength(1);
    expect(notices().some((n) => n.kind === 'info' && /allowances are missing/.test(n.message))).toBe(true);
    expect(
      heard.some((h) => h.event === 'orderUpdate' && (h.payload as { orderId: string }).orderId === placed.orderId),
    ).toBe(true);

    heard.length = 0;
    expect(await call<{ status: string }>('placeOrder', order({ price: 0.05, size: 10 }))).toMatchObject({
      status: 'LIVE',
    });
    expect(notices()).toEqual([]);
  });

  it('passes post-only through: a crossing one the exchange refuses is said in the trader’s words, a resting one rests', async () => {
    // Main sends a post-only order as asked (the ticket checks its own live book first): the exchange refuses it,
    // and its raw sentence becomes one that says what happened and what to do.
    const crossing = await refusal('placeOrder', order({ price: 0.4, size: 5, postOnly: true }));
    expect(crossing.message).toMatch(
      /Post-only: the book moved and this buy at 40¢ would have taken the best ask.*nothing was placed — lower the price or turn post-only off\./,
    );
    expect(crossing.message).not.toMatch(/invalid post-only order/);
    const resting = await call<{ orderId: string; status: string }>(
      'placeOrder',
      order({ price: 0.04, size: 10, postOnly: true }),
    );
    expect(resting.status).toBe('LIVE');
    const open = await call<{ orderId: string; price: number }[]>('listOpenOrders', {
      wallet: 'desk',
      marketId: MARKET,
    });
    expect(open.find((o) => o.orderId === resting.orderId)).toMatchObject({ price: 0.04 });
    // The same crossing price without post-only takes the ask.
    expect(await call<{ status: string }>('placeOrder', order({ price: 0.4, size: 5 }))).toMatchObject({
      status: 'MATCHED',
    });
  });
});
