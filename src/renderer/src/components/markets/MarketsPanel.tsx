// Markets: the grid of events and markets, live search and the watchlist (owned by the markets work).
export function MarketsPanel() {
  return <div className="panel" data-testid="markets-grid" />;
}
