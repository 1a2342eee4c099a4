// Polymarket's own TypeScript client (@polymarket/client 0.2.0) as the judge of the sandbox relayer: its secure
// client for the sandbox's ready-made proxy wallet (through the sandbox's GSN relay hub), Safe and deposit wallet, authenticated by the relayer API key the profile
// gives, runs `setupTradingApprovals` gaslessly: it signs as Polymarket's relayer expects, the sandbox relayer
// checks and executes, and the client follows it (on the v1 paths) until STATE_CONFIRMED; then splitPosition,
// mergePositions and, after the market resolves, redeemPositions go the same way. The owners pay no gas. Unlike
// setupTradingApprovals, those three resolve as soon as the relayer has taken the transaction (STATE_EXECUTED:
// sent, maybe not mined) with a TransactionHandle, and only its wait() follows it to STATE_CONFIRMED.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Interface, MaxUint256, Wallet, ZeroHash, type JsonRpcProvider } from 'ethers';
import WebSocket from 'ws';
import { OrderSide, createSecureClient, forkEnvironmentConfig, relayerApiKey } from '@polymarket/client';
import { privateKey } from '@polymarket/client/viem';
import { startSandbox, type RunningSandbox } from '../../sandbox/index';
import { TX_OVERRIDES, sandboxProvider } from '../../sandbox/chain/index';

const erc20 = new Interface(['function allowance(address owner, address spender) view returns (uint256)']);
const erc1155 = new Interface([
  'function isApprovedForAll(address owner, address operator) view returns (bool)',
  'function balanceOf(address owner, uint256 id) view returns (uint256)',
]);
const pusd = new Interface(['function balanceOf(address owner) view returns (uint256)']);

let sandbox: RunningSandbox;
let provider: JsonRpcProvider;
let environment: ReturnType<typeof forkEnvironmentConfig>;

beforeAll(async () => {
  (globalThis as { WebSocket?: unknown }).WebSocket ??= WebSocket;
  sandbox = await startSandbox({ ports: { rpc: 0, clob: 0, aggregator: 0, polymarket: 0 }, simulate: 'off', seed: 9 });
  const p = sandbox.profile;
  provider = sandboxProvider(p.rpcUrl, p.chainId);
  // Every URL and contract the client would take from production points at the sandbox. The sandbox has no
  // PositionManager and no collateral adapters: ConditionalTokens stands in for the PositionManager (the client's
  // approval check reads isApprovedForAll there) and for the CTF collateral adapter, whose split, merge and redeem
  // have ConditionalTokens' own signatures (pUSD, 0x0, condition, [1, 2]); the neg-risk adapter for its adapter.
  environment = forkEnvironmentConfig({
    name: 'sandbox',
    chainId: p.chainId,
    rpc: p.rpcUrl,
    gamma: { rest: p.gammaUrl },
    data: { rest: p.dataUrl },
    clob: { rest: p.clobUrl, market: { ws: `${p.wsUrl}/market` }, user: { ws: `${p.wsUrl}/user` } },
    rtds: { ws: p.rtdsUrl },
    relayer: { rest: p.relayerUrl },
    relayerPollFrequencyMs: 50,
    // Polls at 50 ms, up to a minute (the client's default of 100 polls is 5 s here, which a loaded CI machine
    // overran once while the sandbox relayer mined and confirmed a redeem).
    relayerMaxPolls: 1200,
    walletDerivation: {
      depositWalletFactory: p.wallets.depositWalletFactory,
      depositWalletBeacon: p.wallets.depositWalletBeacon,
      depositWalletImplementation: p.wallets.depositWalletImplementation,
      proxyFactory: p.wallets.proxyFactory,
      proxyImplementation: p.wallets.proxyImplementation,
      safeFactory: p.wallets.safeFactory,
      safeInitCodeHash: p.wallets.safeInitCodeHash,
    },
    contracts: {
      collateralToken: p.contracts.collateral,
      conditionalTokens: p.contracts.conditionalTokens,
      standardExchange: p.contracts.exchange,
      negRiskExchange: p.contracts.negRiskExchange,
      negRiskAdapter: p.contracts.negRiskAdapter,
      safeMultisend: p.wallets.multiSend,
      relayHub: p.wallets.relayHub,
      positionManager: p.contracts.conditionalTokens,
      collateralAdapter: p.contracts.conditionalTokens,
      negRiskCollateralAdapter: p.contracts.negRiskAdapter,
    },
  } as never);
}, 180_000);
afterAll(async () => {
  provider?.destroy();
  await sandbox?.stop();
});

