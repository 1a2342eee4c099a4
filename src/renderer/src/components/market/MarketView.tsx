// One tile's market: its header and outcomes, then the chart (or its discussion and rules), and the order-book
// ladder beside the trade tape (in a narrow tile, the two as tabs: see market.css). It follows the tile's market: a new one is loaded and followed into the tile's
// own store, the previous one let go; the panels inside read that store through MarketStoreContext.
import { memo, useEffect, useMemo, useState } from 'react';
import { followMarket, MarketStoreContext, marketStoreFor, useMarket } from '../../store/market';
import { useSession } from '../../store/session';
import { tileOf, useWorkspaces } from '../../store/workspaces';
import { MarketHeader, Outcomes } from './MarketHeader';
import { OrderBookLadder } from './OrderBookLadder';
import { TradeTape } from './TradeTape';
import { PriceChart } from './PriceChart';
import { Discussion, Rules } from './Discussion';
import { HoldersSection } from '../traders/HoldersSection';
import './market.css';

type Tab = 'chart' | 'discussion' | 'rules' | 'holders';
/** Which of the ladder and the tape a tile too narrow for both shows. */
type Lower = 'book' | 'trades';

/** Memoised: resizing or moving tiles changes their boxes, not what each tile shows. */
export const MarketView = memo(function MarketView({ tileId }: { tileId: string }) {
  const inTile = useMemo(() => ({ tileId, store: marketStoreFor(tileId) }), [tileId]);
  return (
    <MarketStoreContext.Provider value={inTile}>
      <TileMarketView tileId={tileId} />
    </MarketStoreContext.Provider>
  );
});

function TileMarketView({ tileId }: { tileId: string }) {
  const selected = useWorkspaces((s) => tileOf(tileId, s)?.market ?? null);
  const protocol = selected?.protocol;
  const marketId = selected?.marketId;
  const eventId = selected?.eventId;
  const [tab, setTab] = useState<Tab>('chart');
  const [lower, setLower] = useState<Lower>('book');
  const commentCount = useMarket((s) => s.comments?.length);
  // Another network: the tile's market is read and followed again there (or says it cannot be loaded).
  const network = useSession((s) => s.network?.name ?? null);

  useEffect(
    () =>
      network === null ? () => {} : followMarket(tileId, protocol && marketId ? { protocol, marketId, eventId } : null),
    [tileId, protocol, marketId, eventId, network],
  );

  if (!selected) {
    return (
      <div className="panel market-view" data-testid="market-view">
        <div className="empty">Pick a market in the list to see its book, trades and chart.</div>
      </div>
    );
  }
  const tabButton = (id: Tab, label: string) => (
    <button
      type="button"
      role="tab"
      aria-selected={tab === id}
      data-testid={`market-tab-${id}`}
      onClick={() => setTab(id)}
    >
      {label}
    </button>
  );
  return (
    <div className="panel market-view" data-testid="market-view">
      <MarketHeader />
      <Outcomes />
      <div className="tabs" role="tablist">
        {tabButton('chart', 'Chart')}
        {tabButton('discussion', commentCount === undefined ? 'Discussion' : `Discussion (${commentCount})`)}
        {tabButton('rules', 'Rules')}
        {tabButton('holders', 'Holders')}
      </div>
      <div className="market-upper">
        {tab === 'chart' && <PriceChart />}
        {tab === 'discussion' && <Discussion />}
        {tab === 'rules' && <Rules />}
        {tab === 'holders' && protocol && marketId ? <HoldersSection protocol={protocol} marketId={marketId} /> : null}
      </div>
      {/* Shown only in a tile too narrow for the ladder and the tape side by side (market.css). */}
      <div className="tabs lower-tabs" role="tablist" aria-label="Order book or trades">
        <button
          type="button"
          role="tab"
          aria-selected={lower === 'book'}
          data-testid="lower-tab-book"
          onClick={() => setLower('book')}
        >
          Order book
        </button>
        <button
          type="button"
          role="tab"
          aria-selected={lower === 'trades'}
          data-testid="lower-tab-trades"
          onClick={() => setLower('trades')}
        >
          Trades
        </button>
      </div>
      <div className="market-lower" data-shows={lower}>
        <OrderBookLadder />
        <TradeTape />
      </div>
    </div>
  );
}
