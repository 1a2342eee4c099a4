// The diagnostics view: what Polymarket's APIs said about themselves this session (an endpoint deprecated or
// past its sunset, a list read through its deprecated fallback) and the last rate-limit headers per endpoint,
// read from main when opened. The notices say each once; this is where they stay.
import { useEffect, useState } from 'react';
import type { DiagnosticsInfo } from '../../../../shared/contract';
import { ask, messageOf } from '../../bridge/terminal';
import { Dialog, ErrorLine } from '../wallets/Dialog';

function time(at: number): string {
  return new Date(at).toLocaleTimeString();
}

function resetIn(resetAt: number | undefined, now: number): string {
  return resetAt === undefined ? '' : `${Math.max(0, Math.ceil((resetAt - now) / 1000))} s`;
}

export function DiagnosticsDialog({ onClose }: { onClose: () => void }) {
  const [info, setInfo] = useState<DiagnosticsInfo | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    ask('getDiagnostics', {}).then(setInfo, (e: unknown) => setError(messageOf(e)));
  }, []);
  const now = Date.now();
  return (
    <Dialog title="Diagnostics" testId="diagnostics" onClose={onClose}>
      <ErrorLine message={error} />
      <h3>API notices</h3>
      {info && info.notices.length === 0 ? <p className="muted">None this session.</p> : null}
      <ul data-testid="diagnostics-notices">
        {info?.notices.map((n) => (
          <li key={`${n.network} ${n.kind} ${n.api} ${n.endpoint}`} data-kind={n.kind}>
            {time(n.at)} · {n.network}: {n.message}
          </li>
        ))}
      </ul>
      <h3>Rate limits</h3>
      {info && info.rateLimits.length === 0 ? (
        <p className="muted">No API has sent rate-limit headers this session.</p>
      ) : null}
      {info && info.rateLimits.length > 0 ? (
        <table data-testid="diagnostics-rate-limits">
          <thead>
            <tr>
              <th>Endpoint</th>
              <th>Left</th>
              <th>Resets in</th>
              <th>Tier</th>
              <th>Warning</th>
            </tr>
          </thead>
          <tbody>
            {info.rateLimits.map((r) => (
              <tr key={`${r.network} ${r.api} ${r.endpoint}`}>
                <td>
                  {r.api} {r.endpoint}
                </td>
                <td>{r.remaining ?? ''}</td>
                <td>{resetIn(r.resetAt, now)}</td>
                <td>{r.tier ?? ''}</td>
                <td>{r.warning ? 'warning mode' : ''}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      <div className="row dialog-actions">
        <button type="button" className="primary" data-testid="diagnostics-close" onClick={onClose}>
          Close
        </button>
      </div>
    </Dialog>
  );
}
