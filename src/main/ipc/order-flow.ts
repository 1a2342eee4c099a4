// Opens the order flow for a network profile when the profile can trade (it names an exchange, a chain node
// and an order version); a read-only profile (an aggregator alone) gets none, and trading says why.
import type { CredentialVault } from '../credentials/api-credentials';
import type { Logger } from '../toolkit/logger';
import { parseTradingProfile } from '../trading/profile';
import { TradingService } from '../trading/service';

export function openOrderFlow(rawProfile: unknown, vault: CredentialVault, logger?: Logger): TradingService | undefined {
  let profile;
  try {
    profile = parseTradingProfile(rawProfile);
  } catch {
    return undefined;
  }
  return new TradingService({ profile, vault, logger });
}
