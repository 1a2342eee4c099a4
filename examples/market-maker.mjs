// A simple market-making loop with the dead-man switch: quote a bid on each outcome a little under the market,
// re-quote every cycle, and beat the exchange's heartbeat all along. The heartbeat is the safety net: if this
// process dies (here: it simply stops beating), the exchange cancels every order of the key after its timeout
// (10 s on Polymarket), so no stale quote is left on the book.
//   PMDESK_PROFILE=profile.json node examples/market-maker.mjs
import { loadNetwork, openMarkets, privateKeyOf, report, tradingClient } from './lib/setup.mjs';

const CYCLES = process.env.PMDESK_EXAMPLE_QUICK ? 3 : 20;
const CYCLE_MS = 1_500;
const HALF_SPREAD = 0.02;
const SIZE = 10;

const { json, profile, source } = loadNetwork();
const [market] = await openMarkets(source);
const [yes, no] = market.position_tokens.map((t) => t.token_id);
const client = await tradingClient(profile, privateKeyOf(json, 3));
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const roundTick = (p) => Math.min(0.98, Math.max(0.01, Math.round(p * 100) / 100));

// The first beat ('' ) arms the switch; each answer names the id to send next.
let heartbeatId = '';
const beat = async () => {
  heartbeatId = (await client.postHeartbeat(heartbeatId)).heartbeat_id;
};
await beat();
const heart = setInterval(() => beat().catch((e) => console.error(`heartbeat: ${e.message}`)), 3_000);

let quoted = 0;
for (let cycle = 0; cycle < CYCLES; cycle++) {
  const mid = Number((await source.getMarket('polymarket', market.id)).position_tokens[0].price) || 0.5;
  await client.cancelMarketOrders({ market: market.conditionId });
  const bids = [
    { tokenId: yes, price: roundTick(mid - HALF_SPREAD) },
    { tokenId: no, price: roundTick(1 - mid - HALF_SPREAD) },
  ];
  const orders = await Promise.all(
    bids.map(async (b) => ({ order: await client.createOrder({ ...b, side: 'BUY', size: SIZE }), orderType: 'GTC' })),
  );
  await client.postOrders(orders);
  const open = await client.getOpenOrders({ market: market.conditionId });
  quoted = Math.max(quoted, open.length);
  console.log(
    `cycle ${cycle + 1}: mid ${mid.toFixed(2)}, bids ${bids.map((b) => b.price.toFixed(2)).join(' / ')}, ${open.length} open`,
  );
  await sleep(CYCLE_MS);
}

// The process "dies": no more heartbeats and no cancel. The exchange's switch takes the quotes down.
clearInterval(heart);
const stopped = Date.now();
let open = await client.getOpenOrders({ market: market.conditionId });
while (open.length > 0 && Date.now() - stopped < 30_000) {
  await sleep(1_000);
  open = await client.getOpenOrders({ market: market.conditionId });
}
console.log(`heartbeats stopped: ${open.length} orders open after ${((Date.now() - stopped) / 1000).toFixed(0)} s`);
report({ ok: quoted === 2 && open.length === 0, quoted, openAfterSwitch: open.length });
