// The region and close-only checks through the terminal on the whole local sandbox (real chain, exchange,
// geoblock endpoint, signer worker): the sandbox's geoblock switch says blocked → getTradingAccess says so with
// the region, every window hears it, placeOrder is refused with the same sentence and nothing is signed, while
// reading goes on; unblocked → orders go through. An account the exchange puts in close-only mode → a BUY is
// refused, a SELL of held shares and a cancel still go through; released → a BUY goes through again.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { JsonRpcProvider } from 'ethers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EventName, Result, TradingAccessInfo } from '../../src/shared/contract';
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
const BLOCKED =
  'Trading is not available from your region (US-NY): Polymarket blocks new orders there. You can still browse markets.';
const CLOSE_ONLY =
  'This account is in close-only mode: you can cancel orders and sell positions, but not open new ones.';
const SLOW = 120_000;

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
const accessEvents = () => heard.filter((h) => h.event === 'tradingAccess').map((h) => h.payload as TradingAccessInfo);
const order = (extra: Record<string, unknown>) => ({
  wallet: 'desk',
  marketId: MARKET,
  tokenId: yes,
  side: 'BUY',
  ...extra,
});

beforeAll(async () => {
  sb = await startTradingSandbox();
  dataDir = await mkdtemp(join(tmpdir(), 'pmdesk-trading-access-'));
  const signer = startSignerThread();
  const vault = await CredentialVault.open({ keychain: new MemorySecretStore() });
  terminal = openTerminal({
    profile: parseAppProfile(sb.sandbox.profile),
    shell: 'browser',
    allowSender: allowOrigins([APP]),
    wallets: { dataDir, signer, scryptN: 2 ** 12 },
    orderFlow: new TradingService({ profile: sb.profile, vault, timeoutMs: 20_000 }),
    // Checked again every 200 ms, so a switch of the sandbox shows at once rather than in 5 minutes.
    regionCheckMs: 200,
  });
  terminal.hub.connect(window1.clientId, (event, payload) => heard.push({ event, payload }));
  const funded = await freshWallet(sb, signer, { unlock: false });
  address = funded.address;
  chain = sandboxProvider(sb.sandbox.deployment.rpcUrl, sb.sandbox.deployment.chainId);
  await call('importWallet', {
    label: 'desk',
    password: PASSWORD,
    source: { kind: 'privateKey', privateKey: funded.privateKey },
  });
  await call('unlockWallet', { label: 'desk', password: PASSWORD, autoLockMinutes: 0 });
  const market = sb.sandbox.catalog.market(MARKET)!;
  [yes, no] = [market.tokens[0].tokenId, market.tokens[1].tokenId];
  // The other side: a bid for No at 0.60 is an ask for Yes at 0.40 (200 shares).
  const maker = await marketMaker(sb);
  expect(await makerOrder(maker.client, { tokenId: no, side: 'BUY', price: 0.6, size: 200 })).toMatchObject({
    success: true,
    status: 'live',
  });
}, SLOW);

