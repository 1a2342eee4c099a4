// The chosen market: header and rules, outcomes, chart, ladder and tape (owned by the market-view work).
export function MarketView() {
  return (
    <div className="panel market-view">
      <div data-testid="price-chart" />
      <div data-testid="order-book" />
      <div data-testid="trade-tape" />
    </div>
  );
}
