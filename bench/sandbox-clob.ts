// `node --import tsx bench/sandbox-clob.ts`: how long the sandbox CLOB takes from POST /order to its answer,
// for an order that rests and for one that matches and settles on the chain (matchOrders mined), over HTTP
// with L2 auth, plus the in-process path the market simulator's bots use. Medians and 90th percentiles.
import { parseUnits, type Wallet } from 'ethers';
import { l2Request, signedOrderJson, startClobSandbox, type Creds } from '../tests/helpers/sandbox-clob';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 60);
const usdc = (amount: number): bigint => parseUnits(amount.toFixed(6), 6);

function stats(label: string, samples: number[]): void {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!.toFixed(1);
  console.log(
    `${label.padEnd(46)} median ${at(0.5).padStart(6)} ms   p90 ${at(0.9).padStart(6)} ms   (n=${samples.length})`,
  );
}

const sb = await startClobSandbox({ orderVersion: 2 });
try {
  const [alice, bob] = sb.wallets as [Wallet, Wallet];
  const creds = (w: Wallet): Creds => {
    const c = sb.server.apiKeyFor(w.address);
    return { key: c.apiKey, secret: c.secret, passphrase: c.passphrase };
  };
  const [A, B] = [creds(alice), creds(bob)];
  const [yes, no] = [sb.binary.tokens[0].tokenId, sb.binary.tokens[1].tokenId];
  const buy = (tokenId: string, price: number) => ({
    tokenId,
    side: 'BUY' as const,
    makerAmount: usdc(price * 10),
    takerAmount: usdc(10),
  });
  const body = (order: unknown, owner: string) =>
    JSON.stringify({ deferExec: false, postOnly: false, order, owner, orderType: 'GTC' });

  const resting: number[] = [];
  const settled: number[] = [];
  const inProcess: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    const bid = await signedOrderJson(sb, alice, buy(yes, 0.4));
    let t = performance.now();
    const rest = await l2Request(sb.server.url, alice, A, 'POST', '/order', body(bid, A.key));
    resting.push(performance.now() - t);
    if (rest.body.status !== 'live') throw new Error(JSON.stringify(rest.body));
    const taker = await signedOrderJson(sb, bob, buy(no, 0.6));
    t = performance.now();
    const fill = await l2Request(sb.server.url, bob, B, 'POST', '/order', body(taker, B.key));
    settled.push(performance.now() - t);
    if (fill.body.status !== 'matched' || fill.body.transactionsHashes.length !== 1)
      throw new Error(JSON.stringify(fill.body));

    // The bots' path: no HTTP, same checks and settlement.
    const bid2 = await signedOrderJson(sb, alice, buy(yes, 0.4));
    await sb.server.placeOrder(JSON.parse(body(bid2, A.key)), A.key);
    const taker2 = await signedOrderJson(sb, bob, buy(no, 0.6));
    t = performance.now();
    const inner = await sb.server.placeOrder(JSON.parse(body(taker2, B.key)), B.key);
    inProcess.push(performance.now() - t);
    if (inner.status !== 'matched') throw new Error(JSON.stringify(inner));
  }
  stats('POST /order, rests (HTTP, L2, chain checks)', resting);
  stats('POST /order, matches and settles on chain', settled);
  stats('placeOrder in-process, matches and settles', inProcess);
} finally {
  await sb.stop();
}
