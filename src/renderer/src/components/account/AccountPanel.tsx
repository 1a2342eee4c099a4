// Positions, open orders, trades and balances (owned by the account work).
export function AccountPanel() {
  return (
    <div className="panel account">
      <div data-testid="positions" />
      <div data-testid="open-orders" />
      <div data-testid="trades" />
    </div>
  );
}
