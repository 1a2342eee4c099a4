// A trader's name (or short address) that opens their profile: in the tape, the discussion and positions.
import { openTraderProfile } from '../../store/profile';
import './profile.css';
import { shortTrader } from '../../model/market';

/** Name or "0x1234…abcd", the full address on hover; a click opens the profile. No address: a dash. */
export function TraderLink({
  address,
  name,
  className,
}: {
  address: string | null | undefined;
  name?: string | null;
  className?: string;
}) {
  if (!address) return <span className={`muted${className ? ` ${className}` : ''}`}>{name || '—'}</span>;
  const label = name || shortTrader(address);
  return (
    <button
      type="button"
      className={`trader-link${className ? ` ${className}` : ''}`}
      data-trader={address}
      title={`${name ? `${name} · ` : ''}${address}: open this trader's profile`}
      onClick={() => openTraderProfile(address, name ?? undefined)}
    >
      {label}
    </button>
  );
}
