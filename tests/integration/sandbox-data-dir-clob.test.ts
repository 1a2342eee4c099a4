// A sandbox started with a data folder keeps its CLOB across a restart: API keys still derive, a resting order
// is back on its book with the same id and can still be filled on the chain, trades and the tape's real fills
// are still there; a corrupt state file is refused with a log line and the CLOB starts empty.
import { ClobClient, Side, type ApiKeyCreds } from '@polymarket/clob-client-v2';
import { Contract, Wallet, parseUnits } from 'ethers';
import { mkdtemp, readdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLOB_STATE_FILE, startSandbox, type RunningSandbox } from '../../sandbox/index';
import { sandboxProvider } from '../../sandbox/chain/index';
import { officialSigner } from '../helpers/sandbox-clob';

const ports = { rpc: 0, clob: 0, aggregator: 0 };
// Amoy's chain id: the official client only builds orders for the networks it knows.
const chainId = 80_002;
const options = { ports, simulate: 'off' as const, chainId };

function client(sb: RunningSandbox, wallet: Wallet, creds?: ApiKeyCreds): ClobClient {
  return new ClobClient({
    host: sb.clob.url,
    chain: chainId,
    signer: officialSigner(wallet) as never,
    creds,
    throwOnError: true,
  });
}

async function sharesOf(sb: RunningSandbox, owner: string, tokenId: string): Promise<bigint> {
  const provider = sandboxProvider(sb.deployment.rpcUrl, sb.deployment.chainId);
  try {
    return (await new Contract(
      sb.deployment.contracts.conditionalTokens,
      ['function balanceOf(address,uint256) view returns (uint256)'],
      provider,
    ).balanceOf!(owner, tokenId)) as bigint;
  } finally {
    provider.destroy();
  }
}

async function tape(
  sb: RunningSandbox,
  marketId: string,
): Promise<{ price: number; volumeBase: number; timestamp: number }[][]> {
  const response = await fetch(
    `${sb.profile.aggregatorUrl}/v1/markets/${marketId}/orderbook/filledevents?protocol=polymarket`,
  );
  expect(response.status).toBe(200);
  return (await response.json()) as never;
}

