// Any trader's profile, as a trader checks someone before following them: who they are (name, address to
// copy, the stats the source states), their positions and their recent activity. Opened from the tape, a
// discussion, a position, or by typing or pasting an address; whatever was shown goes the moment the address
// changes (store/profile.ts), and loading and failures are said in words.
import { useEffect, useState } from 'react';
import type { Trader, TraderPosition } from '@pmdesk/toolkit/model';
import { reloadProfile, setProfileAddress, useProfile, type Read } from '../../store/profile';
import { ProfileActivity, ProfilePositions } from './ProfileTables';
import { TraderLink } from './TraderLink';
import { FollowButton, useFollowedTraders } from './FollowButton';
import { PortfolioView } from '../portfolio/PortfolioView';
import './profile.css';
import { formatUsd } from '../../format/numbers';

type Section = 'positions' | 'activity' | 'portfolio';
const SECTION_NAMES: Record<Section, string> = { positions: 'Positions', activity: 'Activity', portfolio: 'Portfolio' };
const NOT_STATED = 'This source does not state it.';

export function TraderProfile() {
  const address = useProfile((s) => s.address);
  const invalid = useProfile((s) => s.invalid);
  const loadedFor = useProfile((s) => s.loadedFor);
  const [section, setSection] = useState<Section>('positions');
  const trimmed = address.trim();
  const whyNot = !trimmed ? 'Type an address.' : invalid;

  return (
    <div className="account-tab trader-profile" data-testid="trader-lookup" data-address={loadedFor ?? ''}>
      <form
        className="account-actions"
        onSubmit={(e) => {
          e.preventDefault();
          if (!whyNot) reloadProfile();
        }}
      >
        <input
          aria-label="Trader address"
          data-testid="trader-address"
          placeholder="0x… trader address"
          value={address}
          onChange={(e) => setProfileAddress(e.target.value)}
          spellCheck={false}
          aria-invalid={invalid ? true : undefined}
        />
        <button
          type="submit"
          data-testid="trader-lookup-submit"
          disabled={!!whyNot}
          title={whyNot ?? "Read this trader's profile, positions and activity"}
        >
          Look up
        </button>
      </form>
      {invalid ? (
        <div className="error-text profile-note" role="alert" data-testid="profile-invalid">
          {invalid}
        </div>
      ) : null}
      {!trimmed ? (
        <div className="empty">Type or paste a trader’s address, or click a trader in the tape or a discussion.</div>
      ) : null}
      {loadedFor ? (
        <>
          <ProfileHeader address={loadedFor} />
          <div className="tabs profile-sections" role="tablist" aria-label="Trader profile">
            {(['positions', 'activity', 'portfolio'] as const).map((id) => (
              <button
                key={id}
                type="button"
                role="tab"
                aria-selected={section === id}
                data-testid={`profile-tab-${id}`}
                onClick={() => setSection(id)}
              >
                {SECTION_NAMES[id]}
              </button>
            ))}
          </div>
          {section === 'positions' ? <PositionsSection /> : null}
          {section === 'activity' ? <ActivitySection /> : null}
          {section === 'portfolio' ? <PortfolioView owner={{ address: loadedFor }} /> : null}
        </>
      ) : null}
    </div>
  );
}

function ProfileHeader({ address }: { address: string }) {
  const trader = useProfile((s) => s.trader);
  const positions = useProfile((s) => s.positions);
  const knownName = useProfile((s) => s.knownName);
  const found = trader?.state === 'done' ? trader.value : null;
  const name =
    found?.user.name ||
    found?.user.pseudonym ||
    knownName ||
    (trader?.state === 'loading' ? 'Loading the profile…' : 'No public profile');
  const wallet = found?.user.tradingWallet;
  useFollowedTraders();
  return (
    <div className="profile-header" data-testid="profile-header" data-state={trader?.state ?? 'none'}>
      <span className="profile-name" data-testid="profile-name">
        {name}
      </span>
      <span className="profile-address" title={address}>
        {address}
        <CopyButton text={address} />
        <FollowButton address={address} name={found?.user.name || found?.user.pseudonym || knownName || ''} />
      </span>
      {/* A key whose Polymarket profile trades from another wallet (its proxy, Safe or deposit wallet): that
          wallet is a click away, and the source's stats are its. The positions below are this address's own. */}
      {wallet && wallet.toLowerCase() !== address.toLowerCase() ? (
        <span
          className="muted"
          data-testid="profile-wallet"
          title="This address's Polymarket profile trades from this wallet; the stats are that wallet's"
        >
          profile wallet <TraderLink address={wallet} />
        </span>
      ) : null}
      {trader?.state === 'failed' ? (
        <span className="error-text" data-testid="profile-error">
          The profile could not be read: {trader.message}
        </span>
      ) : (
        <Stats trader={found} positions={positions} />
      )}
    </div>
  );
}

