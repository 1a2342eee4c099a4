// The factories an account's wallet is deployed from, per chain: what a network profile's `wallets` carries,
// and the published ones for Polygon and Amoy (docs/protocol.md#address-derivation). Only addresses and hashes, no code.
import { isAddress } from 'ethers';
import { z } from 'zod';

/**
 * Where each kind of account wallet comes from on one chain. A kind whose fields are missing does not exist
 * there (Amoy has no proxy factory; the sandbox deploys what it runs). All are addresses except the hash.
 */
export interface WalletConfig {
  /** Polymarket's ProxyWalletFactory (signature type 1). */
  proxyFactory?: string;
  /** The ProxyWallet implementation its clones delegate to; with the factory it gives the init code. */
  proxyImplementation?: string;
  /** Polymarket's SafeProxyFactory (signature type 2). */
  safeFactory?: string;
  /** keccak256 of the Gnosis Safe proxy creation code with its master copy (the master copy is not published). */
  safeInitCodeHash?: string;
  /** The deposit-wallet factory (signature type 3). */
  depositWalletFactory?: string;
  /** The beacon that wallets made since the factory's upgrade point at (the current era). */
  depositWalletBeacon?: string;
  /** The implementation that wallets made before the upgrade delegate to directly (UUPS era). */
  depositWalletImplementation?: string;
  /** The MultiSend a Safe batches several calls through (Polygon's is Safe 1.3.0's; the sandbox deploys its own). */
  multiSend?: string;
  /**
   * The GSN relay hub a proxy wallet's gasless (relayed) call comes through, and which its PROXY request signs;
   * Polygon's when absent (the sandbox deploys its own).
   */
  relayHub?: string;
}

/** Polygon mainnet (builder-relayer-client constants, rs-clob-client WALLET_CONFIG, ts-sdk environments). */
export const POLYGON_WALLETS: Readonly<WalletConfig> = {
  proxyFactory: '0xaB45c5A4B0c941a2F231C04C3f49182e1A254052',
  proxyImplementation: '0x44e999d5c2F66Ef0861317f9A4805AC2e90aEB4f',
  safeFactory: '0xaacFeEa03eb1561C4e67d661e40682Bd20E3541b',
  safeInitCodeHash: '0x2bce2127ff07fb632d16c8347c4ebf501f4841168bed00d9e6ef715ddb6fcecf',
  depositWalletFactory: '0x00000000000Fb5C9ADea0298D729A0CB3823Cc07',
  depositWalletBeacon: '0x7A18EDfe055488A3128f01F563e5B479D92ffc3a',
  depositWalletImplementation: '0x58CA52ebe0DadfdF531Cde7062e76746de4Db1eB',
};

/** Amoy: the Safe factory only. No proxy factory is deployed there and no source names a deposit-wallet factory. */
export const AMOY_WALLETS: Readonly<WalletConfig> = {
  safeFactory: '0xaacFeEa03eb1561C4e67d661e40682Bd20E3541b',
  safeInitCodeHash: '0x2bce2127ff07fb632d16c8347c4ebf501f4841168bed00d9e6ef715ddb6fcecf',
};

const address = z.string().refine((value) => isAddress(value), { message: 'not an address' });
const hash = z.string().regex(/^0x[0-9a-fA-F]{64}$/, { message: 'not 32 bytes of hex' });

/** The `wallets` object of a network profile; every field optional, unknown keys ignored. */
export const walletConfigSchema = z
  .object({
    proxyFactory: address,
    proxyImplementation: address,
    safeFactory: address,
    safeInitCodeHash: hash,
    depositWalletFactory: address,
    depositWalletBeacon: address,
    depositWalletImplementation: address,
    multiSend: address,
    relayHub: address,
  })
  .partial();