describe('sandbox data folder: the CLOB', () => {
  it('keeps API keys, a resting order, trades and the tape across a restart; the order still fills on the chain', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'pmdesk-sandbox-clob-'));
    const first = await startSandbox({ ...options, dataDir });
    const [a, b] = first.profile.testWallets.map((w) => new Wallet(w.privateKey)) as [Wallet, Wallet];
    const market = first.catalog.events.flatMap((e) => e.markets).find((m) => !m.negRisk && m.tickSize === '0.01')!;
    const [yes, no] = [market.tokens[0].tokenId, market.tokens[1].tokenId];
    const ticks = { tickSize: '0.01' as const, negRisk: false };
    let aliceCreds: ApiKeyCreds;
    let bobCreds: ApiKeyCreds;
    let bidId: string;
    let tradeIds: string[];
    let realFill: { price: number; volumeBase: number; timestamp: number };
    try {
      aliceCreds = await client(first, a).createApiKey();
      bobCreds = await client(first, b).createApiKey();
      const alice = client(first, a, aliceCreds);
      const bob = client(first, b, bobCreds);
      // Alice bids 12 YES at 0.55; Bob buys 5 NO at 0.45 against it (a MINT): 7 of her bid keep resting.
      const bid = await alice.createAndPostOrder({ tokenID: yes, price: 0.55, size: 12, side: Side.BUY }, ticks);
      expect(bid).toMatchObject({ success: true, status: 'live' });
      bidId = bid.orderID;
      const mint = await bob.createAndPostOrder({ tokenID: no, price: 0.45, size: 5, side: Side.BUY }, ticks);
      expect(mint).toMatchObject({ success: true, status: 'matched' });
      tradeIds = (await bob.getTrades({ market: market.conditionId })).map((t) => t.id);
      expect(tradeIds).toHaveLength(1);
      realFill = first.marketData.fills(yes).at(-1)!;
      expect(realFill).toMatchObject({ price: 0.55, volumeBase: 5 });
    } finally {
      await first.stop();
    }

    const lines: string[] = [];
    const second = await startSandbox({ ...options, dataDir, log: (l) => lines.push(l) });
    try {
      expect(lines).toContainEqual(
        expect.stringMatching(/^CLOB state loaded from .*: 2 API keys, 1 resting orders, 1 trades$/),
      );
      expect(lines).toContain(`2 real fills restored from ${join(dataDir, 'market-fills.jsonl')}`);
      // The key derives again (same secret) and is listed as registered.
      expect(await client(second, a).deriveApiKey()).toEqual(aliceCreds);
      const alice = client(second, a, aliceCreds);
      const bob = client(second, b, bobCreds);
      expect((await alice.getApiKeys()).apiKeys).toContain(aliceCreds.key);
      // The resting bid: same id, what it matched before, on the book with what is left.
      expect(await alice.getOpenOrders({ market: market.conditionId })).toEqual([
        expect.objectContaining({
          id: bidId,
          status: 'LIVE',
          side: 'BUY',
          price: '0.55',
          original_size: '12',
          size_matched: '5',
        }),
      ]);
      expect((await bob.getOrderBook(yes)).bids).toEqual([{ price: '0.55', size: '7' }]);
      expect((await bob.getOrderBook(no)).asks).toEqual([{ price: '0.45', size: '7' }]);
      expect((await bob.getTrades({ market: market.conditionId })).map((t) => t.id)).toEqual(tradeIds);
      expect((await alice.getTrades({ market: market.conditionId }))[0]).toMatchObject({
        id: tradeIds[0],
        trader_side: 'MAKER',
        status: 'CONFIRMED',
      });
      // The real fill is on both tapes the aggregator serves (the generated history was made afresh).
      const [yesTape, noTape] = await tape(second, market.id);
      expect(yesTape).toContainEqual(realFill);
      expect(noTape).toContainEqual({ price: 0.45, volumeBase: 5, timestamp: realFill.timestamp });
      // The restored trade is in the public feed (Data API /trades), and is not announced again.
      const heard: string[] = [];
      const unsubscribe = second.clob.publicTrades.onTrade((t) => heard.push(t.id));
      const publicRows = (await (
        await fetch(`${second.profile.dataUrl}/trades?market=${market.conditionId}`)
      ).json()) as { proxyWallet: string; side: string; size: number }[];
      expect(publicRows.map((r) => [r.proxyWallet.toLowerCase(), r.side, r.size])).toEqual([
        [b.address.toLowerCase(), 'BUY', 5],
      ]);

      // The restored order still trades: Bob takes the other 7, and the chain moves the shares.
      const rest = await bob.createAndPostOrder({ tokenID: no, price: 0.45, size: 7, side: Side.BUY }, ticks);
      expect(rest).toMatchObject({ success: true, status: 'matched' });
      expect(await alice.getOpenOrders({ market: market.conditionId })).toEqual([]);
      expect(heard).toHaveLength(1);
      expect(tradeIds).not.toContain(heard[0]);
      unsubscribe();
      expect(await sharesOf(second, a.address, yes)).toBe(parseUnits('12', 6));
      expect(await sharesOf(second, b.address, no)).toBe(parseUnits('12', 6));
      expect((await alice.getTrades({ market: market.conditionId })).map((t) => t.status)).toEqual([
        'CONFIRMED',
        'CONFIRMED',
      ]);
    } finally {
      await second.stop();
    }

    // A state file that is not whole: refused, said plainly, set aside; the CLOB starts empty, the chain is kept.
    const stateFile = join(dataDir, CLOB_STATE_FILE);
    await writeFile(stateFile, '{"version":1,"orders":[');
    const refused: string[] = [];
    const third = await startSandbox({ ...options, dataDir, log: (l) => refused.push(l) });
    try {
      expect(refused).toContainEqual(
        expect.stringMatching(
          /^CLOB state in .*clob-state\.json refused: not valid JSON .*; starting with an empty CLOB \(the file is kept as .*\)$/,
        ),
      );
      expect(refused).toContain(`reusing the deployment in ${dataDir}`);
      await expect(client(third, a).deriveApiKey()).rejects.toThrow('Could not derive api key!');
      expect(third.clob.book(yes)!.bids).toEqual([]);
      expect(await sharesOf(third, a.address, yes)).toBe(parseUnits('12', 6));
      expect((await readdir(dataDir)).filter((f) => f.startsWith(`${CLOB_STATE_FILE}.refused-`))).toHaveLength(1);
    } finally {
      await third.stop();
    }
  }, 180_000);
});
