// Resolving a sandbox market on command, as UMA and Polymarket's operator would: the CLOB closes it (no new
// orders, resting ones cancelled), the operator — the oracle every sandbox condition was prepared with —
// reports the payouts on ConditionalTokens, and the catalog marks it resolved, which Gamma, the aggregator and
// the CLOB's market reads all show (closed, "resolved", prices 1 and 0). Holders then redeem on the chain.
import { Contract, Wallet } from 'ethers';
import { TX_OVERRIDES, conditionalTokensArtifact, sandboxProvider, type Deployment } from './chain/index';
import type { ClobServer } from './clob/server';
import type { Catalog, CatalogMarket } from './market/catalog';

/** What a resolution did: the winner, the payouts per outcome as reported on the chain, the cancelled orders. */
export interface ResolutionReport {
  marketId: string;
  slug: string;
  question: string;
  conditionId: string;
  questionId: string;
  winner: { index: 0 | 1; name: string; tokenId: string };
  /** Per outcome, in the market's order: the payout numerator reported and what one share redeems for (pUSD). */
  payouts: { outcome: string; tokenId: string; numerator: string; perShare: string }[];
  payoutDenominator: string;
  transactionHash: string;
  /** Resting orders the CLOB cancelled when it closed the market. */
  cancelledOrders: string[];
  resolvedAt: string;
}

export interface ResolveParts {
  deployment: Deployment;
  catalog: Catalog;
  clob: ClobServer;
  now?: () => number;
}

/** A market by catalog id, slug or condition id. */
export function findMarket(catalog: Catalog, idOrSlug: string): CatalogMarket | undefined {
  return (
    catalog.market(idOrSlug) ??
    catalog.marketByCondition(idOrSlug) ??
    catalog.events
      .flatMap((e) => e.markets)
      .find((m) => m.slug === idOrSlug || m.conditionId.toLowerCase() === idOrSlug.toLowerCase())
  );
}

/** The outcome index for "Yes"/"No" (any case), an outcome's name, or "0"/"1". */
export function outcomeIndex(market: CatalogMarket, outcome: string | number): 0 | 1 {
  if (outcome === 0 || outcome === 1) return outcome;
  const text = String(outcome).trim().toLowerCase();
  if (text === '0' || text === '1') return Number(text) as 0 | 1;
  const found = market.tokens.find((t) => t.name.toLowerCase() === text);
  if (!found) throw new Error(`unknown outcome "${outcome}": one of ${market.tokens.map((t) => t.name).join(', ')}`);
  return found.index as 0 | 1;
}

/**
 * Resolves one market: `winningOutcomeIndex` (0 = the first outcome, Yes) pays 1 pUSD a share, the other 0.
 * A neg-risk event's other markets are left as they are: resolve each (the losers with No).
 */
export async function resolveMarket(
  parts: ResolveParts,
  marketIdOrSlug: string,
  winningOutcomeIndex: 0 | 1,
): Promise<ResolutionReport> {
  const { deployment, catalog, clob } = parts;
  const market = findMarket(catalog, marketIdOrSlug);
  if (!market) throw new Error(`no market ${marketIdOrSlug}`);
  if (winningOutcomeIndex !== 0 && winningOutcomeIndex !== 1) throw new Error('the winning outcome index is 0 or 1');
  if (market.resolution) throw new Error(`market ${market.id} is already resolved`);
  const onChain = deployment.markets.find((m) => m.conditionId === market.conditionId);
  if (!onChain) throw new Error(`market ${market.id} has no condition on the chain`);

  const provider = sandboxProvider(deployment.rpcUrl, deployment.chainId);
  try {
    const oracle = new Wallet(deployment.operator.privateKey, provider);
    const ctf = new Contract(deployment.contracts.conditionalTokens, conditionalTokensArtifact().abi, oracle);
    if (((await ctf.getFunction('payoutDenominator')(market.conditionId)) as bigint) > 0n) {
      throw new Error(`market ${market.id} was already resolved on the chain`);
    }
    const numerators = market.tokens.map((t) => (t.index === winningOutcomeIndex ? 1n : 0n));
    const { cancelled, result: transactionHash } = await clob.closeMarket(
      market.conditionId,
      winningOutcomeIndex,
      async () => {
        const tx = await ctf.getFunction('reportPayouts')(onChain.questionId, numerators, TX_OVERRIDES);
        const receipt = await tx.wait();
        if (!receipt || receipt.status !== 1) throw new Error('reportPayouts failed');
        return tx.hash as string;
      },
    );
    const resolvedAt = new Date((parts.now ?? Date.now)()).toISOString();
    market.closed = true;
    market.acceptingOrders = false;
    market.resolution = { winner: winningOutcomeIndex, at: resolvedAt };

    const denominator = (await ctf.getFunction('payoutDenominator')(market.conditionId)) as bigint;
    const reported = await Promise.all(
      market.tokens.map((t) => ctf.getFunction('payoutNumerators')(market.conditionId, t.index) as Promise<bigint>),
    );
    const winner = market.tokens[winningOutcomeIndex];
    return {
      marketId: market.id,
      slug: market.slug,
      question: market.question,
      conditionId: market.conditionId,
      questionId: onChain.questionId,
      winner: { index: winningOutcomeIndex, name: winner.name, tokenId: winner.tokenId },
      payouts: market.tokens.map((t, i) => ({
        outcome: t.name,
        tokenId: t.tokenId,
        numerator: reported[i]!.toString(),
        perShare: denominator > 0n ? (Number(reported[i]!) / Number(denominator)).toString() : '0',
      })),
      payoutDenominator: denominator.toString(),
      transactionHash,
      cancelledOrders: cancelled,
      resolvedAt,
    };
  } finally {
    provider.destroy();
  }
}
