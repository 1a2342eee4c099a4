// Applies the window policy to a page's web contents: nothing navigates the window away from the app, no
// webview attaches, window.open never opens a window, and only allowlisted https links go to the browser.
// Written against the few members it uses, so tests drive it with small stand-ins for Electron's objects.
import type { SenderInfo } from '../ipc/router';
import { APP_ORIGIN, isAppUrl, navigationDecision } from './window-policy';

export interface PreventableEvent {
  preventDefault(): void;
  url?: string;
}

export interface GuardedContents {
  on(
    event: 'will-navigate' | 'will-redirect' | 'will-frame-navigate',
    listener: (event: PreventableEvent, url?: string) => void,
  ): unknown;
  on(event: 'will-attach-webview', listener: (event: PreventableEvent) => void): unknown;
  setWindowOpenHandler(handler: (details: { url: string }) => { action: 'deny' }): void;
}

/** `openExternal` is shell.openExternal in the app. */
export function guardContents(contents: GuardedContents, openExternal: (url: string) => void): void {
  const block = (event: PreventableEvent, url?: string) => {
    event.preventDefault();
    const target = event.url ?? url ?? '';
    const decision = navigationDecision(target);
    if ('openExternally' in decision) openExternal(decision.openExternally);
  };
  contents.on('will-navigate', block);
  contents.on('will-redirect', block);
  contents.on('will-frame-navigate', (event, url) => {
    // Sub-frames may not go anywhere either; the CSP already forbids frames, this is the second lock.
    const target = event.url ?? url ?? '';
    if (!isAppUrl(target)) block(event, target);
  });
  contents.on('will-attach-webview', (event) => event.preventDefault());
  contents.setWindowOpenHandler(({ url }) => {
    const decision = navigationDecision(url);
    if ('openExternally' in decision) openExternal(decision.openExternally);
    return { action: 'deny' };
  });
}

/** Who sent an IPC request, from its frame: the app origin only for an app:// page; top frame or not. */
export function senderFromFrame(
  frame: { url: string; origin?: string } | null | undefined,
  isTopFrame: boolean,
  clientId: string,
): SenderInfo {
  if (!frame) return { origin: null, mainFrame: false, clientId };
  // Node's URL gives a custom scheme the origin "null"; the app's own URLs are recognised by scheme and host.
  const origin = isAppUrl(frame.url) ? APP_ORIGIN : frame.origin && frame.origin !== 'null' ? frame.origin : null;
  return { origin, mainFrame: isTopFrame, clientId };
}
