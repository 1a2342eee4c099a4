// The order flow's exchange clients report what the exchange's answers say about themselves, against a small
// server with fixed answers on a real socket: a deprecated endpoint once, and each answer's rate-limit headers,
// so the terminal's notices and diagnostics hear the exchange the trader trades on, not only the market reads.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { POLYGON } from '../../packages/toolkit/src/chain/networks';
import type { ApiNotice, RateLimitReading } from '../../packages/toolkit/src/http/answer-headers';
import { CredentialVault } from '../../src/main/credentials/api-credentials';
import { MemorySecretStore } from '../../src/main/credentials/secret-store';
import type { TradingProfile } from '../../src/main/trading/profile';
import { TradingService } from '../../src/main/trading/service';
import { startFixtureServer, type FixtureServer } from '../helpers/fixture-server';

const TOKEN = '71321045679252212594626385532706912750332728571942532289631379312455583992563';

let clob: FixtureServer;
beforeAll(async () => {
  clob = await startFixtureServer();
});
afterAll(() => clob.stop());

describe("the order flow's exchange watch", () => {
  it('tells a deprecated exchange endpoint once and every rate-limit reading', async () => {
    clob.on('GET', '/fee-rate', (_request, reply) =>
      reply.json(200, { base_fee: 0 }, { Sunset: 'Sat, 01 Aug 2026 00:00:00 GMT', 'Poly-RateLimit-Remaining': '12' }),
    );
    const profile: TradingProfile = {
      network: { ...POLYGON, orderVersion: 2, clobUrl: clob.url },
      rpcUrl: 'http://127.0.0.1:9',
      endpoints: { source: 'polymarket', gammaUrl: clob.url, dataUrl: clob.url, clobUrl: clob.url },
      approvalGas: { gasPrice: 1n, gasLimit: 1n },
    };
    const notices: ApiNotice[] = [];
    const readings: RateLimitReading[] = [];
    const vault = await CredentialVault.open({ keychain: new MemorySecretStore() });
    const flow = new TradingService({
      profile,
      vault,
      exchangeWatch: { onNotice: (n) => notices.push(n), onRateLimit: (r) => readings.push(r) },
    });
    try {
      expect(await flow.exchangeFeeRateBps(TOKEN)).toBe(0);
      expect(notices.map((n) => n.message)).toEqual([
        'CLOB GET /fee-rate is deprecated (sunset Sat, 01 Aug 2026 00:00:00 GMT).',
      ]);
      expect(readings.map((r) => [r.api, r.endpoint, r.remaining])).toEqual([['CLOB', 'GET /fee-rate', 12]]);
    } finally {
      flow.close();
    }
  });
});
