// The Electron hardening in one function: the session's lockdown (every permission refused, every request but
// the app's own files and market images cancelled) and the `web-contents-created` hook that guards every page
// (navigation, redirects, sub-frames, webviews, window.open). Written against the few members it uses, so a test
// hands it recording stand-ins of Electron's app and session and checks the wiring, not only the policies.
import { guardContents, type GuardedContents } from './guards';
import { permissionGranted, requestAllowed } from './window-policy';

/** The members of Electron's Session the lockdown sets. */
export interface LockableSession {
  setPermissionRequestHandler(
    handler: (contents: unknown, permission: string, callback: (granted: boolean) => void) => void,
  ): void;
  setPermissionCheckHandler(handler: (contents: unknown, permission: string) => boolean): void;
  setDevicePermissionHandler(handler: (details: unknown) => boolean): void;
  setDisplayMediaRequestHandler(
    handler: (request: unknown, callback: (streams: Record<string, never>) => void) => void,
  ): void;
  webRequest: {
    onBeforeRequest(
      listener: (
        details: { url: string; resourceType: string },
        callback: (response: { cancel: boolean }) => void,
      ) => void,
    ): void;
  };
}

/** The member of Electron's app the hook uses. */
export interface HookableApp {
  on(event: 'web-contents-created', listener: (event: unknown, contents: GuardedContents) => void): unknown;
}

export interface HardeningTargets {
  app: HookableApp;
  /** session.defaultSession: the only session the app uses. */
  session: LockableSession;
  /** shell.openExternal in the app: where allowlisted https links go. */
  openExternal: (url: string) => void;
}

/** Applies every lock; called once, after `ready` and before the first window. */
export function hardenApp({ app, session, openExternal }: HardeningTargets): void {
  session.setPermissionRequestHandler((_contents, permission, callback) => callback(permissionGranted(permission)));
  session.setPermissionCheckHandler((_contents, permission) => permissionGranted(permission));
  session.setDevicePermissionHandler(() => false);
  // No screen or window is ever shared: an empty answer refuses the request.
  session.setDisplayMediaRequestHandler((_request, callback) => callback({}));
  session.webRequest.onBeforeRequest((details, callback) =>
    callback({ cancel: !requestAllowed(details.url, details.resourceType) }),
  );
  app.on('web-contents-created', (_event, contents) => guardContents(contents, openExternal));
}
