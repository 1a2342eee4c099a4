// The ticket's "not enough pUSD" problem, answered: when the account's USDC.e covers what the order lacks, a Wrap
// button asks for the wrap dialog with that amount (rounded up to the cent), to be confirmed with its gas as any
// wrap. The dialog itself belongs to the ticket: this problem goes away as soon as the wrap is done.
import { useAccountFunds } from './Funds';

/** `needed`: the order's cost in dollars (main's preview); `onWrap` gets the amount as exact dollar text. */
export function WrapOffer({
  wallet,
  needed,
  onWrap,
}: {
  wallet: string;
  needed: number;
  onWrap(amount: string): void;
}) {
  const { funds } = useAccountFunds(wallet);
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
      <button
        type="button"
        data-testid="ticket-wrap"
        title={`The account holds ${funds.usdcE.text} of USDC.e: wrap $${amount} of it into pUSD`}
        onClick={() => onWrap(amount)}
      >
        Wrap ${amount} USDC.e
      </button>
    </>
  );
}
