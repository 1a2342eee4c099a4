// The one window factory's decisions, as data and pure functions: every web preference of every window, what
// a page may navigate to, which links open in the trader's browser, which permissions and requests pass.
// src/main/app/index.ts only applies these; tests read them without Electron.
import type { BrowserWindowConstructorOptions, WebPreferences } from 'electron';
import { MARKET_IMAGE_HOSTS } from '../../shared/csp';

/** The app's own origin: the renderer is served from app://pmdesk/ (never file://). */
export const APP_SCHEME = 'app';
export const APP_HOST = 'pmdesk';
export const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`;
export const APP_ENTRY_URL = `${APP_ORIGIN}/index.html`;

/**
 * Sites a link in the terminal may open in the trader's browser (https only, these hosts and their subdomains).
 * tradingview.com: the chart's credit links there, as lightweight-charts' licence asks.
 */
export const EXTERNAL_LINK_HOSTS = [
  'polymarket.com',
  'polygonscan.com',
  'amoy.polygonscan.com',
  'github.com',
  'tradingview.com',
] as const;

/** Every window's web preferences: isolated, sandboxed, no Node, no webview, nothing loosened. */
export function secureWebPreferences(preloadPath: string): WebPreferences {
  return {
    preload: preloadPath,
    contextIsolation: true,
    sandbox: true,
    nodeIntegration: false,
    nodeIntegrationInWorker: false,
    nodeIntegrationInSubFrames: false,
    webviewTag: false,
    webSecurity: true,
    allowRunningInsecureContent: false,
    experimentalFeatures: false,
    enableBlinkFeatures: '',
    navigateOnDragDrop: false,
    spellcheck: false,
    safeDialogs: true,
    disableDialogs: false,
    devTools: true,
  };
}

export interface WindowSettings {
  preloadPath: string;
  /** Packaged builds close the devtools door too. */
  packaged: boolean;
  title?: string;
  /** The window's icon (the built renderer's icon.png); packaged builds carry the installer's icon anyway. */
  icon?: string;
}

export function mainWindowOptions({
  preloadPath,
  packaged,
  title = 'PM Desk',
  icon,
}: WindowSettings): BrowserWindowConstructorOptions {
  return {
    ...(icon ? { icon } : {}),
    width: 1440,
    height: 900,
    minWidth: 960,
    minHeight: 600,
    title,
    show: false,
    backgroundColor: '#0d1117',
    webPreferences: { ...secureWebPreferences(preloadPath), devTools: !packaged },
  };
}

/** A URL of the app itself (the only thing a window may show). */
export function isAppUrl(url: string): boolean {
  try {
    const parsed = new URL(url);
    return parsed.protocol === `${APP_SCHEME}:` && parsed.host === APP_HOST;
  } catch {
    return false;
  }
}

/** https, an allowlisted host (or a subdomain), default port, no credentials in the URL. */
export function isAllowedExternalLink(url: string, hosts: readonly string[] = EXTERNAL_LINK_HOSTS): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  if (parsed.protocol !== 'https:' || parsed.username || parsed.password || parsed.port) return false;
  const host = parsed.hostname.toLowerCase();
  return hosts.some((allowed) => host === allowed || host.endsWith(`.${allowed}`));
}

export type NavigationDecision = { action: 'deny' } | { action: 'deny'; openExternally: string };

/** For will-navigate, will-redirect and window.open alike: never in the window; allowlisted https links in the browser. */
export function navigationDecision(url: string): NavigationDecision {
  return isAllowedExternalLink(url) ? { action: 'deny', openExternally: url } : { action: 'deny' };
}

/** Every permission request (camera, notifications, clipboard, HID, …) is refused, and every check says no. */
export const permissionGranted = (_permission: string): boolean => false;

/** Requests a page may make: its own app:// files, data: URLs, images from the market image hosts (as the CSP's img-src); nothing else. */
export function requestAllowed(url: string, resourceType: string): boolean {
  if (isAppUrl(url) || url.startsWith('data:') || url.startsWith('devtools:')) return true;
  if (resourceType !== 'image') return false;
  try {
    const parsed = new URL(url);
    return (
      parsed.protocol === 'https:' &&
      !parsed.port &&
      !parsed.username &&
      !parsed.password &&
      MARKET_IMAGE_HOSTS.includes(parsed.hostname.toLowerCase())
    );
  } catch {
    return false;
  }
}
