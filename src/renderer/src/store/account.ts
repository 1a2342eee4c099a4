// The active wallet's account: open orders, trades (pending until CONFIRMED), positions and balances. The
// account panel fills it (and follows `account` events); the ladder reads `openOrders` to mark own orders.
// Following a wallet: `watchAccount` pushes orders and trades live; where main cannot (the operation is not
// available), they are read again every few seconds and after each place or cancel. Positions and balances
// come from the chain and the network's market-data source: they are read again whenever a trade appears or
// changes status.
import { create } from 'zustand';
import type {
  Balances,
  FeedState,
  MarketStateInfo,
  OpenOrder,
  PositionInfo,
  TradeInfo,
} from '../../../shared/contract';
import { ask, listen, messageOf } from '../bridge/terminal';
import { onNextFrame } from '../live/frame';
import { tradesSignature } from '../model/account-math';
import { useSelection } from './selection';
import { holdMarketState } from './market';

/** How often orders and trades are read again when main cannot push them. */
export const ACCOUNT_POLL_MS = 3_000;

/** An outcome the trader has looked at, so tables can say "Yes · Bitcoin above $120k" instead of a token id. */
export interface OutcomeName {
  outcome: string;
  market: string;
  marketId: string;
}

export interface AccountState {
  wallet: string | null;
  openOrders: OpenOrder[];
  trades: TradeInfo[];
  positions: PositionInfo[];
  balances: Balances | null;
  /** `live`: main pushes `account` events; `polling`: read every few seconds; `idle`: no wallet. */
  source: 'live' | 'polling' | 'idle';
  feedState: FeedState | null;
  /** Orders and trades were read at least once for this wallet. */
  loaded: boolean;
  /** Positions, and balances, were read at least once for this wallet on this network. */
  positionsLoaded: boolean;
  balancesLoaded: boolean;
  /** The last read's failure, as main said it (cleared by the next success). */
  ordersError: string | null;
  positionsError: string | null;
  balancesError: string | null;
  /** The exchange's cancels the trader did not click (the dead-man switch…), latest last, as main told them. */
  unaskedCancels: { message: string; at: number }[];
  /** By token id. */
  outcomeNames: Record<string, OutcomeName>;
  set(patch: Partial<Omit<AccountState, 'set'>>): void;
}

const EMPTY = {
  openOrders: [],
  trades: [],
  positions: [],
  balances: null,
  loaded: false,
  positionsLoaded: false,
  balancesLoaded: false,
  ordersError: null,
  positionsError: null,
  balancesError: null,
  feedState: null,
  unaskedCancels: [],
};

/**
 * Which following this is: a network switch (or another wallet) follows again, and a read still on its way from
 * before lands on nothing — the same wallet label on another network is another account's data.
 */
let following = 0;

export const useAccount = create<AccountState>()((set) => ({
  wallet: null,
  ...EMPTY,
  source: 'idle',
  outcomeNames: {},
  set: (patch) => set(patch),
}));

/** Names the outcomes of a market the terminal has loaded (the ticket does, for the selected market). */
export function nameOutcomes(marketId: string, market: string, outcomes: { tokenId: string; name: string }[]): void {
  useAccount.setState((s) => {
    const names = { ...s.outcomeNames };
    for (const o of outcomes) names[o.tokenId] = { outcome: o.name, market, marketId };
    return { outcomeNames: names };
  });
}

/** A read started now lands only if the same wallet is still followed by the same following (same network). */
function reader(wallet: string): () => boolean {
  const at = following;
  return () => at === following && useAccount.getState().wallet === wallet;
}

/** Applies trades; a new trade or a changed status means positions and balances moved: read them again. */
function applyOrdersAndTrades(
  wallet: string,
  openOrders: OpenOrder[],
  trades: TradeInfo[],
  still: () => boolean,
): void {
  if (!still()) return;
  const before = useAccount.getState();
  const changed = before.loaded && tradesSignature(before.trades) !== tradesSignature(trades);
  nameFromHoldings([], trades);
  useAccount.setState({
    openOrders,
    trades: [...trades].sort((a, b) => b.matchedAt - a.matchedAt),
    loaded: true,
    ordersError: null,
  });
  if (changed) void refreshHoldings(wallet);
}

