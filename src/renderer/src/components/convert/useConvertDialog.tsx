// One conversion dialog for a view: `open(eventId, fromMarketId?)` shows it for the wallet; after a conversion the
// account's balances, positions and orders are read again.
import { useState, type ReactNode } from 'react';
import { refreshAccount } from '../../store/account';
import { ConvertDialog } from './ConvertDialog';

export function useConvertDialog(wallet: string | null | undefined): {
  open(eventId: string, fromMarketId?: string): void;
  dialog: ReactNode;
} {
  const [asked, setAsked] = useState<{ eventId: string; fromMarketId?: string } | null>(null);
  return {
    open: (eventId, fromMarketId) => setAsked({ eventId, ...(fromMarketId ? { fromMarketId } : {}) }),
    dialog:
      asked && wallet ? (
        <ConvertDialog
          wallet={wallet}
          eventId={asked.eventId}
          fromMarketId={asked.fromMarketId}
          onClose={() => setAsked(null)}
          onDone={() => void refreshAccount(wallet)}
        />
      ) : null,
  };
}
