// The trader's alerts as main keeps them (listAlerts), the alert log, and what an `alert` event does here: a
// toast, and in browser mode a browser notification (Electron's main shows the desktop one itself). The browser
// is asked for permission when the first alert is set; refused, alerts show in PM Desk only, and the tab says so.
import { create } from 'zustand';
import type { AlertInfo, AlertLogEntry, OperationInput } from '../../../shared/contract';
import { ask, listen, messageOf } from '../bridge/terminal';
import { useSession } from './session';

export type BrowserPermission = 'granted' | 'denied' | 'default' | 'unsupported';

export interface AlertsState {
  alerts: AlertInfo[];
  log: AlertLogEntry[];
  error: string | null;
  /** In browser mode, whether the browser may show notifications; 'unsupported' in Electron (main shows them). */
  permission: BrowserPermission;
}

export const useAlerts = create<AlertsState>()(() => ({
  alerts: [],
  log: [],
  error: null,
  permission: browserPermission(),
}));

function browserNotifications(): typeof Notification | undefined {
  return typeof Notification === 'function' ? Notification : undefined;
}

function browserPermission(): BrowserPermission {
  if (sessionShell() !== 'browser') return 'unsupported';
  return browserNotifications()?.permission ?? 'unsupported';
}

function sessionShell(): string | undefined {
  return useSession.getState().network?.shell;
}

export async function loadAlerts(): Promise<void> {
  try {
    const { alerts, log } = await ask('listAlerts', {});
    useAlerts.setState({ alerts, log, error: null });
  } catch (error) {
    useAlerts.setState({ error: messageOf(error) });
  }
}

/** Sets an alert; in browser mode the first one asks the browser for notifications (a click is a user gesture). */
export async function createAlert(input: OperationInput<'createAlert'>): Promise<boolean> {
  const notifications = browserNotifications();
  if (sessionShell() === 'browser' && notifications && notifications.permission === 'default') {
    const answer = await notifications.requestPermission().catch(() => 'denied' as const);
    useAlerts.setState({ permission: answer });
  }
  try {
    const alert = await ask('createAlert', input);
    useAlerts.setState((s) => ({ alerts: [...s.alerts.filter((a) => a.id !== alert.id), alert] }));
    return true;
  } catch (error) {
    useSession.getState().notify('error', messageOf(error));
    return false;
  }
}

export async function deleteAlert(id: string): Promise<void> {
  try {
    await ask('deleteAlert', { id });
    useAlerts.setState((s) => ({ alerts: s.alerts.filter((a) => a.id !== id) }));
  } catch (error) {
    useSession.getState().notify('error', messageOf(error));
  }
}

/** Follows main's alerts; called once at start. */
export function startAlerts(): void {
  listen('alert', ({ alert, entry }) => {
    useAlerts.setState((s) => ({
      alerts: s.alerts.some((a) => a.id === alert.id)
        ? s.alerts.map((a) => (a.id === alert.id ? alert : a))
        : [...s.alerts, alert],
      log: [entry, ...s.log.filter((l) => l.id !== entry.id)].slice(0, 200),
    }));
    useSession.getState().notify('info', `${entry.title} — ${entry.message}`);
    const notifications = browserNotifications();
    if (sessionShell() === 'browser' && notifications?.permission === 'granted') {
      try {
        new notifications(entry.title, { body: entry.message, tag: entry.id });
      } catch {
        /* the toast and the log told it */
      }
    }
  });
  listen('network', () => {
    useAlerts.setState({ permission: browserPermission() });
    void loadAlerts();
  });
  void loadAlerts();
}
