// Read markets: list events through the source the profile names (the aggregator, or Polymarket directly — the
// same MarketSource interface either way), then one market's order books, recent fills and hourly candles.
//   PMDESK_PROFILE=profile.json node examples/read-markets.mjs
import { loadNetwork, openMarkets, report } from './lib/setup.mjs';

const { source } = loadNetwork();
const [market] = await openMarkets(source);
if (!market) throw new Error('no open market');
console.log(`${source.kind} source; market: ${market.question}`);

const books = await source.getOrderBooks('polymarket', market.id);
const fills = await source.getFillHistory('polymarket', market.id);
const candles = await source.getCandles('polymarket', market.id, 0, '1h');
for (const [i, token] of market.position_tokens.entries()) {
  console.log(`  ${token.name}: last ${token.price}, ${fills[i]?.length ?? 0} fills`);
}
console.log(`  ${candles.length} hourly candles of ${market.position_tokens[0].name}`);

report({
  ok: typeof market.question === 'string' && Array.isArray(candles) && books !== undefined,
  market: market.question,
  candles: candles.length,
});