export async function refreshOrdersAndTrades(wallet = useAccount.getState().wallet): Promise<void> {
  if (!wallet) return;
  const still = reader(wallet);
  try {
    const [openOrders, trades] = await Promise.all([ask('listOpenOrders', { wallet }), ask('listTrades', { wallet })]);
    applyOrdersAndTrades(wallet, openOrders, trades, still);
  } catch (error) {
    if (still()) useAccount.setState({ ordersError: `Orders and trades could not be read: ${messageOf(error)}` });
  }
}

/** The most position markets whose state is followed at once (the rest are read again with the positions). */
const MAX_POSITION_MARKETS = 50;

/** By market id: what each resolved market's outcomes pay, as main pushed it (the source may say so later). */
const resolvedMarkets = new Map<string, { conditionId: string | null; finalPrices: Record<string, number> }>();
/** By market id: the position markets whose state this window follows, and how to let go of each. */
const followedStates = new Map<string, () => void>();

/**
 * Positions as the chain says now: a market main saw resolve pays its final price (Won or Lost at once), even
 * while the positions' source still lists it as trading.
 */
function withResolutions(positions: readonly PositionInfo[]): PositionInfo[] {
  return positions.map((p) => {
    const resolved = p.marketId
      ? resolvedMarkets.get(p.marketId)
      : [...resolvedMarkets.values()].find((r) => r.conditionId && r.conditionId === p.conditionId);
    const payout = resolved && p.tokenId ? resolved.finalPrices[p.tokenId] : undefined;
    if (payout === undefined || (p.redeemable && p.currentPrice === payout)) return p;
    return { ...p, redeemable: true, currentPrice: payout, currentValue: p.size * payout };
  });
}

function applyMarketState(info: MarketStateInfo): void {
  if (info.state !== 'resolved' || !info.finalPrices) return;
  resolvedMarkets.set(info.marketId, { conditionId: info.market.conditionId ?? null, finalPrices: info.finalPrices });
  const { positions, wallet } = useAccount.getState();
  const next = withResolutions(positions);
  if (next.some((p, i) => p !== positions[i])) {
    useAccount.setState({ positions: next });
    // The source's own word, and the balances, follow.
    void refreshHoldings(wallet);
  }
}

/** Follows the state of every open position's market, so a resolution shows without a tab switch. */
function followPositionMarkets(positions: readonly PositionInfo[]): void {
  const wanted = new Set(
    positions
      .filter((p) => p.marketId && !p.redeemable)
      .map((p) => p.marketId!)
      .slice(0, MAX_POSITION_MARKETS),
  );
  for (const [marketId, release] of followedStates) {
    if (wanted.has(marketId)) continue;
    release();
    followedStates.delete(marketId);
  }
  for (const marketId of wanted) {
    if (followedStates.has(marketId)) continue;
    const held = holdMarketState('polymarket', marketId);
    followedStates.set(marketId, held.release);
    void held.state.then(applyMarketState).catch(() => undefined);
  }
}

function releasePositionMarkets(): void {
  for (const release of followedStates.values()) release();
  followedStates.clear();
}

/** The most tokens one balances read names (the contract's bound). */
const MAX_TOKENS_READ = 150;

/** Names what positions and trades name themselves ("Yes" of "Bitcoin above $120k?"), for every table. */
function nameFromHoldings(positions: readonly PositionInfo[], trades: readonly TradeInfo[]): void {
  const found: Record<string, OutcomeName> = {};
  for (const p of positions)
    if (p.tokenId && p.question)
      found[p.tokenId] = { outcome: p.outcome, market: p.question, marketId: p.marketId ?? p.conditionId ?? '' };
  for (const t of trades)
    if (t.outcome && t.question && !found[t.tokenId])
      found[t.tokenId] = { outcome: t.outcome, market: t.question, marketId: t.conditionId };
  const names = useAccount.getState().outcomeNames;
  const fresh = Object.entries(found).filter(
    ([token, n]) => names[token]?.market !== n.market || names[token]?.outcome !== n.outcome,
  );
  if (fresh.length > 0)
    useAccount.setState((s) => ({ outcomeNames: { ...s.outcomeNames, ...Object.fromEntries(fresh) } }));
}

/**
 * Positions, then balances: collateral, the selected market's outcome tokens (the ticket's SELL side needs them)
 * and every token a position names, read from the chain (the Balances tab lists every holding).
 */
