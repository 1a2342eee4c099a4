// Live trades of the traders someone follows, by wallet: the real-time service's `activity/orders_matched` feed
// (every trade; the feed names the taker) filtered to the followed wallets, and while that feed is away (no URL,
// refused, dropped) each wallet's Data API trades polled, with one catch-up read when the feed comes back so the
// time it was away leaves no gap. Both paths meet in one de-duplication (a trade's transaction, outcome token,
// side and level), so a trade is told once whichever path saw it first.
import { invalidParameter, wrapOnce, type PmDeskError } from '../model/errors';
import type { Logger } from '../base/logger';
import type { DataTrade } from './data-schemas';
import type { RtdsTrade } from './clob-schemas';
import { RtdsStream, type WebSocketConstructor } from './rtds';
import { unitsOf } from './traders';

/** One trade of a followed trader, as a tape shows it. */
export interface FollowedTrade {
  /** What the trade is known by across both paths (transaction, token, side, price, size). */
  key: string;
  wallet: string;
  /** The trader's public name, else their pseudonym; '' when the feed named neither. */
  name: string;
  side: 'BUY' | 'SELL';
  outcome: string;
  outcomeIndex: number | null;
  /** The market's question. */
  market: string;
  conditionId: string;
  tokenId: string;
  price: number;
  /** Shares, in base units. */
  size: string;
  /** Unix seconds. */
  timestamp: number;
  transactionHash: string;
}

export type FollowMode = 'connecting' | 'live' | 'polling' | 'closed';

export interface FollowHandlers {
  onTrade?: (trade: FollowedTrade) => void;
  /** The feed went live, fell back to polling, or closed. */
  onMode?: (mode: FollowMode) => void;
  /** A read or a message that failed; the follow goes on. */
  onError?: (error: PmDeskError) => void;
}

export interface FollowTiming {
  /** How often each wallet's trades are polled while the real-time feed is away; 4 s by default. */
  pollMs?: number;
  /** How long after losing the real-time feed it is tried again; 10 s by default. */
  rtdsRetryMs?: number;
  pingMs?: number;
  rtdsOpenTimeoutMs?: number;
}

export interface FollowTradersOptions {
  wallets: readonly string[];
  /** A wallet's recent trades as taker, newest first (the Data API's /trades?user=). */
  pollTrades: (wallet: string) => Promise<DataTrade[]>;
  rtdsUrl?: string;
  WebSocket?: WebSocketConstructor;
  handlers: FollowHandlers;
  logger: Logger;
  timing?: FollowTiming;
}

export interface TraderFollow {
  readonly mode: FollowMode;
  /** Follows these wallets from now on (a wallet added is told of its trades from now, not its history). */
  setWallets(wallets: readonly string[]): void;
  close(): void;
}

/** The most wallets one follow watches: polling them all stays within the Data API's trades budget. */
export const MAX_FOLLOWED_WALLETS = 50;
const SEEN_WINDOW = 5_000;
const METHOD = 'followTraders';
const ADDRESS = /^0x[0-9a-fA-F]{40}$/;

/**
 * The key a trade is told once by. Transaction, token and side name a taker's trade; a taker who took several
 * price levels in one transaction has one print per level, so the level's price and size are part of it too.
 */
export function followedTradeKey(t: {
  transactionHash: string;
  asset: string;
  side: string;
  price: number;
  size: number;
}): string {
  return `${t.transactionHash.toLowerCase()}|${t.asset}|${t.side}|${t.price}|${t.size}`;
}

function toFollowedTrade(t: DataTrade | RtdsTrade): FollowedTrade {
  return {
    key: followedTradeKey(t),
    wallet: t.proxyWallet,
    name: t.name || t.pseudonym,
    side: t.side,
    outcome: t.outcome,
    outcomeIndex: t.outcomeIndex,
    market: t.title,
    conditionId: t.conditionId,
    tokenId: t.asset,
    price: t.price,
    size: unitsOf(t.size, 'a trade size of', METHOD),
    timestamp: t.timestamp,
    transactionHash: t.transactionHash,
  };
}

/** Checks and lower-cases the wallets (at most MAX_FOLLOWED_WALLETS, each an address). */
export function followedWallets(wallets: readonly string[]): string[] {
  if (!Array.isArray(wallets) || wallets.some((w) => typeof w !== 'string' || !ADDRESS.test(w)))
    throw invalidParameter('Followed traders are wallet addresses (0x and 40 hex digits).', METHOD);
  const unique = [...new Set(wallets.map((w) => w.toLowerCase()))];
  if (unique.length > MAX_FOLLOWED_WALLETS)
    throw invalidParameter(`At most ${MAX_FOLLOWED_WALLETS} traders can be followed at once.`, METHOD, {
      count: unique.length,
    });
  return unique;
}