describe('@polymarket/client 0.2.0 acts gaslessly through the sandbox relayer', () => {
  it.each(['proxy', 'safe', 'deposit'] as const)(
    'setupTradingApprovals for the %s account: approved on chain, the owner paid nothing',
    async (kind) => {
      const p = sandbox.profile;
      const account = p.testAccounts.find((a) => a.kind === kind)!;
      const owner = p.testWallets.find((w) => w.address === account.owner)!;
      const apiKey = p.relayerApiKeys.find((k) => k.address === account.owner)!;
      const client = (await createSecureClient({
        environment,
        signer: privateKey(owner.privateKey),
        wallet: account.address,
        apiKey: relayerApiKey(apiKey as never),
      } as never)) as unknown as {
        setupTradingApprovals(): Promise<void>;
      };
      const read = async (to: string, iface: Interface, fn: string, args: unknown[]) =>
        iface.decodeFunctionResult(
          fn,
          await provider.call({ to, data: iface.encodeFunctionData(fn, args) }),
        )[0] as unknown;
      // Targets the sandbox's own set-up did not approve: Polymarket's V3 exchange and auto-redeem operator.
      const { exchangeV3, autoRedeemOperator } = (environment as unknown as { contracts: Record<string, string> })
        .contracts as Record<'exchangeV3' | 'autoRedeemOperator', string>;
      expect(await read(p.contracts.collateral, erc20, 'allowance', [account.address, exchangeV3])).toBe(0n);
      expect(
        await read(p.contracts.conditionalTokens, erc1155, 'isApprovedForAll', [account.address, autoRedeemOperator]),
      ).toBe(false);
      const ownerBalance = await provider.getBalance(owner.address);
      const relayed = await provider.getTransactionCount(sandbox.relayer.relayAddress);

      await client.setupTradingApprovals();

      expect(await read(p.contracts.collateral, erc20, 'allowance', [account.address, exchangeV3])).toBe(MaxUint256);
      expect(
        await read(p.contracts.conditionalTokens, erc1155, 'isApprovedForAll', [account.address, autoRedeemOperator]),
      ).toBe(true);
      expect(await provider.getBalance(owner.address)).toBe(ownerBalance);
      expect(await provider.getTransactionCount(sandbox.relayer.relayAddress)).toBe(relayed + 1);

      // Everything approved now: a second run finds nothing to do and sends nothing.
      await client.setupTradingApprovals();
      expect(await provider.getTransactionCount(sandbox.relayer.relayAddress)).toBe(relayed + 1);
    },
  );
});

describe('@polymarket/client 0.2.0 trades from each account kind on the sandbox CLOB', () => {
  type Trading = Record<
    'placeLimitOrder' | 'placeMarketOrder',
    (request: unknown) => Promise<{ ok: boolean; status?: string; orderId?: string }>
  > & {
    waitForOrderFillSettlement(response: unknown): Promise<string[]>;
    cancelOrder(request: { orderId: string }): Promise<unknown>;
  };
  const snow = () => sandbox.catalog.market('90031')!;
  async function secureClient(key: string, wallet: string, owner: string) {
    const apiKey = sandbox.profile.relayerApiKeys.find((k) => k.address === owner)!;
    return (await createSecureClient({
      environment,
      signer: privateKey(key),
      wallet,
      apiKey: relayerApiKey(apiKey as never),
    } as never)) as unknown as Trading;
  }
  const yesBalance = async (holder: string) =>
    erc1155.decodeFunctionResult(
      'balanceOf',
      await provider.call({
        to: sandbox.profile.contracts.conditionalTokens,
        data: erc1155.encodeFunctionData('balanceOf', [holder, BigInt(snow().tokens[0]!.tokenId)]),
      }),
    )[0] as bigint;

  it.each(['proxy', 'safe', 'deposit'] as const)(
    'the %s account rests a limit order and fills a market order',
    async (kind) => {
      const p = sandbox.profile;
      const account = p.testAccounts.find((a) => a.kind === kind)!;
      const owner = p.testWallets.find((w) => w.address === account.owner)!;
      const yes = snow().tokens[0]!.tokenId;
      // Liquidity to buy from: a test wallet (an EOA) that is none of the accounts' owners offers YES at 0.5.
      const sellerWallet = p.testWallets.find((w) => !p.testAccounts.some((a) => a.owner === w.address))!;
      const ctf = new Interface([
        'function splitPosition(address collateralToken, bytes32 parentCollectionId, bytes32 conditionId, uint256[] partition, uint256 amount)',
      ]);
      const seller = new Wallet(sellerWallet.privateKey, provider);
      await (
        await seller.sendTransaction({
          to: p.contracts.conditionalTokens,
          data: ctf.encodeFunctionData('splitPosition', [
            p.contracts.collateral,
            ZeroHash,
            snow().conditionId,
            [1, 2],
            10_000_000n,
          ]),
          ...TX_OVERRIDES,
        })
      ).wait();
      const sellerClient = await secureClient(sellerWallet.privateKey, sellerWallet.address, sellerWallet.address);
      const ask = await sellerClient.placeLimitOrder({ price: 0.5, side: OrderSide.SELL, size: 10, tokenId: yes });
      expect(ask.ok, JSON.stringify(ask)).toBe(true);

      const client = await secureClient(owner.privateKey, account.address, account.owner);
      const bid = await client.placeLimitOrder({ price: 0.1, side: OrderSide.BUY, size: 10, tokenId: yes });
      expect(bid.ok, JSON.stringify(bid)).toBe(true);
      expect(bid.status).toBe('live');
      // Taken off again, so no later test's balance moves by its fill.
      await client.cancelOrder({ orderId: bid.orderId! });

      const before = await yesBalance(account.address);
      const bought = await client.placeMarketOrder({ amount: 2, side: OrderSide.BUY, tokenId: yes });
      expect(bought.ok, JSON.stringify(bought)).toBe(true);
      expect(bought.status).toBe('matched');
      await client.waitForOrderFillSettlement(bought);
      // 2 pUSD at 0.5: 4 YES, on chain in the account.
      expect(await yesBalance(account.address)).toBe(before + 4_000_000n);
    },
  );
});