export async function refreshHoldings(
  wallet = useAccount.getState().wallet,
  marketId = useSelection.getState().market?.marketId,
): Promise<void> {
  if (!wallet) return;
  const still = reader(wallet);
  // Each says on its own what could not be read: positions that fail leave the balances read (and the other way round).
  let positions: PositionInfo[] | undefined;
  try {
    positions = await ask('getPositions', { wallet });
    if (still()) {
      nameFromHoldings(positions, useAccount.getState().trades);
      useAccount.setState({ positions: withResolutions(positions), positionsLoaded: true, positionsError: null });
      followPositionMarkets(positions);
    }
  } catch (error) {
    if (still()) useAccount.setState({ positionsError: `Positions could not be read: ${messageOf(error)}` });
  }
  if (!still()) return;
  const held = positions ?? useAccount.getState().positions;
  const tokenIds = [
    ...new Set(held.flatMap((p) => (p.tokenId && /^\d{1,80}$/.test(p.tokenId) ? [p.tokenId] : []))),
  ].slice(0, MAX_TOKENS_READ);
  try {
    const balances = await ask('getBalances', {
      wallet,
      ...(marketId ? { marketId } : {}),
      ...(tokenIds.length ? { tokenIds } : {}),
    });
    if (still()) useAccount.setState({ balances, balancesLoaded: true, balancesError: null });
  } catch (error) {
    if (still()) useAccount.setState({ balancesError: `Balances could not be read: ${messageOf(error)}` });
  }
}

/** Everything again: after a place or a cancel, and at start. */
export async function refreshAccount(wallet = useAccount.getState().wallet): Promise<void> {
  await Promise.all([refreshOrdersAndTrades(wallet), refreshHoldings(wallet)]);
}

/** Follows one wallet until the returned function is called (the account panel does, for the active wallet). */
export function followAccount(wallet: string): () => void {
  following += 1;
  const still = reader(wallet);
  // Nothing of the previous following stays: not its positions' resolutions, not the markets it followed.
  releasePositionMarkets();
  resolvedMarkets.clear();
  useAccount.setState({ wallet, ...EMPTY, source: 'polling' });
  let stopped = false;
  let poll: ReturnType<typeof setInterval> | undefined;
  let watching = false;

  const offState = listen('marketState', applyMarketState);
  const offAccount = listen('account', (update) => {
    if (update.wallet !== wallet) return;
    // Sent whole on each change: the latest of a frame is all that matters.
    onNextFrame(`account:${wallet}`, () => {
      if (!still()) return;
      useAccount.setState({ feedState: update.state });
      applyOrdersAndTrades(wallet, update.openOrders, update.trades, still);
    });
  });
  // Cancels nobody clicked here get a line in the account row, besides the shell's toast.
  const offNotice = listen('notice', (notice) => {
    if (notice.kind !== 'cancelled' || notice.wallet?.toLowerCase() !== wallet.toLowerCase()) return;
    useAccount.setState((s) => ({
      unaskedCancels: [...s.unaskedCancels, { message: notice.message, at: Date.now() }].slice(-5),
    }));
    void refreshOrdersAndTrades(wallet);
  });
  // An order placed or cancelled in another window (or through this one) changes what is open.
  let again: ReturnType<typeof setTimeout> | undefined;
  const offOrder = listen('orderUpdate', (update) => {
    if (update.wallet !== wallet || watching) return;
    clearTimeout(again);
    again = setTimeout(() => void refreshOrdersAndTrades(wallet), 150);
  });

  void refreshAccount(wallet);
  ask('watchAccount', { wallet })
    .then((answer) => {
      if (stopped) return void ask('unwatchAccount', { wallet }).catch(() => undefined);
      watching = true;
      useAccount.setState({ source: 'live', feedState: answer.state });
    })
    .catch(() => {
      // Not available in this session (or the wallet cannot be followed live): read it every few seconds.
      if (stopped) return;
      poll = setInterval(() => void refreshOrdersAndTrades(wallet), ACCOUNT_POLL_MS);
    });

  return () => {
    stopped = true;
    offState();
    releasePositionMarkets();
    offAccount();
    offOrder();
    offNotice();
    clearTimeout(again);
    clearInterval(poll);
    if (watching) void ask('unwatchAccount', { wallet }).catch(() => undefined);
    if (still()) useAccount.setState({ wallet: null, ...EMPTY, source: 'idle' });
  };
}
