// A new wallet: label and password (twice), then its recovery phrase — the one secret this page ever sees —
// shown once, numbered, with a copy button. The dialog closes only once the trader has typed two of its
// words back; the phrase lives in this component's state alone (never a store, never storage) and is dropped
// when it closes.
import { useState, type FormEvent } from 'react';
import { ask, messageOf } from '../../bridge/terminal';
import { useSession } from '../../store/session';
import { Dialog, ErrorLine, PasswordField, TextField } from './Dialog';

type Step = 'form' | 'phrase' | 'confirm';

/** Two different word positions (0-based) for the trader to type back. */
function twoPositions(count: number): [number, number] {
  const first = Math.floor(Math.random() * count);
  let second = Math.floor(Math.random() * (count - 1));
  if (second >= first) second += 1;
  return first < second ? [first, second] : [second, first];
}

export function CreateWalletDialog({ onClose }: { onClose: () => void }) {
  const [step, setStep] = useState<Step>('form');
  const [label, setLabel] = useState('');
  const [password, setPassword] = useState('');
  const [repeat, setRepeat] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [phrase, setPhrase] = useState<string[] | null>(null);
  const [asked, setAsked] = useState<[number, number]>([0, 1]);
  const [typed, setTyped] = useState<[string, string]>(['', '']);
  const [copied, setCopied] = useState<string | null>(null);

  async function create(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const created = await ask('createWallet', { label: label.trim(), password });
      setPassword('');
      setRepeat('');
      const words = created.recoveryPhrase.value.trim().split(/\s+/);
      setPhrase(words);
      setAsked(twoPositions(words.length));
      setStep('phrase');
      await useSession.getState().refreshWallets();
      useSession.getState().setActiveWallet(created.wallet.label);
    } catch (failure) {
      setError(messageOf(failure));
    } finally {
      setBusy(false);
    }
  }

  async function copy() {
    if (!phrase) return;
    try {
      await navigator.clipboard.writeText(phrase.join(' '));
      setCopied('Copied. Paste it somewhere offline, then clear your clipboard.');
    } catch {
      setCopied('This browser did not allow copying: write the words down instead.');
    }
  }

  function finish() {
    // Dropped before the dialog goes, so nothing that outlives it refers to the words.
    setPhrase(null);
    setTyped(['', '']);
    onClose();
  }

  if (step === 'form') {
    const blocked =
      label.trim().length === 0
        ? 'Give the wallet a label.'
        : password.length === 0
          ? 'Choose a password.'
          : password !== repeat
            ? 'The two passwords differ.'
            : busy
              ? 'Creating…'
              : undefined;
    return (
      <Dialog key="form" title="Create a wallet" testId="create-dialog" onClose={onClose}>
        <form className="wallet-form" onSubmit={(e) => void create(e)}>
          <TextField label="Label" value={label} onChange={setLabel} testId="wallet-label-input" />
          <PasswordField
            label="Password (8 characters or more)"
            value={password}
            onChange={setPassword}
            testId="password-input"
            autoComplete="new-password"
          />
          <PasswordField
            label="Password again"
            value={repeat}
            onChange={setRepeat}
            testId="password-repeat-input"
            autoComplete="new-password"
          />
          <ErrorLine message={error} />
          <div className="row dialog-actions">
            <button type="button" className="ghost" onClick={onClose}>
              Cancel
            </button>
            <button
              type="submit"
              className="primary"
              data-testid="create-submit"
              disabled={blocked !== undefined}
              title={blocked ?? 'Create the wallet and show its recovery phrase'}
            >
              Create
            </button>
          </div>
        </form>
      </Dialog>
    );
  }

  const words = phrase ?? [];
  if (step === 'phrase') {
    return (
      <Dialog key="phrase" title="Write down your recovery phrase" testId="phrase-dialog">
        <p className="warn">
          These {words.length} words are the only way to recover this wallet. They are shown this once: PM Desk does not
          keep them. Anyone who has them has the wallet.
        </p>
        <ol className="recovery-phrase" data-testid="recovery-phrase">
          {words.map((word, i) => (
            <li key={i}>
              <span className="muted">{i + 1}.</span> <span className="word">{word}</span>
            </li>
          ))}
        </ol>
        <div className="row dialog-actions">
          <button type="button" data-testid="copy-phrase" onClick={() => void copy()}>
            Copy
          </button>
          {copied ? <span className="muted">{copied}</span> : null}
          <span className="spacer" />
          <button type="button" className="primary" data-testid="phrase-written" onClick={() => setStep('confirm')}>
            I wrote it down
          </button>
        </div>
      </Dialog>
    );
  }

  const [a, b] = asked;
  const matches = typed[0].trim().toLowerCase() === words[a] && typed[1].trim().toLowerCase() === words[b];
  return (
    <Dialog key="confirm" title="Confirm your recovery phrase" testId="phrase-confirm-dialog">
      <p>Type two of the words, to be sure they were written down.</p>
      <form
        className="wallet-form"
        data-asked={`${a + 1},${b + 1}`}
        onSubmit={(e) => {
          e.preventDefault();
          if (matches) finish();
        }}
      >
        <TextField
          label={`Word #${a + 1}`}
          value={typed[0]}
          onChange={(v) => setTyped([v, typed[1]])}
          testId="confirm-word-1"
        />
        <TextField
          label={`Word #${b + 1}`}
          value={typed[1]}
          onChange={(v) => setTyped([typed[0], v])}
          testId="confirm-word-2"
        />
        <div className="row dialog-actions">
          <button type="button" className="ghost" onClick={() => setStep('phrase')}>
            Show the words again
          </button>
          <button
            type="submit"
            className="primary"
            data-testid="phrase-confirm"
            disabled={!matches}
            title={
              matches ? 'Close: the phrase is not shown again' : `Type words #${a + 1} and #${b + 1} of the phrase.`
            }
          >
            Done
          </button>
        </div>
      </form>
    </Dialog>
  );
}
