// Bring an existing wallet in: from its recovery phrase (and account index), its private key, or a keystore
// file read here with FileReader. What the trader types or picks is sent to main once and dropped with the
// dialog; the page keeps nothing of it.
import { useState, type ChangeEvent, type FormEvent } from 'react';
import type { OperationInput } from '../../../../shared/contract';
import { ask, messageOf } from '../../bridge/terminal';
import { useSession } from '../../store/session';
import { Dialog, ErrorLine, PasswordField, TextField } from './Dialog';

type Kind = 'mnemonic' | 'privateKey' | 'keystore';
const TABS: { kind: Kind; title: string }[] = [
  { kind: 'mnemonic', title: 'Recovery phrase' },
  { kind: 'privateKey', title: 'Private key' },
  { kind: 'keystore', title: 'Keystore file' },
];
/** The contract refuses keystores larger than this; said before the file is sent. */
const MAX_KEYSTORE_CHARS = 16_384;

export function ImportWalletDialog({ onClose }: { onClose: () => void }) {
  const [kind, setKind] = useState<Kind>('mnemonic');
  const [label, setLabel] = useState('');
  const [password, setPassword] = useState('');
  const [repeat, setRepeat] = useState('');
  const [phrase, setPhrase] = useState('');
  const [index, setIndex] = useState('0');
  const [privateKey, setPrivateKey] = useState('');
  const [keystore, setKeystore] = useState<{ name: string; json: string } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  function readKeystore(event: ChangeEvent<HTMLInputElement>) {
    setError(null);
    setKeystore(null);
    const file = event.target.files?.[0];
    if (!file) return;
    if (file.size > MAX_KEYSTORE_CHARS) {
      setError('That file is too large to be a keystore file.');
      return;
    }
    const reader = new FileReader();
    reader.onload = () => setKeystore({ name: file.name, json: String(reader.result ?? '') });
    reader.onerror = () => setError('That file could not be read.');
    reader.readAsText(file);
  }

  function source(): OperationInput<'importWallet'>['source'] {
    if (kind === 'mnemonic')
      return { kind, phrase: phrase.trim().toLowerCase().split(/\s+/).join(' '), index: Number(index) };
    if (kind === 'privateKey') return { kind, privateKey: privateKey.trim() };
    return { kind, keystoreJson: keystore?.json ?? '' };
  }

  async function importWallet(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const wallet = await ask('importWallet', { label: label.trim(), password, source: source() });
      setPassword('');
      setRepeat('');
      setPhrase('');
      setPrivateKey('');
      setKeystore(null);
      await useSession.getState().refreshWallets();
      useSession.getState().setActiveWallet(wallet.label);
      useSession
        .getState()
        .notify('success', `Imported ${wallet.label} (${wallet.address}). It is locked: unlock it to trade.`);
      onClose();
    } catch (failure) {
      setError(messageOf(failure));
      setBusy(false);
    }
  }

  const needsRepeat = kind !== 'keystore';
  const blocked =
    label.trim().length === 0
      ? 'Give the wallet a label.'
      : kind === 'mnemonic' && phrase.trim().length === 0
        ? 'Type the recovery phrase.'
        : kind === 'mnemonic' && !/^\d{1,10}$/.test(index)
          ? 'The account index is a whole number (0 for the first account).'
          : kind === 'privateKey' && privateKey.trim().length === 0
            ? 'Paste the private key.'
            : kind === 'keystore' && !keystore
              ? 'Choose a keystore file.'
              : password.length === 0
                ? kind === 'keystore'
                  ? 'Type the keystore file’s password.'
                  : 'Choose a password for this wallet.'
                : needsRepeat && password !== repeat
                  ? 'The two passwords differ.'
                  : busy
                    ? 'Importing…'
                    : undefined;

  return (
    <Dialog title="Import a wallet" testId="import-dialog" onClose={onClose}>
      <div className="tabs" role="tablist">
        {TABS.map((tab) => (
          <button
            key={tab.kind}
            type="button"
            role="tab"
            data-testid={`import-tab-${tab.kind}`}
            aria-selected={kind === tab.kind}
            onClick={() => {
              setKind(tab.kind);
              setError(null);
            }}
          >
            {tab.title}
          </button>
        ))}
      </div>
      <form className="wallet-form" onSubmit={(e) => void importWallet(e)}>
        <TextField label="Label" value={label} onChange={setLabel} testId="wallet-label-input" />
        {kind === 'mnemonic' ? (
          <>
            <div className="field">
              <label htmlFor="import-phrase">Recovery phrase (12 or 24 words)</label>
              <textarea
                id="import-phrase"
                data-testid="import-phrase"
                rows={3}
                value={phrase}
                autoComplete="off"
                spellCheck={false}
                onChange={(e) => setPhrase(e.target.value)}
              />
            </div>
            <TextField
              label="Account index (0 is the first)"
              value={index}
              onChange={setIndex}
              testId="import-index"
              inputMode="numeric"
            />
          </>
        ) : null}
        {kind === 'privateKey' ? (
          <PasswordField
            label="Private key (0x and 64 hex digits)"
            value={privateKey}
            onChange={setPrivateKey}
            testId="import-private-key"
          />
        ) : null}
        {kind === 'keystore' ? (
          <div className="field">
            <label htmlFor="import-keystore">Keystore file (JSON)</label>
            <input
              id="import-keystore"
              type="file"
              accept=".json,application/json"
              data-testid="import-keystore"
              onChange={readKeystore}
            />
            {keystore ? <span className="muted">{keystore.name}</span> : null}
          </div>
        ) : null}
        <PasswordField
          label={
            kind === 'keystore'
              ? 'The keystore file’s password (it stays this wallet’s password)'
              : 'New password for this wallet (8 characters or more)'
          }
          value={password}
          onChange={setPassword}
          testId="password-input"
          autoComplete="new-password"
        />
        {needsRepeat ? (
          <PasswordField
            label="Password again"
            value={repeat}
            onChange={setRepeat}
            testId="password-repeat-input"
            autoComplete="new-password"
          />
        ) : null}
        <ErrorLine message={error} />
        <div className="row dialog-actions">
          <button type="button" className="ghost" onClick={onClose}>
            Cancel
          </button>
          <button
            type="submit"
            className="primary"
            data-testid="import-submit"
            disabled={blocked !== undefined}
            title={blocked ?? 'Import the wallet (it stays locked until you unlock it)'}
          >
            Import
          </button>
        </div>
      </form>
    </Dialog>
  );
}
