// Converting No shares of a negative-risk event, asked of main in three steps: choose the outcomes whose No
// shares you give (only ones the account holds) and the size (capped at the smallest holding), then main's
// preview — exactly what is given and received, the account, the way it is sent and the gas — and only on Confirm
// the send, with its progress and a clear error. Exported with a small props interface: the market view, a
// position row and the event board open it alike.
import { useEffect, useState } from 'react';
import { ask, listen, messageOf } from '../../bridge/terminal';
import { useDialogEscape } from '../../keys/keyboard';
import type { ConversionChoices, ConversionDone, ConversionPreview } from '../../../../shared/contract';
import { shortAddress } from '../wallets/Dialog';
import { sharesUnits } from './shares';
import './convert.css';

export interface ConvertDialogProps {
  /** The wallet (label) whose account converts. */
  wallet: string;
  /** The negative-risk event: its id or slug. */
  eventId: string;
  /** An outcome's market id to choose at first (the position or market it was opened from). */
  fromMarketId?: string;
  onClose(): void;
  /** After a conversion went through: read balances and positions again. */
  onDone?(done: ConversionDone): void;
}

const KIND_WORDS = {
  eoa: 'the key itself',
  proxy: 'proxy wallet',
  safe: 'Safe',
  'deposit-wallet': 'deposit wallet',
} as const;

type Step =
  | { at: 'loading' }
  | { at: 'choose'; choices: ConversionChoices }
  | { at: 'previewing'; choices: ConversionChoices }
  | { at: 'confirm'; choices: ConversionChoices; preview: ConversionPreview }
  | { at: 'sending'; choices: ConversionChoices; preview: ConversionPreview }
  | { at: 'done'; done: ConversionDone }
  | { at: 'failed'; message: string; choices?: ConversionChoices; preview?: ConversionPreview };

