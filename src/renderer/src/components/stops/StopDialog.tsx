// The stop dialog: a client-side stop-loss or take-profit on a position of the active wallet. It says plainly that
// the stop runs only while PM Desk is open, that it watches the best bid (what a market sell fills at) and that
// it sells once, through the normal order checks. Opened by openStopDialog(position) (store/stops.ts).
import { useState } from 'react';
import { useDialogEscape } from '../../keys/keyboard';
import { RUNS_ONLY_WHILE_OPEN, closeStopDialog, createStop, useStops } from '../../store/stops';
import { useMarket } from '../../store/market';
import { useSession } from '../../store/session';

const price = (cents: string) => Number((Number(cents) / 100).toFixed(6));

export function StopDialogHost() {
  const subject = useStops((s) => s.dialog);
  return subject ? <StopDialog key={`${subject.marketId}:${subject.tokenId}`} /> : null;
}

function StopDialog() {
  const subject = useStops((s) => s.dialog)!;
  const wallet = useSession((s) => s.activeWallet);
  const market = useMarket((s) => (s.market?.id === subject.marketId ? s.market : null));
  const [tokenId, setTokenId] = useState(subject.tokenId);
  const [kind, setKind] = useState<'stop-loss' | 'take-profit'>('stop-loss');
  const [level, setLevel] = useState('');
  const [size, setSize] = useState(subject.size ? String(subject.size) : '');
  const [worst, setWorst] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  useDialogEscape('Close the stop dialog', closeStopDialog);
  const outcome =
    market?.position_tokens.find((t) => t.token_id === tokenId)?.name ?? subject.outcome ?? 'this outcome';
  const levelOk = Number(level) > 0 && Number(level) < 100;

  const submit = async () => {
    if (!wallet || !levelOk) return;
    setBusy(true);
    const failed = await createStop({
      wallet,
      protocol: subject.protocol ?? 'polymarket',
      marketId: subject.marketId,
      tokenId,
      kind,
      level: price(level),
      ...(size.trim() ? { size: Number(size) } : {}),
      ...(worst.trim() ? { worstPrice: price(worst) } : {}),
    });
    setBusy(false);
    if (failed) setError(failed);
    else closeStopDialog();
  };

  return (
    <div className="dialog-backdrop" onMouseDown={(e) => e.target === e.currentTarget && closeStopDialog()}>
      <form
        className="dialog"
        role="dialog"
        aria-modal="true"
        aria-labelledby="stop-dialog-title"
        data-testid="stop-dialog"
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
      >
        <h2 id="stop-dialog-title">
          Stop on {outcome}
          {subject.market || market ? ` · ${subject.market ?? market?.name}` : ''}
        </h2>
        <div className="stop-label" data-testid="stop-dialog-runs-only">
          {RUNS_ONLY_WHILE_OPEN}: it is not an order on the exchange. Closed, PM Desk sells nothing; it re-arms the stop
          when it starts again.
        </div>
        {market && market.position_tokens.length > 1 ? (
          <label className="row">
            Outcome
            <select aria-label="Outcome" value={tokenId} onChange={(e) => setTokenId(e.target.value)}>
              {market.position_tokens.map((t) => (
                <option key={t.token_id} value={t.token_id}>
                  {t.name}
                </option>
              ))}
            </select>
          </label>
        ) : null}
        <label className="row">
          Kind
          <select
            aria-label="Stop kind"
            data-testid="stop-kind"
            value={kind}
            onChange={(e) => setKind(e.target.value as typeof kind)}
          >
            <option value="stop-loss">Stop-loss: sell when the best bid falls to</option>
            <option value="take-profit">Take-profit: sell when the best bid rises to</option>
          </select>
        </label>
        <label className="row">
          Level
          <input
            aria-label="Level in cents"
            data-testid="stop-level"
            inputMode="decimal"
            value={level}
            onChange={(e) => setLevel(e.target.value)}
            autoFocus
          />
          ¢
        </label>
        <label className="row">
          Shares
          <input
            aria-label="Shares"
            data-testid="stop-size"
            inputMode="decimal"
            placeholder="whole position"
            value={size}
            onChange={(e) => setSize(e.target.value)}
          />
        </label>
        <label className="row">
          Worst price
          <input
            aria-label="Worst price in cents"
            data-testid="stop-worst"
            inputMode="decimal"
            placeholder="any bid"
            value={worst}
            onChange={(e) => setWorst(e.target.value)}
          />
          ¢
        </label>
        <div className="muted">
          It watches the best bid, the price a market sell would fill at, and sells once: a fill-and-kill sell of the
          shares held (never more), through every check an order from the ticket goes through. A locked wallet at that
          moment: it says so and stays armed until it can sell.
        </div>
        {!wallet ? <div className="error-text">Choose a wallet first.</div> : null}
        {error ? (
          <div className="error-text" data-testid="stop-error">
            {error}
          </div>
        ) : null}
        <div className="row dialog-actions">
          <button type="button" onClick={closeStopDialog}>
            Cancel (Esc)
          </button>
          <button type="submit" className="sell" data-testid="stop-arm" disabled={!wallet || !levelOk || busy}>
            Arm {kind === 'stop-loss' ? 'stop-loss' : 'take-profit'}
          </button>
        </div>
      </form>
    </div>
  );
}
