// What an answer's headers say beyond its body: that the endpoint is deprecated or past its sunset
// (`Deprecation`, `Sunset`, `Warning: 299`), and where the caller stands in Polymarket's rate limit
// (`Poly-RateLimit-Remaining`, `-Reset`, `-Tier`, `-Warning`). Read from every answer, success or failure.

/**
 * Something a trader should know about how PM Desk reads an API, said once: an endpoint deprecated or past its
 * sunset, a list read through a deprecated fallback because its replacement is missing, the matching engine
 * restarting, the exchange in post-only mode. `message` is the one sentence the CLI and the terminal show.
 */
export interface ApiNotice {
  kind: 'deprecated' | 'fallback' | 'engine-restarting' | 'post-only';
  /** "Gamma", "Data API", "CLOB". */
  api: string;
  /** `GET /events`: the method and the route template, never an id. */
  endpoint: string;
  message: string;
  deprecation?: DeprecationHeaders;
}

/** What one answer said about the rate limit, with where it came from. */
export interface RateLimitReading extends RateLimitHeaders {
  api: string;
  endpoint: string;
  status: number;
}

/** The longest header text kept: a notice quotes it, and a hostile server must not fill a log with it. */
const MAX_HEADER_CHARS = 200;

/** An endpoint that says it is going away, in the server's own words. */
export interface DeprecationHeaders {
  /** `Deprecation` as sent ("true", or a date). */
  deprecation?: string;
  /** `Sunset`: the date after which the endpoint may stop answering. */
  sunset?: string;
  /** The text of a `Warning: 299` ("use /markets/keyset"). */
  warning?: string;
}

/** Reads `Deprecation`, `Sunset` and a `Warning` with code 299; undefined when the answer carries none of them. */
export function readDeprecation(headers: Headers): DeprecationHeaders | undefined {
  const deprecation = bounded(headers.get('deprecation'));
  const sunset = bounded(headers.get('sunset'));
  const warning = warning299(headers.get('warning'));
  if (deprecation === undefined && sunset === undefined && warning === undefined) return undefined;
  const found: DeprecationHeaders = {};
  if (deprecation !== undefined) found.deprecation = deprecation;
  if (sunset !== undefined) found.sunset = sunset;
  if (warning !== undefined) found.warning = warning;
  return found;
}

/** The quoted text of the first `299` warning (RFC 7234: `299 <agent> "<text>"`); a 299 without text counts too. */
function warning299(value: string | null): string | undefined {
  if (!value) return undefined;
  const match = /(?:^|,)\s*299\s+\S+\s*(?:"((?:[^"\\]|\\.)*)")?/.exec(value);
  if (!match) return undefined;
  return bounded(match[1] ?? 'deprecated') ?? 'deprecated';
}

/** One sentence for a deprecated endpoint: "Gamma GET /events is deprecated (sunset …): use /markets/keyset." */
export function deprecationText(api: string, endpoint: string, found: DeprecationHeaders): string {
  const sunset = found.sunset ? ` (sunset ${found.sunset})` : '';
  const advice = found.warning && found.warning !== 'deprecated' ? `: ${found.warning.replace(/\.$/, '')}` : '';
  return `${api} ${endpoint} is deprecated${sunset}${advice}.`;
}

/** Where the caller stands in Polymarket's rate limit, as one answer's headers say. */
export interface RateLimitHeaders {
  /** Requests (tokens) left in the bucket. */
  remaining?: number;
  /** When the bucket is full again or the wait ends, ms since the epoch (the header is Unix seconds). */
  resetAt?: number;
  /** The tier applied ("standard", "gold" …). */
  tier?: string;
  /** Polymarket is in warning mode: limits not yet enforced, but would be. */
  warning: boolean;
}

