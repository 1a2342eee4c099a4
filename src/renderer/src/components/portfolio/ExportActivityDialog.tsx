// "Export activity…": the days to export, then the account's trades, fees, redemptions, splits, merges,
// conversions and rewards between them saved as one CSV through the page's own download (Electron and browser
// mode alike), and Polymarket's own accounting snapshot (its ZIP) beside it; progress and failures are said here.
import { useState } from 'react';
import { ask, messageOf } from '../../bridge/terminal';
import { useDialogEscape } from '../../keys/keyboard';
import { defaultExportDays, exportDaysProblem, type PortfolioOwner } from '../../model/portfolio';
import { downloadText } from '../../bridge/download';

type Progress =
  { state: 'idle' } | { state: 'running' } | { state: 'done'; text: string } | { state: 'failed'; message: string };

export function ExportActivityDialog({ owner, onClose }: { owner: PortfolioOwner; onClose(): void }) {
  useDialogEscape('Close the export', onClose);
  const [days, setDays] = useState(() => defaultExportDays(Date.now()));
  const [progress, setProgress] = useState<Progress>({ state: 'idle' });
  const problem = exportDaysProblem(days.from, days.to);
  const saveSnapshot = () => {
    if (progress.state === 'running') return;
    setProgress({ state: 'running' });
    ask('downloadAccountingSnapshot', owner).then(
      (done) => {
        downloadText(
          done.fileName,
          Uint8Array.from(atob(done.zipBase64), (c) => c.charCodeAt(0)),
          'application/zip',
        );
        setProgress({ state: 'done', text: `Saved Polymarket's accounting snapshot to ${done.fileName}.` });
      },
      (error: unknown) => setProgress({ state: 'failed', message: messageOf(error) }),
    );
  };
  const run = () => {
    if (problem || progress.state === 'running') return;
    setProgress({ state: 'running' });
    ask('exportActivity', { ...owner, from: days.from, to: days.to }).then(
      (done) => {
        downloadText(done.fileName, done.csv);
        setProgress({
          state: 'done',
          text:
            done.rows === 0
              ? `Nothing happened on this account from ${done.from} to ${done.to}: saved ${done.fileName} with its header only.`
              : `Saved ${done.rows} ${done.rows === 1 ? 'row' : 'rows'} to ${done.fileName}.`,
        });
      },
      (error: unknown) => setProgress({ state: 'failed', message: messageOf(error) }),
    );
  };
  return (
    <div className="dialog-backdrop" onMouseDown={(e) => e.target === e.currentTarget && onClose()}>
      <form
        className="dialog"
        role="dialog"
        aria-modal="true"
        aria-labelledby="export-activity-title"
        data-testid="export-activity-dialog"
        onSubmit={(e) => {
          e.preventDefault();
          run();
        }}
      >
        <h2 id="export-activity-title">Export activity</h2>
        <p className="muted">
          Every trade, fee, redemption, split, merge, conversion and reward between these days (UTC, both included),
          with amounts in dollars and the transaction of each, as one CSV file.
        </p>
        <div className="row">
          <label>
            From{' '}
            <input
              type="date"
              data-testid="export-from"
              value={days.from}
              autoFocus
              onChange={(e) => setDays((d) => ({ ...d, from: e.target.value }))}
            />
          </label>
          <label>
            To{' '}
            <input
              type="date"
              data-testid="export-to"
              value={days.to}
              onChange={(e) => setDays((d) => ({ ...d, to: e.target.value }))}
            />
          </label>
        </div>
        {problem ? (
          <div className="error-text" role="alert">
            {problem}
          </div>
        ) : null}
        <div aria-live="polite" data-testid="export-progress" data-state={progress.state}>
          {progress.state === 'running' ? 'Reading the account’s activity…' : null}
          {progress.state === 'done' ? progress.text : null}
        </div>
        {progress.state === 'failed' ? (
          <div className="error-text" role="alert" data-testid="export-error">
            The export failed: {progress.message}
          </div>
        ) : null}
        <div className="row dialog-actions">
          <button type="button" onClick={onClose}>
            Close (Esc)
          </button>
          <button
            type="button"
            data-testid="export-snapshot"
            title="Polymarket's own accounting snapshot of this account: a ZIP of its positions and equity, as Polymarket figures them"
            disabled={progress.state === 'running'}
            onClick={saveSnapshot}
          >
            Polymarket’s snapshot (ZIP)
          </button>
          <button
            type="submit"
            className="primary"
            data-testid="export-run"
            disabled={!!problem || progress.state === 'running'}
          >
            {progress.state === 'running' ? 'Exporting…' : 'Export CSV'}
          </button>
        </div>
      </form>
    </div>
  );
}