describe('@polymarket/client 0.2.0 splits, merges and redeems gaslessly through the sandbox relayer', () => {
  // Each resolves with the client's TransactionHandle as soon as the relayer took the transaction; only wait()
  // follows it until STATE_CONFIRMED, so the balances are read after it.
  type Positions = Record<
    'splitPosition' | 'mergePositions' | 'redeemPositions',
    (request: unknown) => Promise<{ wait(): Promise<unknown> }>
  >;
  const market = () => sandbox.catalog.market('90021')!;
  async function holdings(holder: string): Promise<{ pusd: bigint; yes: bigint; no: bigint }> {
    const [yes, no] = market().tokens.map((t) => BigInt(t.tokenId)) as [bigint, bigint];
    const ctf = sandbox.profile.contracts.conditionalTokens;
    const one = async (to: string, iface: Interface, args: unknown[]) =>
      iface.decodeFunctionResult(
        'balanceOf',
        await provider.call({ to, data: iface.encodeFunctionData('balanceOf', args) }),
      )[0] as bigint;
    return {
      pusd: await one(sandbox.profile.contracts.collateral, pusd, [holder]),
      yes: await one(ctf, erc1155, [holder, yes]),
      no: await one(ctf, erc1155, [holder, no]),
    };
  }
  async function clientFor(kind: 'proxy' | 'safe' | 'deposit') {
    const p = sandbox.profile;
    const account = p.testAccounts.find((a) => a.kind === kind)!;
    const owner = p.testWallets.find((w) => w.address === account.owner)!;
    const apiKey = p.relayerApiKeys.find((k) => k.address === account.owner)!;
    const client = (await createSecureClient({
      environment,
      signer: privateKey(owner.privateKey),
      wallet: account.address,
      apiKey: relayerApiKey(apiKey as never),
    } as never)) as unknown as Positions;
    return { client, account: account.address, owner: owner.address };
  }

  it.each(['proxy', 'safe', 'deposit'] as const)(
    'the %s account splits 2 pUSD into YES and NO, then merges 1 back',
    async (kind) => {
      const { client, account, owner } = await clientFor(kind);
      const ownerBalance = await provider.getBalance(owner);
      const before = await holdings(account);
      await (await client.splitPosition({ amount: 2_000_000n, conditionId: market().conditionId })).wait();
      expect(await holdings(account)).toEqual({
        pusd: before.pusd - 2_000_000n,
        yes: before.yes + 2_000_000n,
        no: before.no + 2_000_000n,
      });
      await (await client.mergePositions({ amount: 1_000_000n, conditionId: market().conditionId })).wait();
      expect(await holdings(account)).toEqual({
        pusd: before.pusd - 1_000_000n,
        yes: before.yes + 1_000_000n,
        no: before.no + 1_000_000n,
      });
      expect(await provider.getBalance(owner)).toBe(ownerBalance);
    },
  );

  it('after resolveMarket, every account redeems its winning YES for pUSD', async () => {
    await sandbox.resolveMarket(market().id, 0);
    for (const kind of ['proxy', 'safe', 'deposit'] as const) {
      const { client, account } = await clientFor(kind);
      const before = await holdings(account);
      expect(before.yes).toBeGreaterThan(0n);
      await (await client.redeemPositions({ conditionId: market().conditionId })).wait();
      expect(await holdings(account)).toEqual({ pusd: before.pusd + before.yes, yes: 0n, no: 0n });
    }
  });
});