/** Reads the `Poly-RateLimit-*` headers; undefined when the answer carries none. */
export function readRateLimit(headers: Headers): RateLimitHeaders | undefined {
  const remainingText = headers.get('poly-ratelimit-remaining');
  const resetText = headers.get('poly-ratelimit-reset');
  const tier = bounded(headers.get('poly-ratelimit-tier'));
  const warningText = headers.get('poly-ratelimit-warning');
  if (remainingText === null && resetText === null && tier === undefined && warningText === null) return undefined;
  const found: RateLimitHeaders = { warning: /^\s*(true|1)\s*$/i.test(warningText ?? '') };
  const remaining = Number(remainingText);
  if (remainingText !== null && remainingText.trim() !== '' && Number.isFinite(remaining) && remaining >= 0)
    found.remaining = Math.floor(remaining);
  const reset = Number(resetText);
  // Unix seconds; a value that is not a plausible time (negative, or past year 9999) is ignored, not trusted.
  if (resetText !== null && resetText.trim() !== '' && Number.isFinite(reset) && reset > 0 && reset < 253_402_300_800)
    found.resetAt = Math.round(reset * 1000);
  if (tier !== undefined) found.tier = tier;
  return found;
}

/** "Gamma GET /events/keyset: rate limit 42 left, resets in 3 s, tier standard (warning mode)". */
export function rateLimitText(api: string, endpoint: string, found: RateLimitHeaders, now = Date.now()): string {
  const parts: string[] = [];
  if (found.remaining !== undefined) parts.push(`${found.remaining} left`);
  if (found.resetAt !== undefined) parts.push(`resets in ${Math.max(0, Math.ceil((found.resetAt - now) / 1000))} s`);
  if (found.tier !== undefined) parts.push(`tier ${found.tier}`);
  return `${api} ${endpoint}: rate limit ${parts.join(', ') || 'reported'}${found.warning ? ' (warning mode)' : ''}`;
}

export interface AnswerWatchOptions {
  onNotice?: (notice: ApiNotice) => void;
  onRateLimit?: (reading: RateLimitReading) => void;
  /** Told when an answer says the budget is spent (`Poly-RateLimit-Remaining: 0`), with when it resets. */
  onSpent?: (resetAt: number) => void;
  /** Where a deprecation is also logged (a warning). */
  warn?: (message: string) => void;
}

/**
 * One API client's reading of its answers' headers: a deprecated endpoint reported once (per client, so once per
 * run of the CLI and once per source in the terminal), the rate limit reported on every answer.
 */
export class AnswerWatch {
  private readonly deprecated = new Set<string>();

  constructor(
    private readonly api: string,
    private readonly options: AnswerWatchOptions,
  ) {}

  /** `endpoint` is the method and route template (`GET /events/{id}`), never a path holding an id. */
  observe(endpoint: string, status: number, headers: Headers): void {
    const { api, options } = this;
    const deprecation = readDeprecation(headers);
    if (deprecation && !this.deprecated.has(endpoint)) {
      this.deprecated.add(endpoint);
      const message = deprecationText(api, endpoint, deprecation);
      options.warn?.(message);
      options.onNotice?.({ kind: 'deprecated', api, endpoint, message, deprecation });
    }
    const rate = readRateLimit(headers);
    if (!rate) return;
    // Only a spent budget holds: on an admitted request the reset may be "now", and acting on it would stall every read.
    if (rate.remaining === 0 && rate.resetAt !== undefined) options.onSpent?.(rate.resetAt);
    options.onRateLimit?.({ ...rate, api, endpoint, status });
  }
}

function bounded(value: string | null | undefined): string | undefined {
  if (value === null || value === undefined) return undefined;
  // Control characters (a header cannot hold newlines, but be sure) never reach a terminal line.
  const text = [...value]
    .map((c) => (c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f ? ' ' : c))
    .join('')
    .trim();
  if (text === '') return undefined;
  return text.length > MAX_HEADER_CHARS ? `${text.slice(0, MAX_HEADER_CHARS)}…` : text;
}
