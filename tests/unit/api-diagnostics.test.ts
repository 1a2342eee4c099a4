// The terminal's record of what Polymarket's APIs said about themselves: each notice told once per network,
// endpoint and kind; the last rate-limit reading per endpoint; both bounded whatever the APIs send.
import { describe, expect, it } from 'vitest';
import { ApiDiagnostics, MAX_API_NOTICES, MAX_RATE_LIMITS } from '../../src/main/terminal/api-diagnostics';

function diagnostics() {
  const emitted: { kind: string; message: string }[] = [];
  const d = new ApiDiagnostics(
    { emit: ((_name: string, payload: { kind: string; message: string }) => emitted.push(payload)) as never },
    () => 1_000,
  );
  return { d, emitted };
}

describe('API diagnostics', () => {
  it('tells a notice once per network, endpoint and kind, and keeps it', () => {
    const { d, emitted } = diagnostics();
    const notice = {
      kind: 'deprecated' as const,
      api: 'Gamma',
      endpoint: 'GET /events',
      message: 'Gamma GET /events is deprecated.',
    };
    d.listeners('polygon').onNotice(notice);
    d.listeners('polygon').onNotice(notice);
    d.listeners('sandbox').onNotice(notice);
    expect(emitted).toEqual([
      { kind: 'info', message: 'Gamma GET /events is deprecated.' },
      { kind: 'info', message: 'Gamma GET /events is deprecated.' },
    ]);
    expect(d.snapshot().notices.map((n) => [n.network, n.endpoint, n.at])).toEqual([
      ['polygon', 'GET /events', 1_000],
      ['sandbox', 'GET /events', 1_000],
    ]);
  });

  it('keeps the last rate-limit reading per endpoint, and bounds both lists', () => {
    const { d, emitted } = diagnostics();
    const { onNotice, onRateLimit } = d.listeners('polygon');
    onRateLimit({ api: 'CLOB', endpoint: 'GET /book', status: 200, remaining: 9, warning: false });
    onRateLimit({ api: 'CLOB', endpoint: 'GET /book', status: 200, remaining: 8, tier: 'gold', warning: true });
    expect(d.snapshot().rateLimits).toEqual([
      {
        api: 'CLOB',
        endpoint: 'GET /book',
        status: 200,
        remaining: 8,
        tier: 'gold',
        warning: true,
        network: 'polygon',
        at: 1_000,
      },
    ]);
    for (let i = 0; i < MAX_RATE_LIMITS + 10; i++)
      onRateLimit({ api: 'Gamma', endpoint: `GET /r${i}`, status: 200, warning: false });
    expect(d.snapshot().rateLimits).toHaveLength(MAX_RATE_LIMITS);
    expect(d.snapshot().rateLimits.at(-1)!.endpoint).toBe(`GET /r${MAX_RATE_LIMITS + 9}`);
    for (let i = 0; i < MAX_API_NOTICES + 10; i++)
      onNotice({ kind: 'deprecated', api: 'Gamma', endpoint: `GET /n${i}`, message: `n${i}` });
    expect(d.snapshot().notices).toHaveLength(MAX_API_NOTICES);
    expect(emitted).toHaveLength(MAX_API_NOTICES);
  });
});
