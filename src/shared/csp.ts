// The one Content-Security-Policy of the terminal's page, sent by both shells (Electron's app:// protocol and
// browser mode's loopback server): scripts only from the app itself, no plugins, no frames, no forms, and
// connections only back to the app (plus, in browser mode, its own WebSocket bridge).

/**
 * The hosts market images come from: Gamma's `image`/`icon` (and profile images) are uploads on Polymarket's S3
 * bucket. Only these are allowed, so no other image host learns which markets a trader views; the sandbox and
 * the aggregator send no image URLs. A new source with its own image host adds it here.
 */
export const MARKET_IMAGE_HOSTS: readonly string[] = ['polymarket-upload.s3.us-east-2.amazonaws.com'];

/** The `img-src` sources: the app, data: URLs and the market image hosts over https, nothing else. */
export const IMAGE_SOURCES: readonly string[] = [
  "'self'",
  'data:',
  ...MARKET_IMAGE_HOSTS.map((host) => `https://${host}`),
];

export interface CspOptions {
  /** Extra `connect-src` sources: browser mode adds its exact `ws://127.0.0.1:PORT`. */
  connectSrc?: readonly string[];
}

export function contentSecurityPolicy({ connectSrc = [] }: CspOptions = {}): string {
  const directives: [string, string[]][] = [
    ['default-src', ["'none'"]],
    ['script-src', ["'self'"]],
    // React and the grid set inline style attributes; no inline script is ever allowed.
    ['style-src', ["'self'", "'unsafe-inline'"]],
    ['img-src', [...IMAGE_SOURCES]],
    ['font-src', ["'self'", 'data:']],
    ['connect-src', ["'self'", ...connectSrc]],
    ['worker-src', ["'self'"]],
    ['manifest-src', ["'self'"]],
    ['object-src', ["'none'"]],
    ['frame-src', ["'none'"]],
    ['child-src', ["'none'"]],
    ['base-uri', ["'none'"]],
    ['form-action', ["'none'"]],
    ['frame-ancestors', ["'none'"]],
  ];
  return directives.map(([name, sources]) => `${name} ${sources.join(' ')}`).join('; ');
}

/** Headers every page response carries in both shells, besides the CSP. */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Resource-Policy': 'same-origin',
  'X-Frame-Options': 'DENY',
  'Permissions-Policy': 'camera=(), microphone=(), geolocation=(), usb=(), serial=(), hid=(), bluetooth=(), payment=()',
};
