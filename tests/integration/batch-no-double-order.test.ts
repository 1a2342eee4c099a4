// Batch posts follow the single-order rule: a POST /orders whose answer is lost is reconciled order by order by
// hash (nothing re-signed, nothing placed twice), and when the exchange goes away after taking the batch, the
// answer is "may be live" naming every hash — and the exchange indeed holds each order once.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Wallet } from 'ethers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ClobClient } from '../../packages/toolkit/src/clob/client';
import { isOrderInDoubt, postOrdersOnce } from '../../packages/toolkit/src/clob/post-once';
import { parseNetworkProfile } from '../../packages/toolkit/src/chain/networks';
import { silentLogger } from '../../packages/toolkit/src/base/logger';
import { privateKeySigner } from '../../packages/toolkit/src/orders/signer';
import { startClobSandbox, type ClobSandbox } from '../helpers/sandbox-clob';
import { ForwardingProxy } from '../helpers/forwarding-proxy';

/** Forwards to the sandbox CLOB; the next POST /orders has its answer cut ('lose-answer'), or the exchange then stays away ('go-down'). */
class BatchProxy extends ForwardingProxy {
  fault: 'lose-answer' | 'go-down' | undefined;
  forwardedBatches = 0;

  protected async onRequest(req: IncomingMessage, res: ServerResponse, body: string): Promise<void> {
    const isBatch = ForwardingProxy.isPost(req, '/orders');
    const answer = await this.forward(req, body);
    if (isBatch) this.forwardedBatches++;
    if (isBatch && this.fault) {
      if (this.fault === 'go-down') this.down = true;
      this.fault = undefined;
      req.socket.destroy();
      return;
    }
    ForwardingProxy.reply(res, answer);
  }
}

let sb: ClobSandbox;
let proxy: BatchProxy;
let client: ClobClient;
let direct: ClobClient;

beforeAll(async () => {
  sb = await startClobSandbox({ orderVersion: 2 });
  proxy = new BatchProxy(sb.server.url);
  await proxy.start();
  const alice = sb.wallets[0] as Wallet;
  const network = parseNetworkProfile({
    name: 'sandbox',
    chainId: sb.chain.chainId,
    orderVersion: 2,
    contracts: sb.chain.contracts,
  });
  const c = sb.server.apiKeyFor(alice.address);
  const base = {
    chainId: network.chainId,
    networks: [network],
    signer: privateKeySigner(alice.privateKey),
    creds: { key: c.apiKey, secret: c.secret, passphrase: c.passphrase },
    throwOnError: true,
    logger: silentLogger,
  };
  client = new ClobClient({ ...base, host: proxy.url });
  direct = new ClobClient({ ...base, host: sb.server.url });
}, 120_000);
afterAll(async () => {
  await proxy?.stop();
  await sb?.stop();
});

const yes = () => sb.binary.tokens[0].tokenId;
const batchOf = async (prices: number[]) =>
  Promise.all(
    prices.map(async (price) => ({
      order: await client.createOrder({ tokenId: yes(), side: 'BUY' as const, price, size: 10 }, { version: 2 }),
      tokenId: yes(),
    })),
  );
const openHashes = async () =>
  ((await direct.getOpenOrders({ asset_id: yes() })) as { id: string }[]).map((o) => o.id).sort();

describe('postOrdersOnce', () => {
  it('a batch whose answer is lost is found order by order by hash, and posted once', async () => {
    const batch = await batchOf([0.11, 0.12]);
    proxy.forwardedBatches = 0;
    proxy.fault = 'lose-answer';
    const posted = await postOrdersOnce(client, batch);
    expect(posted).toEqual(batch.map((b) => ({ orderID: b.order.orderHash, status: 'LIVE', reconciled: true })));
    expect(proxy.forwardedBatches).toBe(1);
    expect(await openHashes()).toEqual(batch.map((b) => b.order.orderHash).sort());
    await direct.cancelAll();
  });

  it('a batch answered at once is taken as answered', async () => {
    const batch = await batchOf([0.13, 0.14]);
    const posted = await postOrdersOnce(client, batch);
    expect(posted.map((p) => [p.orderID, p.reconciled])).toEqual(batch.map((b) => [b.order.orderHash, false]));
    await direct.cancelAll();
  });

  it('when the exchange goes away after taking the batch, every order may be live, named by hash', async () => {
    const batch = await batchOf([0.15, 0.16]);
    proxy.forwardedBatches = 0;
    proxy.fault = 'go-down';
    const failed = await postOrdersOnce(client, batch).catch((e: unknown) => e);
    proxy.down = false;
    expect(isOrderInDoubt(failed)).toBe(true);
    const hashes = batch.map((b) => b.order.orderHash);
    expect((failed as { context: { orderHashes: string[] } }).context.orderHashes).toEqual(hashes);
    for (const hash of hashes) expect((failed as Error).message).toContain(hash);
    expect((failed as Error).message).toContain('may be live');
    expect(proxy.forwardedBatches).toBe(1);
    expect(await openHashes()).toEqual([...hashes].sort());
    await direct.cancelAll();
  });
});
