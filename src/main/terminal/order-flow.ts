// Opens the order flow for a network profile when the profile can trade (it names an exchange, a chain node,
// an order version and that version's exchange contracts); a read-only profile (an aggregator alone, or a
// custom chain whose contracts PM Desk does not know) gets none, and trading says why.
import type { CredentialVault } from '../credentials/api-credentials';
import { verifyingContract } from '@pmdesk/toolkit';
import type { Logger } from '@pmdesk/toolkit';
import type { MarketSource } from '@pmdesk/toolkit';
import { parseTradingProfile } from '../trading/profile';
import { TradingService, type TradingServiceOptions } from '../trading/service';

/**
 * `markets` is the network's source the terminal already reads through; the flow builds its own without it.
 * `exchangeWatch` is told what the exchange's answers say about themselves (deprecations, rate limits).
 */
export function openOrderFlow(
  rawProfile: unknown,
  vault: CredentialVault,
  logger?: Logger,
  markets?: MarketSource,
  exchangeWatch?: TradingServiceOptions['exchangeWatch'],
): TradingService | undefined {
  let profile;
  try {
    profile = parseTradingProfile(rawProfile);
    // Orders are signed against the version's exchange: without its address every order would fail late.
    verifyingContract(profile.network, profile.network.orderVersion, false);
  } catch {
    return undefined;
  }
  return new TradingService({ profile, vault, logger, markets, exchangeWatch });
}
