// Starts what a CLOB server test needs: a sandbox chain with every catalog market on it, the catalog joined to
// the chain's ids, live market data, and the CLOB server on a free port; stop() ends both server and anvil.
import { Contract, Wallet, type JsonRpcProvider } from 'ethers';
import { startSandboxChain, sandboxProvider, type SandboxChain } from '../../sandbox/chain/index';
import type { OrderVersion } from '../../sandbox/chain/deploy';
import { SANDBOX_EVENTS, buildCatalog, type Catalog, type CatalogMarket } from '../../sandbox/market/catalog';
import { MarketData } from '../../sandbox/market/market-data';
import { startClobServer, type ClobServer, type ClobServerOptions } from '../../sandbox/clob/server';

export interface ClobSandbox {
  chain: SandboxChain;
  server: ClobServer;
  catalog: Catalog;
  data: MarketData;
  provider: JsonRpcProvider;
  wallets: Wallet[];
  /** The first binary market (tick 0.01) and a neg-risk one. */
  binary: CatalogMarket;
  negRisk: CatalogMarket;
  collateralOf(address: string): Promise<bigint>;
  sharesOf(address: string, tokenId: string): Promise<bigint>;
  stop(): Promise<void>;
}

export async function startClobSandbox(
  options: { orderVersion?: OrderVersion; amoy?: boolean } & Partial<Omit<ClobServerOptions, 'deployment' | 'catalog' | 'marketData'>> = {},
): Promise<ClobSandbox> {
  const { orderVersion = 2, amoy = false, ...serverOptions } = options;
  const specs = SANDBOX_EVENTS.flatMap((event) => event.markets.map((market) => ({ question: market.question, negRisk: event.negRisk })));
  const chain = await startSandboxChain({
    orderVersion,
    markets: specs,
    ...(amoy ? { chainId: 80_002, addresses: 'amoy' as const } : {}),
  });
  let server: ClobServer | undefined;
  try {
    const catalog = buildCatalog(SANDBOX_EVENTS, (market) => {
      const onChain = chain.markets.find((m) => m.question === market.question)!;
      return { conditionId: onChain.conditionId, tokenIds: onChain.tokenIds };
    });
    const data = new MarketData(catalog);
    server = await startClobServer({ deployment: chain, catalog, marketData: data, ...serverOptions });
    const provider = sandboxProvider(chain.rpcUrl, chain.chainId);
    const markets = catalog.events.flatMap((e) => e.markets);
    const collateral = new Contract(chain.contracts.collateral, ['function balanceOf(address) view returns (uint256)'], provider);
    const ctf = new Contract(chain.contracts.conditionalTokens, ['function balanceOf(address,uint256) view returns (uint256)'], provider);
    const running = server;
    return {
      chain,
      server,
      catalog,
      data,
      provider,
      wallets: chain.testWallets.map((w) => new Wallet(w.privateKey, provider)),
      binary: markets.find((m) => !m.negRisk && m.tickSize === '0.01')!,
      negRisk: markets.find((m) => m.negRisk && m.tickSize === '0.01')!,
      collateralOf: (address) => collateral.getFunction('balanceOf')(address) as Promise<bigint>,
      sharesOf: (address, tokenId) => ctf.getFunction('balanceOf')(address, tokenId) as Promise<bigint>,
      async stop() {
        await running.stop();
        provider.destroy();
        await chain.stop();
      },
    };
  } catch (error) {
    await server?.stop();
    await chain.stop();
    throw error;
  }
}

/** An ethers v6 wallet in the shape the official clients call (`_signTypedData`, as ethers v5 named it). */
export function officialSigner(wallet: Wallet) {
  return {
    _signTypedData: (domain: Record<string, unknown>, types: Record<string, { name: string; type: string }[]>, value: Record<string, unknown>) => {
      const { EIP712Domain: _omit, ...rest } = types;
      return wallet.signTypedData(domain, rest, value);
    },
    getAddress: async () => wallet.address,
  };
}
