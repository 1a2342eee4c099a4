// Moves a deployed contract to a chosen address on anvil (code and every storage slot), so the sandbox can
// stand at Polymarket's Amoy addresses for compatibility tests. Only anvil's own RPC methods make this possible.
import { gunzipSync } from 'node:zlib';
import { getAddress, toBeHex, type JsonRpcProvider } from 'ethers';

interface DumpedAccount {
  code: string;
  storage: Record<string, string>;
}

/** Reads one account's code and storage from anvil's state dump (gzip-compressed JSON, hex-encoded). */
async function dumpAccount(provider: JsonRpcProvider, address: string): Promise<DumpedAccount> {
  const dump = (await provider.send('anvil_dumpState', [])) as string;
  const state = JSON.parse(gunzipSync(Buffer.from(dump.slice(2), 'hex')).toString('utf8')) as {
    accounts: Record<string, DumpedAccount>;
  };
  const account = state.accounts[address.toLowerCase()] ?? state.accounts[getAddress(address)];
  if (!account?.code || account.code === '0x') throw new Error(`no contract at ${address} to move`);
  return account;
}

/**
 * Copies the contract at `from` to `to` and empties `from`. Storage that a constructor wrote in *other*
 * contracts (approvals the contract granted) stays keyed by the old address: the caller grants it again.
 * Immutables travel with the code, so a contract that must know another's final address is deployed with it.
 */
export async function relocateContract(provider: JsonRpcProvider, from: string, to: string): Promise<string> {
  const account = await dumpAccount(provider, from);
  await provider.send('anvil_setCode', [to, account.code]);
  for (const [slot, value] of Object.entries(account.storage)) {
    await provider.send('anvil_setStorageAt', [to, toBeHex(BigInt(slot), 32), toBeHex(BigInt(value), 32)]);
  }
  await provider.send('anvil_setCode', [from, '0x']);
  return getAddress(to);
}
