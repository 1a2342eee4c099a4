// Redeem: after a market resolves, winning shares pay $1 each from ConditionalTokens. This holds both outcomes
// (split from collateral), has the sandbox resolve the market (its admin route: on Polymarket the oracle does
// it), reads the resolution from the chain, plans the redeem and sends it.
//   PMDESK_PROFILE=profile.json node examples/redeem.mjs
import {
  actionContractsFor,
  positionBalances,
  redeemCalls,
  redeemPlan,
  resolutionOf,
  splitCalls,
} from '@pmdesk/toolkit';
import { Wallet } from 'ethers';
import { chainReader, loadNetwork, openMarkets, privateKeyOf, report, sendCalls } from './lib/setup.mjs';

const { json, profile, source } = loadNetwork();
// The last plain market of the list, so the other examples keep their open one.
const market = (await openMarkets(source, { plain: true })).at(-1);
const key = privateKeyOf(json, 2);
const holder = new Wallet(key).address;
const contracts = actionContractsFor(profile);
const positionMarket = {
  conditionId: market.conditionId,
  negRisk: Boolean(market.neg_risk),
  version: market.version ?? 'v1',
};
const tokenIds = market.position_tokens.map((t) => t.token_id);

await sendCalls(profile, key, splitCalls(positionMarket, contracts, 5_000_000n));

// Sandbox only: resolve the market, Yes winning.
const resolved = await fetch(`${json.gammaUrl}/admin/resolve`, {
  method: 'POST',
  body: JSON.stringify({ market: market.conditionId, outcome: 0 }),
});
if (!resolved.ok) throw new Error(`resolve: ${resolved.status} ${await resolved.text()}`);

const rpc = chainReader(profile);
try {
  const resolution = await resolutionOf(rpc, contracts.conditionalTokens, market.conditionId);
  const held = await positionBalances(rpc, contracts.conditionalTokens, holder, tokenIds);
  const plan = redeemPlan(held, resolution);
  console.log(`${market.question}: ${resolution.state}; holding ${held.join(' / ')} → ${plan.label}`);
  await sendCalls(profile, key, redeemCalls(positionMarket, contracts, resolution, held));
  const after = await positionBalances(rpc, contracts.conditionalTokens, holder, tokenIds);
  report({
    ok: resolution.state === 'resolved' && plan.result === 'won' && after.every((b) => b === 0n),
    payout: String(plan.payout),
  });
} finally {
  rpc.destroy();
}