afterAll(async () => {
  chain?.destroy();
  await terminal?.close();
  await sb?.stop();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

describe('a blocked region', () => {
  it('starts allowed where the geoblock check says the caller is not blocked', async () => {
    expect(await call('getTradingAccess', {})).toEqual({
      allowed: true,
      state: 'ok',
      reason: '',
      country: 'IE',
      region: 'L',
      wallet: null,
    });
  });

  it('is said with its region to every window, refuses placeOrder with the same sentence and signs nothing; reading goes on', async () => {
    heard.length = 0;
    sb.sandbox.polymarket.geoblock({ blocked: true, country: 'US', region: 'NY' });
    await expect
      .poll(async () => (await call<TradingAccessInfo>('getTradingAccess', {})).state, { timeout: 10_000 })
      .toBe('blocked');
    expect(await call('getTradingAccess', { wallet: 'desk' })).toEqual({
      allowed: false,
      state: 'blocked',
      reason: BLOCKED,
      country: 'US',
      region: 'NY',
      wallet: 'desk',
    });
    expect(accessEvents()).toContainEqual({
      allowed: false,
      state: 'blocked',
      reason: BLOCKED,
      country: 'US',
      region: 'NY',
      wallet: null,
    });

    expect(await refusal('placeOrder', order({ price: 0.05, size: 10 }))).toEqual({
      code: ErrorCode.FORBIDDEN,
      message: BLOCKED,
    });
    expect(await refusal('placeOrder', order({ side: 'SELL', price: 0.9, size: 10 }))).toEqual({
      code: ErrorCode.FORBIDDEN,
      message: BLOCKED,
    });
    // Nothing was approved or signed: the wallet sent no transaction and has no open order.
    expect(await chain.getTransactionCount(address)).toBe(0);
    // Reading stays: the market, its books and the wallet's balances.
    expect(await call<{ id: string }>('getMarket', { marketId: MARKET })).toMatchObject({ id: MARKET });
    expect(await call('getOrderBook', { marketId: MARKET })).toBeTruthy();
    expect(await call('getBalances', { wallet: 'desk' })).toMatchObject({ collateral: 1000 });
  });

  it(
    'unblocked: every window hears it and orders go through again',
    async () => {
      heard.length = 0;
      sb.sandbox.polymarket.geoblock({ blocked: false, country: 'IE', region: 'L' });
      await expect
        .poll(async () => (await call<TradingAccessInfo>('getTradingAccess', {})).state, { timeout: 10_000 })
        .toBe('ok');
      expect(accessEvents()).toContainEqual({
        allowed: true,
        state: 'ok',
        reason: '',
        country: 'IE',
        region: 'L',
        wallet: null,
      });
      const resting = await call<{ orderId: string; status: string }>('placeOrder', order({ price: 0.05, size: 10 }));
      expect(resting.status).toBe('LIVE');
    },
    SLOW,
  );
});

describe('an account in close-only mode', () => {
  let resting: string;

  it(
    'refuses a BUY with the sentence, while a SELL of held shares and a cancel go through',
    async () => {
      // Shares to sell later: 10 Yes at the maker's 0.40, settled on the chain.
      expect(await call<{ status: string }>('placeOrder', order({ price: 0.4, size: 10 }))).toMatchObject({
        status: 'MATCHED',
      });
      await expect
        .poll(
          async () =>
            (await call<{ outcomes: Record<string, number> }>('getBalances', { wallet: 'desk', marketId: MARKET }))
              .outcomes[yes],
          { timeout: 30_000 },
        )
        .toBe(10);
      resting = (await call<{ orderId: string }>('placeOrder', order({ price: 0.06, size: 10 }))).orderId;
      expect(await call('getTradingAccess', { wallet: 'desk' })).toMatchObject({
        allowed: true,
        state: 'ok',
        wallet: 'desk',
      });

      heard.length = 0;
      sb.sandbox.clob.exchangeFaults().closedOnly(address, true);
      await expect
        .poll(async () => (await call<TradingAccessInfo>('getTradingAccess', { wallet: 'desk' })).state, {
          timeout: 10_000,
        })
        .toBe('close-only');
      expect(await call('getTradingAccess', { wallet: 'desk' })).toMatchObject({
        allowed: false,
        state: 'close-only',
        reason: CLOSE_ONLY,
        wallet: 'desk',
      });
      // The region itself is fine: without a wallet the answer is the region's.
      expect(await call('getTradingAccess', {})).toMatchObject({ allowed: true, state: 'ok', wallet: null });
      await expect
        .poll(() => accessEvents().some((e) => e.wallet === 'desk' && e.state === 'close-only'), { timeout: 10_000 })
        .toBe(true);

      expect(await refusal('placeOrder', order({ price: 0.05, size: 10 }))).toEqual({
        code: ErrorCode.FORBIDDEN,
        message: CLOSE_ONLY,
      });
      expect(await refusal('placeOrder', order({ tokenId: no, orderType: 'FOK', amountUsd: 5 }))).toEqual({
        code: ErrorCode.FORBIDDEN,
        message: CLOSE_ONLY,
      });
      const sell = await call<{ orderId: string; status: string }>(
        'placeOrder',
        order({ side: 'SELL', price: 0.9, size: 10 }),
      );
      expect(sell.status).toBe('LIVE');
      expect(
        (await call<{ cancelled: string[] }>('cancelOrder', { wallet: 'desk', orderId: resting })).cancelled,
      ).toEqual([resting]);
      expect(
        (await call<{ cancelled: string[] }>('cancelOrder', { wallet: 'desk', orderId: sell.orderId })).cancelled,
      ).toEqual([sell.orderId]);
    },
    SLOW,
  );

  it(
    'released: the wallet’s event says so and a BUY goes through again',
    async () => {
      heard.length = 0;
      sb.sandbox.clob.exchangeFaults().closedOnly(address, false);
      await expect
        .poll(() => accessEvents().some((e) => e.wallet === 'desk' && e.state === 'ok'), { timeout: 10_000 })
        .toBe(true);
      expect(await call('getTradingAccess', { wallet: 'desk' })).toMatchObject({
        allowed: true,
        state: 'ok',
        reason: '',
      });
      expect(await call<{ status: string }>('placeOrder', order({ price: 0.05, size: 10 }))).toMatchObject({
        status: 'LIVE',
      });
    },
    SLOW,
  );
});
