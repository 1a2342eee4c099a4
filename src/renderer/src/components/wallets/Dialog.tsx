// A modal for the wallet and network forms: backdrop, title, Esc to close (unless the dialog says it may not
// be closed yet, as the recovery phrase's does). What a dialog holds lives in its own state, so closing it
// (unmounting) drops the passwords typed into it.
import { useEffect, useId, useRef, type ReactNode } from 'react';
import { useDialogEscape } from '../../keys/keyboard';

export interface DialogProps {
  title: string;
  testId?: string;
  /** Undefined: the dialog cannot be closed from outside its own buttons. */
  onClose?: () => void;
  children: ReactNode;
}

export function Dialog({ title, testId, onClose, children }: DialogProps) {
  const box = useRef<HTMLDivElement>(null);
  const close = useRef(onClose);
  close.current = onClose;
  useDialogEscape('Close the dialog', () => onClose?.());
  useEffect(() => {
    // The first field takes the keyboard, so a trader can type the password at once.
    box.current?.querySelector<HTMLElement>('input:not([type=hidden]), textarea, select, button.primary')?.focus();
  }, []);
  return (
    <div className="dialog-backdrop" onMouseDown={(e) => e.target === e.currentTarget && close.current?.()}>
      <div
        className="dialog wallet-dialog"
        role="dialog"
        aria-modal="true"
        aria-label={title}
        data-testid={testId}
        ref={box}
      >
        <h2>{title}</h2>
        {children}
      </div>
    </div>
  );
}

/** A password field: never autocompleted into the page, never shown. */
export function PasswordField(props: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  testId?: string;
  autoComplete?: 'new-password' | 'current-password';
}) {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>{props.label}</label>
      <input
        id={id}
        type="password"
        data-testid={props.testId}
        value={props.value}
        autoComplete={props.autoComplete ?? 'off'}
        spellCheck={false}
        onChange={(e) => props.onChange(e.target.value)}
      />
    </div>
  );
}

/** A labelled text field (label, url, number typed as text). */
export function TextField(props: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  testId?: string;
  placeholder?: string;
  inputMode?: 'numeric' | 'url';
}) {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>{props.label}</label>
      <input
        id={id}
        type="text"
        data-testid={props.testId}
        value={props.value}
        placeholder={props.placeholder}
        inputMode={props.inputMode}
        autoComplete="off"
        spellCheck={false}
        onChange={(e) => props.onChange(e.target.value)}
      />
    </div>
  );
}

/** The sentence main wrote, when an ask failed. */
export function ErrorLine({ message }: { message: string | null }) {
  if (!message) return null;
  return (
    <p className="error-text" role="alert" data-testid="dialog-error">
      {message}
    </p>
  );
}

/** `0x1234…abcd`: enough to recognise an address at a glance. */
export function shortAddress(address: string): string {
  return address.length > 12 ? `${address.slice(0, 6)}…${address.slice(-4)}` : address;
}