export function followTraders(options: FollowTradersOptions): TraderFollow {
  const { logger, handlers } = options;
  const pollMs = options.timing?.pollMs ?? 4_000;
  const rtdsRetryMs = options.timing?.rtdsRetryMs ?? 10_000;
  const nowS = () => Math.floor(Date.now() / 1000);
  /** Each followed wallet and the time (Unix s) from which its trades are told. */
  const since = new Map<string, number>(followedWallets(options.wallets).map((w) => [w, nowS()]));
  const seen = new Set<string>();
  /**
   * Each wallet's trades when it was followed, read at once: those of that same second are marked seen, so a
   * trade made just before following (the Data API counts whole seconds) is not told as a new one.
   */
  const baselines = new Map<string, Promise<void>>();
  let mode: FollowMode = 'connecting';
  let rtds: RtdsStream | undefined;
  let pollTimer: ReturnType<typeof setTimeout> | undefined;
  let retryTimer: ReturnType<typeof setTimeout> | undefined;
  let polling = false;

  const safely = (name: string, fn: () => void) => {
    try {
      fn();
    } catch (error) {
      logger.error(`followed-trades handler ${name} threw`, wrapOnce(error, METHOD));
    }
  };
  const tellError = (error: unknown) => safely('onError', () => handlers.onError?.(wrapOnce(error, METHOD)));
  const enter = (next: FollowMode) => {
    if (mode === next || mode === 'closed') return;
    mode = next;
    safely('onMode', () => handlers.onMode?.(next));
  };

  const emit = (raw: DataTrade | RtdsTrade) => {
    if (mode === 'closed') return;
    const from = since.get(raw.proxyWallet.toLowerCase());
    if (from === undefined || raw.timestamp < from) return;
    const key = followedTradeKey(raw);
    if (seen.has(key)) return;
    let trade: FollowedTrade;
    try {
      trade = toFollowedTrade(raw);
    } catch (error) {
      tellError(error);
      return;
    }
    remember(key);
    safely('onTrade', () => handlers.onTrade?.(trade));
  };

  const remember = (key: string) => {
    seen.add(key);
    if (seen.size > SEEN_WINDOW) seen.delete(seen.values().next().value as string);
  };

  const takeBaseline = (wallet: string) => {
    const from = since.get(wallet)!;
    baselines.set(
      wallet,
      options
        .pollTrades(wallet)
        .then((trades) => {
          for (const t of trades) if (t.timestamp <= from) remember(followedTradeKey(t));
        })
        // Unread, the second's trades count as new: the follow goes on.
        .catch(tellError),
    );
  };

  /** Every followed wallet's trades since it was followed, oldest first, each wallet read in turn. */
  const pollAll = async () => {
    if (polling) return;
    polling = true;
    try {
      await Promise.all(baselines.values());
      for (const wallet of [...since.keys()]) {
        if (mode === 'closed') return;
        try {
          const trades = await options.pollTrades(wallet);
          for (const t of [...trades].reverse()) emit(t);
        } catch (error) {
          // One wallet's failed read is told; the others are still read, and the next round tries again.
          tellError(error);
        }
      }
    } finally {
      polling = false;
    }
  };

  const schedulePoll = () => {
    clearTimeout(pollTimer);
    pollTimer = setTimeout(() => {
      if (mode !== 'polling') return;
      void pollAll().then(() => mode === 'polling' && schedulePoll());
    }, pollMs);
  };

  const startPolling = () => {
    if (mode === 'closed') return;
    const was = mode;
    enter('polling');
    if (was !== 'polling') void pollAll().then(() => mode === 'polling' && schedulePoll());
    if (options.rtdsUrl) {
      clearTimeout(retryTimer);
      retryTimer = setTimeout(openLive, rtdsRetryMs);
    }
  };

  const openLive = () => {
    if (mode === 'closed' || !options.rtdsUrl) return;
    rtds = new RtdsStream({
      url: options.rtdsUrl,
      // The feed has no filter by wallet: every trade comes, and the followed wallets' are kept.
      subscriptions: [{ topic: 'activity', type: 'orders_matched' }],
      logger,
      WebSocket: options.WebSocket,
      pingMs: options.timing?.pingMs,
      openTimeoutMs: options.timing?.rtdsOpenTimeoutMs,
      handlers: {
        onOpen: () => {
          clearTimeout(pollTimer);
          enter('live');
          // What happened while connecting or polling: read once, so coming back leaves no gap (duplicates drop).
          void pollAll();
        },
        onTrade: (trade) => emit(trade),
        onError: (error) => tellError(error),
        onClose: ({ byCaller }) => {
          if (byCaller || mode === 'closed') return;
          logger.warn('real-time trades unavailable; polling the followed traders on the Data API');
          startPolling();
        },
      },
    });
  };

  for (const wallet of since.keys()) takeBaseline(wallet);
  if (options.rtdsUrl) openLive();
  else startPolling();

  return {
    get mode() {
      return mode;
    },
    setWallets(wallets) {
      const next = followedWallets(wallets);
      const at = nowS();
      for (const w of [...since.keys()])
        if (!next.includes(w)) {
          since.delete(w);
          baselines.delete(w);
        }
      for (const w of next)
        if (!since.has(w)) {
          since.set(w, at);
          takeBaseline(w);
        }
    },
    close() {
      if (mode === 'closed') return;
      enter('closed');
      clearTimeout(pollTimer);
      clearTimeout(retryTimer);
      rtds?.close();
    },
  };
}
