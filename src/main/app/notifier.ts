// Alerts as desktop notifications through Electron's Notification (the thin glue; the alerts decide what to say).
import { Notification } from 'electron';
import type { DesktopNotifier } from '../alerts/notifier';

export function electronNotifier(): DesktopNotifier {
  return {
    show(title, body) {
      try {
        if (Notification.isSupported()) new Notification({ title, body, silent: false }).show();
      } catch {
        /* the in-app toast and the alert log already told it */
      }
    },
  };
}
