// Unlock a wallet for trading: its password and how long it may stay unlocked while idle. The key itself is
// opened in main's signer worker; this page only ever holds the password, and only while the dialog is open.
import { useState, type FormEvent } from 'react';
import { ask, messageOf } from '../../bridge/terminal';
import { useSession } from '../../store/session';
import { Dialog, ErrorLine, PasswordField } from './Dialog';

const AUTO_LOCK_CHOICES = [
  { minutes: 5, label: '5 minutes' },
  { minutes: 15, label: '15 minutes' },
  { minutes: 30, label: '30 minutes' },
  { minutes: 60, label: '1 hour' },
  { minutes: 240, label: '4 hours' },
  { minutes: 0, label: 'Never (until I lock it)' },
];

export function UnlockDialog({ wallet, onClose }: { wallet: string; onClose: () => void }) {
  const [password, setPassword] = useState('');
  const [autoLockMinutes, setAutoLockMinutes] = useState(30);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function unlock(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await ask('unlockWallet', { label: wallet, password, autoLockMinutes });
      setPassword('');
      await useSession.getState().refreshWallets();
      onClose();
    } catch (failure) {
      // A wrong password is typed again from scratch.
      setPassword('');
      setError(messageOf(failure));
      setBusy(false);
    }
  }

  const blocked = password.length === 0 ? 'Type the wallet’s password.' : busy ? 'Unlocking…' : undefined;
  return (
    <Dialog title={`Unlock ${wallet}`} testId="unlock-dialog" onClose={onClose}>
      <form className="wallet-form" onSubmit={(e) => void unlock(e)}>
        <PasswordField
          label="Password"
          value={password}
          onChange={setPassword}
          testId="password-input"
          autoComplete="current-password"
        />
        <div className="field">
          <label htmlFor="auto-lock">Lock it again after this long idle</label>
          <select
            id="auto-lock"
            data-testid="auto-lock-minutes"
            value={autoLockMinutes}
            onChange={(e) => setAutoLockMinutes(Number(e.target.value))}
          >
            {AUTO_LOCK_CHOICES.map((c) => (
              <option key={c.minutes} value={c.minutes}>
                {c.label}
              </option>
            ))}
          </select>
        </div>
        <ErrorLine message={error} />
        <div className="row dialog-actions">
          <button type="button" className="ghost" onClick={onClose}>
            Cancel
          </button>
          <button
            type="submit"
            className="primary"
            data-testid="unlock-submit"
            disabled={blocked !== undefined}
            title={blocked ?? 'Unlock this wallet for trading'}
          >
            Unlock
          </button>
        </div>
      </form>
    </Dialog>
  );
}
