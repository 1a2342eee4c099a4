// Polymarket relayer credentials for a wallet: a relayer API key (with the address it was issued for) or builder key,
// secret and passphrase, typed into fields that never echo, checked by main with the relayer and kept in the OS
// keychain; afterwards only what they are is shown ("a relayer API key for 0x…"), never the values. Forget removes them.
import { useState } from 'react';
import { ask, messageOf } from '../../bridge/terminal';
import { useDialogEscape } from '../../keys/keyboard';

export interface RelayerDialogProps {
  wallet: string;
  onClose(): void;
  /** After credentials were kept or forgotten: read the funds (and so the path) again. */
  onChanged(): void;
}

export function RelayerDialog({ wallet, onClose, onChanged }: RelayerDialogProps) {
  const [kind, setKind] = useState<'api-key' | 'builder'>('api-key');
  const [key, setKey] = useState('');
  const [keyAddress, setKeyAddress] = useState('');
  const [secret, setSecret] = useState('');
  const [passphrase, setPassphrase] = useState('');
  const [busy, setBusy] = useState(false);
  const [said, setSaid] = useState<{ ok: boolean; text: string } | null>(null);
  useDialogEscape('Close', () => !busy && onClose());

  const filled = key.trim() !== '' && (kind === 'api-key' || (secret.trim() !== '' && passphrase.trim() !== ''));
  const save = async () => {
    setBusy(true);
    try {
      const input =
        kind === 'builder'
          ? { wallet, kind, relayerKey: key, relayerSecret: secret, relayerPassphrase: passphrase }
          : { wallet, kind, relayerKey: key, ...(keyAddress.trim() ? { keyAddress: keyAddress.trim() } : {}) };
      const kept = await ask('saveRelayerCredentials', input);
      // The values leave this dialog's state at once: nothing keeps or shows them again.
      setKey('');
      setSecret('');
      setPassphrase('');
      setSaid({
        ok: true,
        text: `Kept ${kept.stored} (${kept.storage === 'keychain' ? 'OS keychain' : 'this session only'}). They are not shown again; money actions now go through Polymarket's relayer, no gas needed.`,
      });
      onChanged();
    } catch (error) {
      setSaid({ ok: false, text: messageOf(error) });
    } finally {
      setBusy(false);
    }
  };
  const forget = async () => {
    setBusy(true);
    try {
      const { forgotten } = await ask('forgetRelayerCredentials', { wallet });
      setSaid({
        ok: true,
        text: forgotten
          ? 'Forgotten: money actions go from the key again (gas in POL).'
          : 'No relayer credentials were kept for this wallet.',
      });
      onChanged();
    } catch (error) {
      setSaid({ ok: false, text: messageOf(error) });
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="dialog-backdrop" onMouseDown={(e) => e.target === e.currentTarget && !busy && onClose()}>
      <div
        className="dialog"
        role="dialog"
        aria-modal="true"
        aria-labelledby="relayer-title"
        data-testid="relayer-dialog"
      >
        <h2 id="relayer-title">Polymarket relayer credentials</h2>
        <div className="muted">
          With them, this wallet&apos;s wrap, unwrap, split, merge and redeem go through Polymarket&apos;s relayer,
          which pays the gas.
        </div>
        <form
          className="col"
          onSubmit={(e) => {
            e.preventDefault();
            if (filled && !busy) void save();
          }}
        >
          <label className="row">
            <input
              type="radio"
              name="relayer-kind"
              checked={kind === 'api-key'}
              onChange={() => setKind('api-key')}
              data-testid="relayer-kind-api-key"
            />{' '}
            Relayer API key
          </label>
          <label className="row">
            <input
              type="radio"
              name="relayer-kind"
              checked={kind === 'builder'}
              onChange={() => setKind('builder')}
              data-testid="relayer-kind-builder"
            />{' '}
            Builder key, secret and passphrase
          </label>
          <label className="col">
            {kind === 'api-key' ? 'API key' : 'Builder key'}
            <input
              type="password"
              autoComplete="off"
              data-testid="relayer-key"
              value={key}
              onChange={(e) => setKey(e.target.value)}
            />
          </label>
          {kind === 'api-key' ? (
            <label className="col">
              Issued for address (optional; the wallet&apos;s key by default)
              <input
                data-testid="relayer-key-address"
                value={keyAddress}
                onChange={(e) => setKeyAddress(e.target.value)}
                placeholder="0x…"
              />
            </label>
          ) : (
            <>
              <label className="col">
                Secret
                <input
                  type="password"
                  autoComplete="off"
                  data-testid="relayer-secret"
                  value={secret}
                  onChange={(e) => setSecret(e.target.value)}
                />
              </label>
              <label className="col">
                Passphrase
                <input
                  type="password"
                  autoComplete="off"
                  data-testid="relayer-passphrase"
                  value={passphrase}
                  onChange={(e) => setPassphrase(e.target.value)}
                />
              </label>
            </>
          )}
          {said ? (
            <div
              className={said.ok ? 'bid' : 'error-text'}
              role={said.ok ? 'status' : 'alert'}
              data-testid="relayer-said"
            >
              {said.text}
            </div>
          ) : null}
          <div className="row dialog-actions">
            <button type="button" disabled={busy} onClick={onClose}>
              Close (Esc)
            </button>
            <button type="button" disabled={busy} data-testid="relayer-forget" onClick={() => void forget()}>
              Forget
            </button>
            <button type="submit" className="buy" disabled={!filled || busy} data-testid="relayer-save">
              {busy ? 'Checking…' : 'Check and keep'}
            </button>
          </div>
        </form>
      </div>
    </div>
  );
}
