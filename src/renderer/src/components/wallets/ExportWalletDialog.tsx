// Export a wallet as its encrypted keystore file: main asks for the password (so a page script cannot take
// the file), and the JSON is handed to the browser as a download, never kept here.
import { useState, type FormEvent } from 'react';
import { ask, messageOf } from '../../bridge/terminal';
import { Dialog, ErrorLine, PasswordField } from './Dialog';

/** Hands `text` to the browser as a file download. */
export function downloadText(fileName: string, text: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: 'application/json' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.rel = 'noopener';
  document.body.append(link);
  link.click();
  link.remove();
  // The browser has taken the file once the click is handled; the URL need not outlive it.
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

export function ExportWalletDialog({ wallet, onClose }: { wallet: string; onClose: () => void }) {
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function exportWallet(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const file = await ask('exportWallet', { label: wallet, password });
      setPassword('');
      downloadText(file.fileName, file.keystoreJson);
      onClose();
    } catch (failure) {
      setPassword('');
      setError(messageOf(failure));
      setBusy(false);
    }
  }

  const blocked = password.length === 0 ? 'Type the wallet’s password.' : busy ? 'Exporting…' : undefined;
  return (
    <Dialog title={`Export ${wallet}`} testId="export-dialog" onClose={onClose}>
      <p className="muted">
        A keystore file, encrypted with this wallet’s password. Keep it somewhere safe: with the password, it is the
        wallet.
      </p>
      <form className="wallet-form" onSubmit={(e) => void exportWallet(e)}>
        <PasswordField
          label="Password"
          value={password}
          onChange={setPassword}
          testId="password-input"
          autoComplete="current-password"
        />
        <ErrorLine message={error} />
        <div className="row dialog-actions">
          <button type="button" className="ghost" onClick={onClose}>
            Cancel
          </button>
          <button
            type="submit"
            className="primary"
            data-testid="export-submit"
            disabled={blocked !== undefined}
            title={blocked ?? 'Download the keystore file'}
          >
            Export
          </button>
        </div>
      </form>
    </Dialog>
  );
}
