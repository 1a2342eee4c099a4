// The order ticket (owned by the ticket work).
export function OrderTicket() {
  return <div className="panel" data-testid="order-ticket" />;
}
