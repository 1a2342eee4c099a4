// Market order: spend a dollar amount at the best prices on the book, all or nothing (FOK). The toolkit prices
// it from the book (the worst level the amount reaches) and signs it like any order. For the sandbox, whose
// books start empty, a second wallet first makes the market: it splits collateral into both outcomes on the
// chain and offers its Yes shares.
//   PMDESK_PROFILE=profile.json node examples/market-order.mjs
import { actionContractsFor, splitCalls } from '@pmdesk/toolkit';
import { loadNetwork, openMarkets, privateKeyOf, report, sendCalls, tradingClient } from './lib/setup.mjs';

const { json, profile, source } = loadNetwork();
const [market] = await openMarkets(source, { plain: true });
const yes = market.position_tokens[0].token_id;

// The maker: 10 Yes + 10 No from $10 of collateral, then an offer of the Yes shares at 0.60.
const makerKey = privateKeyOf(json, 1);
const positionMarket = {
  conditionId: market.conditionId,
  negRisk: Boolean(market.neg_risk),
  version: market.version ?? 'v1',
};
await sendCalls(profile, makerKey, splitCalls(positionMarket, actionContractsFor(profile), 10_000_000n));
const maker = await tradingClient(profile, makerKey);
const offer = await maker.postOrder(await maker.createOrder({ tokenId: yes, side: 'SELL', price: 0.6, size: 10 }), {
  orderType: 'GTC',
});

// The taker: $3 of Yes at market.
const taker = await tradingClient(profile, privateKeyOf(json, 0));
const order = await taker.createMarketOrder({ tokenId: yes, side: 'BUY', amount: 3 }, { orderType: 'FOK' });
const fill = await taker.postOrder(order, { orderType: 'FOK' });
console.log(`${market.question}: bought ${fill.takingAmount} Yes for $${fill.makingAmount} (${fill.status})`);

await maker.cancelOrder(offer.orderID);
report({
  ok: fill.status === 'matched' && Number(fill.takingAmount) === 5,
  spent: fill.makingAmount,
  shares: fill.takingAmount,
});