/** The stats the source states; PnL falls back to the open positions' when the source gives no lifetime figure. */
function Stats({ trader, positions }: { trader: Trader | null; positions: Read<TraderPosition[]> | null }) {
  const stats = trader?.stats;
  const money = (value: number | null | undefined) => (typeof value === 'number' ? formatUsd(value) : null);
  const open =
    positions?.state === 'done'
      ? positions.value.reduce((sum, p) => (typeof p.cashPnl === 'number' ? sum + p.cashPnl : sum), 0)
      : null;
  const lifetime = typeof stats?.cumulativeProfit === 'number' ? stats.cumulativeProfit : null;
  const pnl =
    lifetime ??
    (positions?.state === 'done' && positions.value.some((p) => typeof p.cashPnl === 'number') ? open : null);
  const items: { key: string; label: string; value: string | null; title?: string; tone?: string }[] = [
    {
      key: 'value',
      label: 'Portfolio value',
      value: money(stats?.portfolioValue),
      title: 'What the open positions are worth now',
    },
    { key: 'volume', label: 'Volume', value: money(stats?.cumulativeVolume), title: 'Dollars traded, lifetime' },
    {
      key: 'pnl',
      label: lifetime === null && pnl !== null ? 'Open PnL' : 'PnL',
      value: pnl === null ? null : `${pnl >= 0 ? '+' : '−'}${formatUsd(Math.abs(pnl))}`,
      title:
        lifetime !== null
          ? 'Profit and loss, lifetime'
          : "The open positions' PnL: this source states no lifetime profit",
      tone: pnl === null ? undefined : pnl >= 0 ? 'bid' : 'ask',
    },
    {
      key: 'markets',
      label: 'Markets traded',
      value: typeof stats?.marketsTraded === 'number' ? String(stats.marketsTraded) : null,
    },
  ];
  if (!trader) return null;
  return (
    <dl className="profile-stats" data-testid="profile-stats">
      {items.map((item) => (
        <div key={item.key} data-stat={item.key}>
          <dt title={item.title}>{item.label}</dt>
          <dd
            className={item.value === null ? 'muted' : item.tone}
            title={item.value === null ? NOT_STATED : item.title}
          >
            {item.value ?? '—'}
          </dd>
        </div>
      ))}
    </dl>
  );
}

function CopyButton({ text }: { text: string }) {
  const [copied, setCopied] = useState<'yes' | 'failed' | null>(null);
  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(null), 1500);
    return () => clearTimeout(timer);
  }, [copied]);
  return (
    <button
      type="button"
      data-testid="profile-copy-address"
      title="Copy the address"
      onClick={() => {
        navigator.clipboard.writeText(text).then(
          () => setCopied('yes'),
          () => setCopied('failed'),
        );
      }}
    >
      {copied === 'yes' ? 'Copied' : copied === 'failed' ? 'Could not copy' : 'Copy'}
    </button>
  );
}

function PositionsSection() {
  const positions = useProfile((s) => s.positions);
  if (!positions || positions.state === 'loading') return <div className="empty">Loading the positions…</div>;
  if (positions.state === 'failed') return <Failed read={positions} what="positions" />;
  if (positions.value.length === 0) return <div className="empty">This trader holds no positions.</div>;
  return <ProfilePositions positions={positions.value} />;
}

function ActivitySection() {
  const activity = useProfile((s) => s.activity);
  if (!activity || activity.state === 'loading') return <div className="empty">Loading the activity…</div>;
  if (activity.state === 'failed') return <Failed read={activity} what="activity" />;
  if (activity.value.length === 0) return <div className="empty">No activity yet.</div>;
  return <ProfileActivity activity={activity.value} />;
}

/** A read that failed says so with main's sentence; one the source does not have at all is said plainly. */
function Failed({ read, what }: { read: { message: string; unavailable?: true }; what: string }) {
  if (read.unavailable)
    return (
      <div className="empty" data-testid="profile-unavailable">
        {read.message}
      </div>
    );
  return (
    <div className="empty error-text">
      The {what} could not be read: {read.message}
    </div>
  );
}
