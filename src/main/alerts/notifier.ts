// Desktop notifications as a small interface: Electron's lives in src/main/app/notifier.ts; browser mode has
// none in main (the page asks the browser's Notification API); tests hand in one that records.

export interface DesktopNotifier {
  /** Shows one notification; never throws (a notification that cannot be shown is not an error of the alert). */
  show(title: string, body: string): void;
}
