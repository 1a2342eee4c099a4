// What the order-flow tests share: the whole local sandbox (no bots: books hold only what a test puts there),
// its trading profile, a real signer worker, fresh wallets funded the way the sandbox funds its bots but with
// no allowances, and a pre-approved test wallet that makes markets through the toolkit.
import { Contract, Wallet, parseUnits } from 'ethers';
import { startSandbox, type RunningSandbox } from '../../sandbox/index';
import { TX_OVERRIDES, sandboxProvider } from '../../sandbox/chain/index';
import { compileContracts } from '../../sandbox/chain/compile';
import { ClobClient } from '../../packages/toolkit/src/clob/client';
import type { ApiCredentials } from '../../packages/toolkit/src/clob/auth';
import { silentLogger } from '../../packages/toolkit/src/base/logger';
import { privateKeySigner } from '../../packages/toolkit/src/orders/signer';
import type { SignerClient } from '../../src/main/wallets/signer-client';
import { parseTradingProfile, type TradingProfile } from '../../src/main/trading/profile';

export const PASSWORD = 'correct horse battery staple';
/** A cheap scrypt for test keystores; the cost is not what these tests are about. */
export const FAST_SCRYPT = { scryptN: 2 ** 12 };

export interface TradingSandbox {
  sandbox: RunningSandbox;
  profile: TradingProfile;
  stop(): Promise<void>;
}

export async function startTradingSandbox(
  orderVersion: 1 | 2 | 3 = 2,
  options: { shareViewLagMs?: number } = {},
): Promise<TradingSandbox> {
  const sandbox = await startSandbox({
    ports: { rpc: 0, clob: 0, aggregator: 0 },
    simulate: 'off',
    seed: 11,
    orderVersion,
    ...options,
  });
  return { sandbox, profile: parseTradingProfile(sandbox.profile), stop: () => sandbox.stop() };
}

/**
 * A new wallet in the signer worker (unlocked unless told), given gas and collateral by the deployer as the
 * sandbox funds its bots, and no allowance at all.
 */
export async function freshWallet(
  sb: TradingSandbox,
  signer: SignerClient,
  options: { collateral?: number; gasEth?: boolean; unlock?: boolean } = {},
): Promise<{ address: string; keystore: string; privateKey: string }> {
  const key = Wallet.createRandom().privateKey;
  const { address, keystore } = await signer.importPrivateKey(key, PASSWORD, FAST_SCRYPT);
  const provider = sandboxProvider(sb.sandbox.deployment.rpcUrl, sb.sandbox.deployment.chainId);
  try {
    if (options.gasEth ?? true) await provider.send('anvil_setBalance', [address, '0x8AC7230489E80000']); // 10 ETH
    const collateral = options.collateral ?? 1000;
    if (collateral > 0) {
      const minter = new Wallet(sb.sandbox.deployment.operator.privateKey, provider);
      const token = new Contract(sb.sandbox.deployment.contracts.collateral, compileContracts().Collateral.abi, minter);
      await (await token.getFunction('mint')(address, parseUnits(String(collateral), 6), TX_OVERRIDES)).wait();
    }
  } finally {
    provider.destroy();
  }
  if (options.unlock ?? true) await signer.unlock(keystore, PASSWORD);
  return { address, keystore, privateKey: key };
}

/** A pre-approved, funded sandbox test wallet trading through the toolkit directly (the other side of our trades). */
export async function marketMaker(sb: TradingSandbox, index = 1): Promise<{ client: ClobClient; address: string }> {
  const wallet = sb.sandbox.profile.testWallets[index]!;
  const base = {
    host: sb.profile.network.clobUrl,
    chainId: sb.profile.network.chainId,
    throwOnError: true,
    networks: [sb.profile.network],
    logger: silentLogger,
  };
  const signer = privateKeySigner(wallet.privateKey);
  const creds = (await new ClobClient({ ...base, signer }).createOrDeriveApiKey()) as ApiCredentials;
  return { client: new ClobClient({ ...base, signer, creds }), address: wallet.address };
}

/** Posts a maker's order and returns the exchange's answer. */
export async function makerOrder(
  maker: ClobClient,
  order: { tokenId: string; side: 'BUY' | 'SELL'; price: number; size: number },
  orderType: 'GTC' | 'FOK' = 'GTC',
): Promise<{ success?: boolean; status?: string; orderID?: string }> {
  const built = await maker.createOrder(order);
  return (await maker.postOrder(built, { orderType })) as { success?: boolean; status?: string; orderID?: string };
}
