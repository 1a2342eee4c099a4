// Which file of the built renderer a request names: shared by browser mode's server and Electron's app://
// protocol, so neither can be talked into serving a file outside the renderer folder.
import { normalize, resolve, sep } from 'node:path';

export const MIME_TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
};

/** The file a request path names inside the renderer folder, or null when it would leave it. */
export function rendererFile(rendererDir: string, requestPath: string): string | null {
  let path: string;
  try {
    path = decodeURIComponent(requestPath.split('?')[0]!.split('#')[0]!);
  } catch {
    return null;
  }
  if (path.includes('\0')) return null;
  if (path === '/' || path === '') path = '/index.html';
  const root = resolve(rendererDir);
  const file = resolve(root, normalize(`.${path}`));
  return file === root || file.startsWith(root + sep) ? file : null;
}
