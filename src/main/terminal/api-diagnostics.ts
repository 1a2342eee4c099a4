// What Polymarket's APIs said about themselves this session, for the terminal's notices and its diagnostics
// view: a deprecated endpoint or a list read through its deprecated fallback is told once as a notice and kept;
// the last rate-limit headers of each endpoint are kept. Bounded, whatever the APIs send.
import type { ApiNotice, RateLimitReading } from '@pmdesk/toolkit';
import type { ApiNoticeInfo, DiagnosticsInfo, RateLimitInfo } from '../../shared/contract';
import type { EventHub } from '../ipc/event-hub';

/** Notices kept at most (each is one endpoint's, said once): more would be a host gone wrong, not news. */
export const MAX_API_NOTICES = 50;
/** Endpoints whose last rate-limit reading is kept at most; the oldest reading goes first. */
export const MAX_RATE_LIMITS = 40;

export class ApiDiagnostics {
  private readonly notices = new Map<string, ApiNoticeInfo>();
  private readonly rateLimits = new Map<string, RateLimitInfo>();

  constructor(
    private readonly hub: Pick<EventHub, 'emit'>,
    private readonly now: () => number = Date.now,
  ) {}

  /** The listeners a network's source is built with. */
  listeners(network: string): {
    onNotice: (notice: ApiNotice) => void;
    onRateLimit: (reading: RateLimitReading) => void;
  } {
    return {
      onNotice: (notice) => this.notice(network, notice),
      onRateLimit: (reading) => this.rateLimit(network, reading),
    };
  }

  /** Once per network, API, endpoint and kind: a notice, and a line in the diagnostics. */
  notice(network: string, notice: ApiNotice): void {
    const key = `${network} ${notice.kind} ${notice.api} ${notice.endpoint}`;
    if (this.notices.has(key) || this.notices.size >= MAX_API_NOTICES) return;
    this.notices.set(key, {
      kind: notice.kind,
      api: notice.api,
      endpoint: notice.endpoint,
      message: notice.message,
      network,
      at: this.now(),
    });
    this.hub.emit('notice', { kind: 'info', message: notice.message });
  }

  rateLimit(network: string, reading: RateLimitReading): void {
    const key = `${network} ${reading.api} ${reading.endpoint}`;
    this.rateLimits.delete(key);
    if (this.rateLimits.size >= MAX_RATE_LIMITS) this.rateLimits.delete(this.rateLimits.keys().next().value!);
    const info: RateLimitInfo = {
      api: reading.api,
      endpoint: reading.endpoint,
      status: reading.status,
      warning: reading.warning,
      network,
      at: this.now(),
    };
    if (reading.remaining !== undefined) info.remaining = reading.remaining;
    if (reading.resetAt !== undefined) info.resetAt = reading.resetAt;
    if (reading.tier !== undefined) info.tier = reading.tier;
    this.rateLimits.set(key, info);
  }

  snapshot(): DiagnosticsInfo {
    return { notices: [...this.notices.values()], rateLimits: [...this.rateLimits.values()] };
  }
}
