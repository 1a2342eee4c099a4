// Place and cancel: a limit bid, built and signed locally (EIP-712, the order version the exchange runs), posted
// with the L2 API key, read back, then cancelled.
//   PMDESK_PROFILE=profile.json node examples/place-cancel.mjs
import { loadNetwork, openMarkets, privateKeyOf, report, tradingClient } from './lib/setup.mjs';

const { json, profile, source } = loadNetwork();
const client = await tradingClient(profile, privateKeyOf(json));
const [market] = await openMarkets(source);
const tokenId = market.position_tokens[0].token_id;

// Tick size, neg-risk and the fee rate are asked of the exchange unless given.
const order = await client.createOrder({ tokenId, side: 'BUY', price: 0.05, size: 20 });
const posted = await client.postOrder(order, { orderType: 'GTC' });
console.log(`posted ${posted.orderID}: ${posted.status}`);
const live = await client.getOrder(posted.orderID);
console.log(`on the book: ${live.side} ${live.original_size} @ ${live.price}, ${live.status}`);

const cancelled = await client.cancelOrder(posted.orderID);
const after = await client.getOrder(posted.orderID);
console.log(`cancelled: ${after.status}`);

report({
  ok: posted.status === 'live' && cancelled.canceled.includes(posted.orderID) && after.status === 'CANCELED',
  orderID: posted.orderID,
});
