// What the trader should know, in the corner: errors in a sentence, approvals with their hashes, idle locks.
// Information fades by itself after a while; an error stays until the trader dismisses it (it may need acting on).
import { useEffect } from 'react';
import { useSession, type Notice } from '../../store/session';

/** How long an information or success notice stays (an approval's hash is worth reading, so not too short). */
export const NOTICE_FADE_MS = 8_000;

function NoticeRow({ notice }: { notice: Notice }) {
  const dismiss = useSession((s) => s.dismiss);
  useEffect(() => {
    if (notice.tone === 'error') return undefined;
    const timer = setTimeout(() => dismiss(notice.id), NOTICE_FADE_MS);
    return () => clearTimeout(timer);
  }, [notice, dismiss]);
  return (
    <div className={`notice ${notice.tone}`} data-tone={notice.tone}>
      <span>{notice.message}</span>
      {notice.txHash ? <code className="hash">{notice.txHash}</code> : null}
      <button type="button" className="ghost" aria-label="Dismiss" onClick={() => dismiss(notice.id)}>
        ×
      </button>
    </div>
  );
}

export function Notices() {
  const notices = useSession((s) => s.notices);
  return (
    <div className="notices" data-testid="notices" role="status" aria-live="polite">
      {notices.map((n) => (
        <NoticeRow key={n.id} notice={n} />
      ))}
    </div>
  );
}
