// A wallet with a long history on the terminal page: its account as main's `account` event carries it (n
// trades, newest first once the page sorts them, and open orders), and the import that makes the page follow
// the wallet. For the long-list UI test and the frames benchmark's BENCH_HISTORY.
import type { Page } from 'playwright-core';
import type { OpenOrder, TradeInfo } from '../../src/shared/contract';

export function longAccount(
  tradeCount: number,
  orderCount: number,
  now = Math.floor(Date.now() / 1000),
): { trades: TradeInfo[]; openOrders: OpenOrder[] } {
  const trades: TradeInfo[] = Array.from({ length: tradeCount }, (_, i) => ({
    tradeId: `long-trade-${i}`,
    conditionId: '0xlong',
    tokenId: `long-token-${i % 5}`,
    side: i % 2 === 0 ? 'BUY' : 'SELL',
    price: 0.01 + (i % 98) / 100,
    size: 1 + i,
    status: 'CONFIRMED',
    // Trade i happened i minutes ago.
    matchedAt: now - i * 60,
    pending: false,
  }));
  const openOrders: OpenOrder[] = Array.from({ length: orderCount }, (_, i) => ({
    orderId: `long-order-${i}`,
    conditionId: '0xlong',
    tokenId: `long-token-${i % 5}`,
    side: 'BUY',
    price: 0.02,
    originalSize: 5 + i,
    sizeMatched: 0,
    orderType: 'GTC',
    status: 'LIVE',
    createdAt: now - i,
    expiresAt: 0,
  }));
  return { trades, openOrders };
}

/** Imports a wallet through the page's `window.terminal` and reloads: the page follows the first wallet it finds. */
export async function importAndFollow(page: Page, label: string, password: string, privateKey: string): Promise<void> {
  const answer = await page.evaluate(
    async ([label, password, privateKey]) =>
      (
        globalThis as unknown as {
          terminal: { importWallet(input: unknown): Promise<{ ok: boolean; error?: unknown }> };
        }
      ).terminal.importWallet({
        label,
        password,
        source: { kind: 'privateKey', privateKey },
      }),
    [label, password, privateKey] as const,
  );
  if (!answer.ok) throw new Error(`importWallet failed: ${JSON.stringify(answer.error)}`);
  await page.reload();
}
