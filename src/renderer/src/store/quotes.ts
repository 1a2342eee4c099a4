// Prices of markets no tile follows live, read again on a bounded schedule: every 15 s, only the markets a panel
// shows now (the grid's and the watchlist's rendered rows, the positions), at most 25 a round, one read each
// (the market's record: its best bid, best ask and last trade). Every panel reads a token's price from here when
// no tile has its live book, so the grid, the watchlist, Positions and a trader's profile say the same number.
import { create } from 'zustand';
import { ask } from '../bridge/terminal';
import { finalQuote, quoteFromRecord, type Quote } from '../model/quote';
import { useTileTokens } from './market';
import type { SelectedMarket } from './selection';

/** How often the shown markets that no tile follows are read again. */
export const REFRESH_MS = 15_000;
/** The most markets one round reads (the rest wait for the next round, the longest-unread first). */
export const MAX_MARKETS_PER_ROUND = 25;
/** A newly shown market is read this soon (several rows coming into view share one round). */
const FIRST_READ_MS = 300;

/** By token id: its quote as last read (`asOf`: when, Unix ms). */
export const useRefreshedQuotes = create<Record<string, Quote>>()(() => ({}));

interface Shown {
  protocol: SelectedMarket['protocol'];
  count: number;
  readAt: number;
}

const shown = new Map<string, Shown>();
let timer: ReturnType<typeof setTimeout> | undefined;
let reading = false;

function schedule(ms: number): void {
  if (timer !== undefined) clearTimeout(timer);
  timer = setTimeout(() => {
    timer = undefined;
    void round();
  }, ms);
}

/** A panel shows this market's prices: they are kept fresh while it does. The function returned lets go. */
export function showMarketPrices(protocol: SelectedMarket['protocol'], marketId: string): () => void {
  const was = shown.get(marketId);
  if (was) was.count += 1;
  else {
    shown.set(marketId, { protocol, count: 1, readAt: 0 });
    schedule(FIRST_READ_MS);
  }
  let held = true;
  return () => {
    if (!held) return;
    held = false;
    const entry = shown.get(marketId);
    if (entry && --entry.count <= 0) shown.delete(marketId);
  };
}

async function round(): Promise<void> {
  if (reading) return schedule(FIRST_READ_MS);
  reading = true;
  try {
    const live = new Set(Object.values(useTileTokens.getState()).flat());
    const now = Date.now();
    const due = [...shown.entries()]
      .filter(([, s]) => now - s.readAt >= REFRESH_MS - FIRST_READ_MS)
      .sort((a, b) => a[1].readAt - b[1].readAt);
    for (const [marketId, entry] of due.slice(0, MAX_MARKETS_PER_ROUND)) {
      entry.readAt = Date.now();
      try {
        const market = await ask('getMarket', { protocol: entry.protocol, marketId });
        const tokens = market.position_tokens.map((t) => t.token_id);
        // A market a tile follows has its live book: nothing to read for it (its tile's quote wins anyway).
        if (tokens.length > 0 && tokens.every((t) => live.has(t))) continue;
        const at = Date.now();
        // A closed market listed at exactly 1 and 0 has resolved (how Gamma lists it): its outcomes pay that, final.
        const listed = market.position_tokens.map((t) => Number(t.price));
        const resolved =
          market.closed === true &&
          listed.every((p) => p === 0 || p === 1) &&
          listed.filter((p) => p === 1).length === 1;
        const fresh = Object.fromEntries(
          tokens.map((t, i) => [t, resolved ? finalQuote(listed[i]!) : { ...quoteFromRecord(market, i), asOf: at }]),
        );
        useRefreshedQuotes.setState(fresh);
      } catch {
        // Unread this round: the price shown keeps its time, so its tag ages and says so.
      }
    }
  } finally {
    reading = false;
    if (shown.size > 0) schedule(REFRESH_MS);
  }
}
