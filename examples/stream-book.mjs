// Stream a book: the exchange's market channel (`${wsUrl}/market`) sends a `book` snapshot per token, then
// `price_change` deltas. A bid is placed and cancelled here so the stream has something to say; the REST book's
// hash is checked with the toolkit's orderBookHash, as a client resyncing its own book would.
//   PMDESK_PROFILE=profile.json node examples/stream-book.mjs
import { orderBookHash } from '@pmdesk/toolkit';
import { loadNetwork, openMarkets, privateKeyOf, report, tradingClient } from './lib/setup.mjs';

const { json, profile, source } = loadNetwork();
const [market] = await openMarkets(source);
const tokenId = market.position_tokens[0].token_id;
// Browsers and Node ≥ 22 have a WebSocket; Node 20 takes the `ws` package (installed with the toolkit).
const WebSocketImpl = globalThis.WebSocket ?? (await import('ws')).WebSocket;

const socket = new WebSocketImpl(`${json.wsUrl}/market`);
const seen = { snapshot: undefined, hashMatches: false, changes: 0 };
let done = false;
const changed = new Promise((resolve, reject) => {
  setTimeout(() => reject(new Error('no price_change within 20 s')), 20_000).unref?.();
  socket.addEventListener('open', () => socket.send(JSON.stringify({ assets_ids: [tokenId], type: 'market' })));
  socket.addEventListener('message', ({ data }) => {
    // Messages already on their way still arrive while the socket closes: nothing is printed after the report.
    if (done || String(data) === 'PONG') return;
    // One event or an array of them.
    for (const event of [JSON.parse(String(data))].flat()) {
      if (event.event_type === 'book' && !seen.snapshot) {
        seen.snapshot = event;
        console.log(
          `book of ${market.question} (${market.position_tokens[0].name}): ${event.bids.length} bids, ${event.asks.length} asks`,
        );
      } else if (event.event_type === 'price_change') {
        seen.changes += 1;
        for (const change of event.price_changes ?? event.changes ?? [])
          console.log(`  ${change.side} ${change.price}: size now ${change.size}`);
        resolve();
      }
    }
  });
  socket.addEventListener('error', () => reject(new Error('market channel failed')));
});

// Wait for the snapshot, then move the book.
while (!seen.snapshot) await new Promise((r) => setTimeout(r, 50));
const client = await tradingClient(profile, privateKeyOf(json));
const rest = await client.getOrderBook(tokenId);
seen.hashMatches = orderBookHash(rest) === rest.hash;
const posted = await client.postOrder(await client.createOrder({ tokenId, side: 'BUY', price: 0.03, size: 25 }), {
  orderType: 'GTC',
});
await changed;
await client.cancelOrder(posted.orderID);
done = true;
socket.close();

report({ ok: seen.changes > 0 && seen.snapshot !== undefined && seen.hashMatches, changes: seen.changes });
