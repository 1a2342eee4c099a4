// The ticket's one line while the chosen market's book is unknown (its feed lost): why it cannot trade now.
import { useMarket } from '../../store/market';
import { cannotTradeLine } from '../../model/market';

export function BookUnknownLine() {
  const unknown = useMarket((s) => s.bookUnknown);
  if (!unknown) return null;
  return (
    <div className="warn" role="alert" data-testid="ticket-book-unknown">
      {cannotTradeLine(unknown)}
    </div>
  );
}
