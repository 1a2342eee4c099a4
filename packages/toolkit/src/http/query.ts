// Query strings encoded the way the reference clients (axios) put them on the wire:
// values percent-encoded, then `:`, `$`, `,`, `[`, `]` left readable and spaces sent as `+`,
// so `protocols=polymarket,limitless` reaches the server exactly as the official SDK sent it.

export type QueryValue = string | number | boolean | undefined | null;
export type Query = Record<string, QueryValue>;

export function encodeQueryValue(value: string): string {
  return encodeURIComponent(value)
    .replace(/%3A/gi, ':')
    .replace(/%24/g, '$')
    .replace(/%2C/gi, ',')
    .replace(/%20/g, '+')
    .replace(/%5B/gi, '[')
    .replace(/%5D/gi, ']');
}

/** `?a=1&b=x` in the key order given; undefined and null values are left out. Empty string when nothing is left. */
export function buildQuery(query: Query | undefined): string {
  if (!query) return '';
  const parts: string[] = [];
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === null) continue;
    parts.push(`${encodeQueryValue(key)}=${encodeQueryValue(String(value))}`);
  }
  return parts.length ? `?${parts.join('&')}` : '';
}

/** Joins a base URL and a path with exactly one slash between them. */
export function joinUrl(baseUrl: string, path: string): string {
  return `${baseUrl.replace(/\/+$/, '')}/${path.replace(/^\/+/, '')}`;
}

/** A path segment from a caller's id: encoded, so an id holding `/` or `?` cannot reach another endpoint. */
export function pathSegment(value: string): string {
  return encodeURIComponent(value);
}
