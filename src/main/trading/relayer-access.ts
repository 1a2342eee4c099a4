// The contract's relayer credential operations (saveRelayerCredentials, forgetRelayerCredentials): a wallet's
// Polymarket relayer API key or builder credentials, checked with the network's relayer before they are kept in the
// OS keychain under the wallet's key address, and never handed back — only what they are and where they are kept.
import { invalidParameter } from '@pmdesk/toolkit/model';
import { RelayerClient, type RelayerCredentials } from '@pmdesk/toolkit';
import type { ParsedInput, RelayerLogin } from '../../shared/contract';
import {
  RelayerCredentialStore,
  checkRelayerCredentials,
  describeRelayerCredentials,
} from '../credentials/relayer-credentials';
import type { TradingService as OrderFlow } from '../trading/service';
import { tradingWalletNamed, type TradingWallets } from './trading-access';

function relayerUrlOf(flow: OrderFlow): string {
  const url = flow.profile.network.relayerUrl;
  if (!url)
    throw invalidParameter(`The network ${flow.profile.network.name} names no relayer (relayerUrl in its profile).`);
  return url;
}

export async function saveRelayerCredentials(
  flow: OrderFlow,
  wallets: TradingWallets,
  input: ParsedInput<'saveRelayerCredentials'>,
): Promise<RelayerLogin> {
  const relayerUrl = relayerUrlOf(flow);
  const owner = (await tradingWalletNamed(wallets, input.wallet)).address;
  const credentials: RelayerCredentials = checkRelayerCredentials(
    input.kind === 'builder'
      ? {
          kind: 'builder',
          builder: { key: input.relayerKey, secret: input.relayerSecret, passphrase: input.relayerPassphrase },
        }
      : { kind: 'api-key', apiKey: { key: input.relayerKey, address: input.keyAddress ?? owner } },
  );
  // One authenticated read: credentials the relayer refuses (401) are not kept.
  await new RelayerClient({ url: relayerUrl, credentials, timeoutMs: 20_000 }).transactions();
  await new RelayerCredentialStore(flow.credentialVault).save(owner, relayerUrl, credentials);
  return {
    wallet: input.wallet,
    relayerUrl,
    stored: describeRelayerCredentials(credentials),
    storage: flow.credentialVault.storage,
  };
}

export async function forgetRelayerCredentials(
  flow: OrderFlow,
  wallets: TradingWallets,
  input: ParsedInput<'forgetRelayerCredentials'>,
): Promise<{ wallet: string; forgotten: boolean }> {
  const relayerUrl = relayerUrlOf(flow);
  const owner = (await tradingWalletNamed(wallets, input.wallet)).address;
  return {
    wallet: input.wallet,
    forgotten: await new RelayerCredentialStore(flow.credentialVault).forget(owner, relayerUrl),
  };
}
