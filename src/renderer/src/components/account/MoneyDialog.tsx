// Wrap, unwrap, split, merge or redeem, asked of main in three steps: the amount (none for a redeem), then main's
// preview — the exact amounts, the account acting, which way it goes (Polymarket's relayer, no gas; or the key,
// with the gas and the key's POL) and why — and only on Confirm the send.
// Esc or Cancel closes it before anything is sent; a refusal (too little POL, not enough held) is shown as main says it.
import { useEffect, useState } from 'react';
import { ask, listen, messageOf } from '../../bridge/terminal';
import { useDialogEscape } from '../../keys/keyboard';
import type { MoneyAction, MoneyActionDone, MoneyActionPreview } from '../../../../shared/contract';
import { shortAddress } from '../wallets/Dialog';

export interface MoneyDialogProps {
  wallet: string;
  action: MoneyAction;
  /** Split, merge and redeem: the market (its slug or id) and its question. */
  marketId?: string;
  question?: string;
  /** The amount filled in at first (dollars, or shares for a merge). */
  amount?: string;
  onClose(): void;
  /** After a send went through: read balances and positions again. */
  onDone?(done: MoneyActionDone): void;
}

const TITLES: Record<MoneyAction, string> = {
  wrap: 'Wrap USDC.e into pUSD',
  unwrap: 'Unwrap pUSD into USDC.e',
  split: 'Split pUSD into complete sets',
  merge: 'Merge complete sets into pUSD',
  redeem: 'Redeem a resolved market',
};
const AMOUNT_WORDS: Record<MoneyAction, string> = {
  wrap: 'USDC.e to wrap ($)',
  unwrap: 'pUSD to unwrap ($)',
  split: 'pUSD to split ($)',
  merge: 'Sets to merge (shares)',
  redeem: '',
};
const KIND_WORDS = {
  eoa: 'the key itself',
  proxy: 'proxy wallet',
  safe: 'Safe',
  'deposit-wallet': 'deposit wallet',
} as const;
const AMOUNT = /^[0-9]{1,12}(\.[0-9]{1,6})?$/;

type Step =
  | { at: 'amount' }
  | { at: 'previewing' }
  | { at: 'confirm'; preview: MoneyActionPreview }
  | { at: 'sending'; preview: MoneyActionPreview }
  | { at: 'done'; done: MoneyActionDone }
  | { at: 'failed'; message: string; preview?: MoneyActionPreview };

