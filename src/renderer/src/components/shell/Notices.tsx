// What the trader should know, in the corner: errors in a sentence, approvals with their hashes, idle locks.
import { useSession } from '../../store/session';

export function Notices() {
  const notices = useSession((s) => s.notices);
  const dismiss = useSession((s) => s.dismiss);
  return (
    <div className="notices" data-testid="notices" role="status" aria-live="polite">
      {notices.map((n) => (
        <div key={n.id} className={`notice ${n.tone}`}>
          <span>{n.message}</span>
          {n.txHash ? <code className="hash">{n.txHash}</code> : null}
          <button type="button" className="ghost" aria-label="Dismiss" onClick={() => dismiss(n.id)}>
            ×
          </button>
        </div>
      ))}
    </div>
  );
}
