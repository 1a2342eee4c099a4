// The app:// protocol's answer to one request, as a pure function: the file of the built renderer it names,
// with the terminal's CSP and security headers, or a refusal. Electron's protocol.handle only sends it.
import { extname } from 'node:path';
import { SECURITY_HEADERS, contentSecurityPolicy } from '../../shared/csp';
import { MIME_TYPES, rendererFile } from '../host/renderer-files';
import { APP_HOST, APP_SCHEME } from './window-policy';

export type AppResponse =
  | { status: 200; file: string; headers: Record<string, string> }
  | { status: 403 | 404 | 405; headers: Record<string, string> };

export const APP_CSP = contentSecurityPolicy();

export function appResponse(rendererDir: string, method: string, requestUrl: string): AppResponse {
  const headers = { ...SECURITY_HEADERS, 'Content-Security-Policy': APP_CSP };
  let url: URL;
  try {
    url = new URL(requestUrl);
  } catch {
    return { status: 404, headers };
  }
  if (url.protocol !== `${APP_SCHEME}:` || url.host !== APP_HOST) return { status: 403, headers };
  if (method !== 'GET' && method !== 'HEAD') return { status: 405, headers };
  const file = rendererFile(rendererDir, url.pathname);
  if (!file) return { status: 404, headers };
  return {
    status: 200,
    file,
    headers: { ...headers, 'Content-Type': MIME_TYPES[extname(file)] ?? 'application/octet-stream' },
  };
}