export function MoneyDialog({
  wallet,
  action,
  marketId,
  question,
  amount: initial,
  onClose,
  onDone,
}: MoneyDialogProps) {
  const [amount, setAmount] = useState(initial ?? '');
  const [step, setStep] = useState<Step>(action === 'redeem' ? { at: 'previewing' } : { at: 'amount' });
  const sending = step.at === 'sending';
  useDialogEscape('Close without sending', () => !sending && onClose());
  // Through the relayer, main tells each window when the request is submitted (with the relayer's id): shown here
  // until the result (mined, confirmed) replaces it.
  const [submitted, setSubmitted] = useState<string | null>(null);
  useEffect(() => {
    if (!sending) return undefined;
    setSubmitted(null);
    return listen('notice', (notice) => {
      if (notice.wallet === wallet && notice.message.startsWith(`${action}: submitted to Polymarket's relayer`))
        setSubmitted(notice.message.slice(action.length + 2));
    });
  }, [sending, wallet, action]);

  const intent = () => ({
    wallet,
    action,
    ...(marketId ? { marketId } : {}),
    ...(action === 'redeem' ? {} : { amount: amount.trim() }),
  });
  const preview = async () => {
    setStep({ at: 'previewing' });
    try {
      setStep({ at: 'confirm', preview: await ask('previewMoneyAction', intent()) });
    } catch (error) {
      setStep({ at: 'failed', message: messageOf(error) });
    }
  };
  const send = async (shown: MoneyActionPreview) => {
    setStep({ at: 'sending', preview: shown });
    try {
      const done = await ask('runMoneyAction', intent());
      setStep({ at: 'done', done });
      onDone?.(done);
    } catch (error) {
      setStep({ at: 'failed', message: messageOf(error), preview: shown });
    }
  };
  // A redeem has no amount to ask: its preview is read at once. Once, when the dialog opens: its action never
  // changes while it is open (another action opens another dialog), and `preview` is a new function each render.
  useEffect(() => {
    if (action === 'redeem') void preview();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const amountOk = AMOUNT.test(amount.trim()) && Number(amount) > 0;
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
        className="dialog money-dialog"
        role="dialog"
        aria-modal="true"
        aria-labelledby="money-title"
        data-testid="money-dialog"
        data-action={action}
      >
        <h2 id="money-title">{TITLES[action]}</h2>
        {question ? <div className="muted">{question}</div> : null}
        {step.at === 'amount' ? (
          <form
            className="col"
            onSubmit={(e) => {
              e.preventDefault();
              if (amountOk) void preview();
            }}
          >
            <label className="col">
              {AMOUNT_WORDS[action]}
              <input
                data-testid="money-amount"
                inputMode="decimal"
                autoFocus
                value={amount}
                onChange={(e) => setAmount(e.target.value)}
                placeholder="0.00"
              />
            </label>
            {!amountOk && amount ? (
              <div className="error-text">An amount is a positive number with at most 6 decimals.</div>
            ) : null}
            <div className="row dialog-actions">
              <button type="button" onClick={onClose}>
                Cancel (Esc)
              </button>
              <button type="submit" data-testid="money-review" disabled={!amountOk}>
                Review
              </button>
            </div>
          </form>
        ) : null}
        {step.at === 'previewing' ? <div className="muted">Reading the chain and quoting the gas…</div> : null}
        {shown ? <Figures preview={shown} /> : null}
        {step.at === 'sending' && step.preview.via === 'relayer' ? (
          <div className="muted" role="status" data-testid="money-progress">
            {submitted
              ? `${submitted[0]!.toUpperCase()}${submitted.slice(1)}: waiting for it to be mined and confirmed…`
              : 'Submitting to Polymarket’s relayer, then waiting for it to be mined and confirmed…'}
          </div>
        ) : null}
        {step.at === 'done' ? (
          <div className="bid" role="status" data-testid="money-done">
            {step.done.relayer
              ? `${step.done.relayer.summary} (${step.done.relayer.state.replace('STATE_', '').toLowerCase()})`
              : `Sent and mined: ${step.done.txHashes.map((h) => shortAddress(h)).join(', ')}`}
            {step.done.exchangeRefreshed
              ? ''
              : ' (the exchange was not reached to re-read the balances; it will on its own)'}
          </div>
        ) : null}
        {step.at === 'failed' ? (
          <div className="error-text" role="alert" data-testid="money-error">
            {step.message}
          </div>
        ) : null}
        {step.at !== 'amount' ? (
          <div className="row dialog-actions">
            <button type="button" disabled={sending} onClick={onClose}>
              {step.at === 'done' ? 'Close' : 'Cancel (Esc)'}
            </button>
            {step.at === 'confirm' || step.at === 'sending' ? (
              <button
                type="button"
                className="buy"
                data-testid="money-confirm"
                autoFocus
                disabled={sending}
                onClick={() => void send(step.preview)}
              >
                {sending ? 'Sending…' : `Confirm ${action}`}
              </button>
            ) : null}
          </div>
        ) : null}
      </div>
    </div>
  );
}

function Figures({ preview }: { preview: MoneyActionPreview }) {
  return (
    <>
      <ul className="money-lines" data-testid="money-lines">
        {preview.lines.map((line) => (
          <li key={line}>{line}</li>
        ))}
      </ul>
      <dl className="confirm-figures">
        <dt>As</dt>
        <dd title={preview.account}>
          {shortAddress(preview.account)} ({KIND_WORDS[preview.accountKind]})
        </dd>
        <dt>Sent</dt>
        <dd data-testid="money-via" data-via={preview.via}>
          {preview.viaReason}
        </dd>
        {preview.via === 'key' ? (
          <>
            <dt>Gas, paid by key {shortAddress(preview.key)}</dt>
            <dd className="num" data-testid="money-gas">
              about {preview.gas.text}
            </dd>
            <dt>The key holds</dt>
            <dd className="num">{preview.keyGas.text}</dd>
            <dt>Transactions</dt>
            <dd className="num">{preview.transactions}</dd>
          </>
        ) : null}
      </dl>
      {preview.note ? <div className="warn">{preview.note}</div> : null}
    </>
  );
}
