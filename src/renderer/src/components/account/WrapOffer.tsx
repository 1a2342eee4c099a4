// The ticket's "not enough pUSD" problem, answered: when the account's USDC.e covers what the order lacks, a Wrap
// button opens the wrap dialog with that amount (rounded up to the cent), to be confirmed with its gas as any wrap.
import { useState } from 'react';
import { refreshAccount } from '../../store/account';
import { useAccountFunds } from './Funds';
import { MoneyDialog } from './MoneyDialog';

/** `needed`: the order's cost in dollars (main's preview). */
export function WrapOffer({ wallet, needed }: { wallet: string; needed: number }) {
  const { funds, reload } = useAccountFunds(wallet);
  const [open, setOpen] = useState(false);
  if (!funds?.usdcE || funds.actionsUnavailable) return null;
  // Cents, rounded up: what the order lacks is never under-wrapped.
  const neededCents = BigInt(Math.ceil(needed * 100 - 1e-9));
  const haveCents = BigInt(funds.pusd.units) / 10_000n;
  const shortCents = neededCents - haveCents;
  if (shortCents <= 0n || BigInt(funds.usdcE.units) < shortCents * 10_000n) return null;
  const amount = `${shortCents / 100n}.${(shortCents % 100n).toString().padStart(2, '0')}`;
  return (
    <>
      {' '}
      <button type="button" data-testid="ticket-wrap" title={`The account holds ${funds.usdcE.text} of USDC.e: wrap $${amount} of it into pUSD`} onClick={() => setOpen(true)}>
        Wrap ${amount} USDC.e
      </button>
      {open ? (
        <MoneyDialog
          wallet={wallet}
          action="wrap"
          amount={amount}
          onClose={() => setOpen(false)}
          onDone={() => {
            reload();
            void refreshAccount(wallet);
          }}
        />
      ) : null}
    </>
  );
}
