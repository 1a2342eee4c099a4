// "Use the sandbox test wallet": on the sandbox network only, main imports the sandbox's funded test wallet
// under a label and a password the trader chooses (its key stays in main), and unlocks it, so a first run can
// trade at once.
import { useState, type FormEvent } from 'react';
import { ask, messageOf } from '../../bridge/terminal';
import { useSession } from '../../store/session';
import { Dialog, ErrorLine, PasswordField, TextField } from './Dialog';

export function SandboxWalletDialog({ onClose }: { onClose: () => void }) {
  const [label, setLabel] = useState('sandbox-trader');
  const [password, setPassword] = useState('');
  const [repeat, setRepeat] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function importTestWallet(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const wallet = await ask('importSandboxWallet', { label: label.trim(), password });
      await ask('unlockWallet', { label: wallet.label, password });
      setPassword('');
      setRepeat('');
      const session = useSession.getState();
      await session.refreshWallets();
      session.setActiveWallet(wallet.label);
      session.notify(
        'success',
        `${wallet.label} (${wallet.address}) is the sandbox's funded test wallet, unlocked: ready to trade on the sandbox.`,
      );
      onClose();
    } catch (failure) {
      setError(messageOf(failure));
      setBusy(false);
    }
  }

  const blocked =
    label.trim().length === 0
      ? 'Give the wallet a label.'
      : password.length === 0
        ? 'Choose a password for this wallet.'
        : password !== repeat
          ? 'The two passwords differ.'
          : busy
            ? 'Importing…'
            : undefined;

  return (
    <Dialog title="Use the sandbox test wallet" testId="sandbox-wallet-dialog" onClose={onClose}>
      <p className="muted">
        The sandbox’s funded test wallet, with test money on this sandbox only. Choose a label and a password: it is
        kept like any wallet.
      </p>
      <form className="wallet-form" onSubmit={(e) => void importTestWallet(e)}>
        <TextField label="Label" value={label} onChange={setLabel} testId="wallet-label-input" />
        <PasswordField
          label="New password for this wallet (8 characters or more)"
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
            data-testid="sandbox-wallet-submit"
            disabled={blocked !== undefined}
            title={blocked ?? 'Import the test wallet and unlock it'}
          >
            Use it
          </button>
        </div>
      </form>
    </Dialog>
  );
}