export function ConvertDialog({ wallet, eventId, fromMarketId, onClose, onDone }: ConvertDialogProps) {
  const [step, setStep] = useState<Step>({ at: 'loading' });
  const [chosen, setChosen] = useState<number[]>([]);
  const [size, setSize] = useState('');
  const sending = step.at === 'sending';
  useDialogEscape('Close without sending', () => !sending && onClose());
  const [submitted, setSubmitted] = useState<string | null>(null);
  useEffect(() => {
    if (!sending) return undefined;
    setSubmitted(null);
    return listen('notice', (notice) => {
      if (notice.wallet === wallet && notice.message.startsWith("convert: submitted to Polymarket's relayer"))
        setSubmitted(notice.message.slice('convert: '.length));
    });
  }, [sending, wallet]);

  // The event and what the account holds, once when the dialog opens (another event opens another dialog).
  useEffect(() => {
    let live = true;
    ask('getConversionChoices', { wallet, eventId }).then(
      (choices) => {
        if (!live) return;
        const first = choices.outcomes.find((o) => o.marketId === fromMarketId && o.noHeld.units !== '0');
        if (first) setChosen([first.index]);
        setStep({ at: 'choose', choices });
      },
      (error: unknown) => live && setStep({ at: 'failed', message: messageOf(error) }),
    );
    return () => {
      live = false;
    };
  }, [wallet, eventId, fromMarketId]);

  const choices = 'choices' in step ? step.choices : undefined;
  const held = (index: number) => BigInt(choices?.outcomes.find((o) => o.index === index)?.noHeld.units ?? '0');
  const cap = chosen.length ? chosen.map(held).reduce((a, b) => (b < a ? b : a)) : 0n;
  const units = sharesUnits(size);
  const sizeProblem =
    size.trim() === ''
      ? null
      : units === null || units <= 0n
        ? 'A size is a positive number of shares with at most 6 decimals.'
        : units > cap
          ? `At most ${formatUnits(cap)} shares: the smallest No holding chosen.`
          : null;
  const ready = chosen.length > 0 && units !== null && units > 0n && units <= cap;
  const intent = () => ({ wallet, eventId, fromNo: [...chosen].sort((a, b) => a - b), size: size.trim() });

  const preview = async (of: ConversionChoices) => {
    setStep({ at: 'previewing', choices: of });
    try {
      setStep({ at: 'confirm', choices: of, preview: await ask('previewConversion', intent()) });
    } catch (error) {
      setStep({ at: 'failed', message: messageOf(error), choices: of });
    }
  };
  const send = async (of: ConversionChoices, shown: ConversionPreview) => {
    setStep({ at: 'sending', choices: of, preview: shown });
    try {
      const done = await ask('runConversion', intent());
      setStep({ at: 'done', done });
      onDone?.(done);
    } catch (error) {
      setStep({ at: 'failed', message: messageOf(error), choices: of, preview: shown });
    }
  };
  const toggle = (index: number) =>
    setChosen((now) => (now.includes(index) ? now.filter((i) => i !== index) : [...now, index]));
  const shown =
    step.at === 'confirm' || step.at === 'sending'
      ? step.preview
      : step.at === 'done'
        ? step.done
        : step.at === 'failed'
          ? step.preview
          : undefined;

  return (
    <div className="dialog-backdrop" onMouseDown={(e) => e.target === e.currentTarget && !sending && onClose()}>
      <div
        className="dialog money-dialog convert-dialog"
        role="dialog"
        aria-modal="true"
        aria-labelledby="convert-title"
        data-testid="convert-dialog"
      >
        <h2 id="convert-title">Convert No shares</h2>
        {choices ? <div className="muted">{choices.title}</div> : null}
        {step.at === 'loading' ? <div className="muted">Reading the event and your No shares…</div> : null}
        {step.at === 'choose' ? (
          <form
            className="col"
            onSubmit={(e) => {
              e.preventDefault();
              if (ready) void preview(step.choices);
            }}
          >
            <div className="muted">
              Give the same number of No shares of each outcome you tick; receive as many Yes shares of every other
              outcome, plus that many dollars for each outcome ticked after the first.
            </div>
            <table className="dense convert-outcomes" data-testid="convert-outcomes">
              <thead>
                <tr>
                  <th>Give No of</th>
                  <th className="num">No held</th>
                </tr>
              </thead>
              <tbody>
                {step.choices.outcomes.map((o) => {
                  const none = o.noHeld.units === '0';
                  return (
                    <tr key={o.index} data-testid="convert-outcome" data-index={o.index}>
                      <td>
                        <label title={none ? 'You hold no No shares of this outcome' : undefined}>
                          <input
                            type="checkbox"
                            data-testid="convert-choose"
                            checked={chosen.includes(o.index)}
                            disabled={none}
                            onChange={() => toggle(o.index)}
                          />{' '}
                          {o.name}
                        </label>
                      </td>
                      <td className="num">{o.noHeld.text}</td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
            <label className="col">
              No shares of each (at most {formatUnits(cap)})
              <span className="row">
                <input
                  data-testid="convert-size"
                  inputMode="decimal"
                  autoFocus
                  value={size}
                  onChange={(e) => setSize(e.target.value)}
                  placeholder="0"
                />
                <button
                  type="button"
                  data-testid="convert-max"
                  disabled={cap === 0n}
                  onClick={() => setSize(formatUnits(cap))}
                >
                  Max
                </button>
              </span>
            </label>
            {sizeProblem ? <div className="error-text">{sizeProblem}</div> : null}
            {step.choices.feeBips > 0 ? (
              <div className="muted">This event keeps a fee of {step.choices.feeBips / 100}% of what you receive.</div>
            ) : null}
            <div className="row dialog-actions">
              <button type="button" onClick={onClose}>
                Cancel (Esc)
              </button>
              <button type="submit" data-testid="convert-review" disabled={!ready}>
                Review
              </button>
            </div>
          </form>
        ) : null}
        {step.at === 'previewing' ? <div className="muted">Reading the chain and quoting the gas…</div> : null}
        {shown ? <Figures preview={shown} /> : null}
        {step.at === 'sending' ? (
          <div className="muted" role="status" data-testid="convert-progress">
            {step.preview.via === 'relayer'
              ? submitted
                ? `${submitted[0]!.toUpperCase()}${submitted.slice(1)}: waiting for it to be mined and confirmed…`
                : 'Submitting to Polymarket’s relayer, then waiting for it to be mined and confirmed…'
              : 'Sending from your key and waiting for it to be mined…'}
          </div>
        ) : null}
        {step.at === 'done' ? (
          <div className="bid" role="status" data-testid="convert-done">
            {step.done.relayer
              ? `${step.done.relayer.summary} (${step.done.relayer.state.replace('STATE_', '').toLowerCase()})`
              : `Converted and mined: ${step.done.txHashes.map((h) => shortAddress(h)).join(', ')}`}
          </div>
        ) : null}
        {step.at === 'failed' ? (
          <div className="error-text" role="alert" data-testid="convert-error">
            {step.message}
          </div>
        ) : null}
        {step.at !== 'choose' ? (
          <div className="row dialog-actions">
            <button type="button" disabled={sending} onClick={onClose}>
              {step.at === 'done' ? 'Close' : 'Cancel (Esc)'}
            </button>
            {step.at === 'failed' && step.choices ? (
              <button type="button" onClick={() => setStep({ at: 'choose', choices: step.choices! })}>
                Back
              </button>
            ) : null}
            {step.at === 'confirm' || step.at === 'sending' ? (
              <button
                type="button"
                className="buy"
                data-testid="convert-confirm"
                autoFocus
                disabled={sending}
                onClick={() => void send(step.choices, step.preview)}
              >
                {sending ? 'Converting…' : 'Confirm conversion'}
              </button>
            ) : null}
          </div>
        ) : null}
      </div>
    </div>
  );
}

/** Base units as shares ("12.5"): exact, never through a float. */
function formatUnits(units: bigint): string {
  const whole = units / 1_000_000n;
  const frac = (units % 1_000_000n).toString().padStart(6, '0').replace(/0+$/, '');
  return frac ? `${whole}.${frac}` : `${whole}`;
}

function Figures({ preview }: { preview: ConversionPreview }) {
  return (
    <>
      <div className="convert-sides">
        <div>
          <h3>You give</h3>
          <ul className="money-lines" data-testid="convert-given">
            {preview.given.map((g) => (
              <li key={g.index}>
                {g.shares.text} No of {g.outcome}
              </li>
            ))}
          </ul>
        </div>
        <div>
          <h3>You receive</h3>
          <ul className="money-lines" data-testid="convert-received">
            {preview.received.map((r) => (
              <li key={r.index}>
                {r.shares.text} Yes of {r.outcome}
              </li>
            ))}
            {preview.collateral.units !== '0' ? <li>{preview.collateral.text} pUSD</li> : null}
            {preview.received.length === 0 && preview.collateral.units === '0' ? <li>Nothing</li> : null}
          </ul>
        </div>
      </div>
      {preview.fee ? (
        <div className="muted" data-testid="convert-fee">
          Fee ({preview.fee.bips} bps): {preview.fee.shares.text} Yes shares and {preview.fee.collateral.text} pUSD
        </div>
      ) : null}
      <dl className="confirm-figures">
        <dt>As</dt>
        <dd title={preview.account}>
          {shortAddress(preview.account)} ({KIND_WORDS[preview.accountKind]})
        </dd>
        <dt>Sent</dt>
        <dd data-testid="convert-via" data-via={preview.via}>
          {preview.viaReason}
        </dd>
        {preview.via === 'key' ? (
          <>
            <dt>Gas, paid by key {shortAddress(preview.key)}</dt>
            <dd className="num">about {preview.gas.text}</dd>
            <dt>The key holds</dt>
            <dd className="num">{preview.keyGas.text}</dd>
          </>
        ) : null}
      </dl>
      {preview.note ? <div className="warn">{preview.note}</div> : null}
    </>
  );
}
