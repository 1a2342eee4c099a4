// What every example shares: the network profile (a JSON file named by PMDESK_PROFILE — `npm run sandbox --
// --profile-out profile.json` writes one for the local sandbox), the key that trades, a CLOB client with its
// API key, the chain for on-chain steps, and a market to act on. Kept out of the examples so each shows its topic.
import { readFileSync } from 'node:fs';
import { JsonRpcProvider, Wallet } from 'ethers';
import {
  ClobClient,
  accountTransactions,
  createMarketSource,
  parseNetworkProfile,
  privateKeySigner,
  silentLogger,
} from '@pmdesk/toolkit';

/** The profile as written, and as the toolkit reads it. */
export function loadNetwork() {
  const path = process.env.PMDESK_PROFILE;
  if (!path)
    throw new Error(
      'Set PMDESK_PROFILE to a network profile JSON file (npm run sandbox -- --profile-out profile.json).',
    );
  const json = JSON.parse(readFileSync(path, 'utf8'));
  return { json, profile: parseNetworkProfile(json), source: createMarketSource(json) };
}

/** PMDESK_PRIVATE_KEY, else the sandbox's funded test wallet number `index`. */
export function privateKeyOf(json, index = 0) {
  const key = process.env.PMDESK_PRIVATE_KEY ?? json.testWallets?.[index]?.privateKey;
  if (!key) throw new Error('Set PMDESK_PRIVATE_KEY (or use a sandbox profile, which lists funded test wallets).');
  return key;
}

/** A CLOB client that can trade: the key signs orders, the API key (created or derived once) signs requests. */
export async function tradingClient(profile, privateKey) {
  const base = {
    host: profile.clobUrl,
    chainId: profile.chainId,
    networks: [profile],
    throwOnError: true,
    logger: silentLogger,
  };
  const signer = privateKeySigner(privateKey);
  const creds = await new ClobClient({ ...base, signer }).createOrDeriveApiKey();
  return new ClobClient({ ...base, signer, creds });
}

/** Open binary markets of the first events, plain ones (not neg-risk) first when `plain` is asked. */
export async function openMarkets(source, { plain = false } = {}) {
  const events = await source.listEvents({ limit: 20 });
  return events
    .flatMap((event) => event.markets)
    .filter(
      (m) => m.position_tokens.length === 2 && m.accepting_orders !== false && !m.closed && (!plain || !m.neg_risk),
    );
}

/** Sends the calls from the key's own account (an EOA) and waits for each; returns the number of transactions. */
export async function sendCalls(profile, privateKey, calls) {
  const provider = new JsonRpcProvider(profile.rpcUrl, profile.chainId, { staticNetwork: true });
  try {
    const wallet = new Wallet(privateKey, provider);
    const plan = await accountTransactions({ kind: 'eoa', address: wallet.address, owner: wallet.address }, calls, {
      chainId: profile.chainId,
      wallets: {},
    });
    for (const tx of plan.transactions) {
      const receipt = await (await wallet.sendTransaction(tx)).wait();
      if (receipt?.status !== 1) throw new Error(`transaction ${receipt?.hash} failed`);
    }
    return plan.transactions.length;
  } finally {
    provider.destroy();
  }
}

/** A provider for reads, closed by the caller. */
export const chainReader = (profile) => new JsonRpcProvider(profile.rpcUrl, profile.chainId, { staticNetwork: true });

/** The examples' last line: one JSON object, `ok` saying the example did what it shows. */
export const report = (result) => console.log(JSON.stringify(result));
