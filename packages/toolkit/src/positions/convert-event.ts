// A negative-risk event's outcomes as a conversion names them: each market's question index on the neg-risk
// adapter (its question id less the event's market id, as Gamma states both), its name and its Yes and No
// tokens; and the trader's choice of outcomes ("No change, 2" — by name or index) read against them.
import { ErrorCode, PmDeskError, invalidParameter } from '../model/errors';
import type { Market, PredictionEvent } from '../model/market-model';

export interface ConvertOutcome {
  /** The question's index in the event on the adapter (bit `index` of the conversion's index set). */
  index: number;
  /** The short label ("25 bps cut"), else the question. */
  name: string;
  market: Market;
  yesTokenId: string;
  noTokenId: string;
}

export interface ConvertEvent {
  marketId: string;
  title: string;
  outcomes: ConvertOutcome[];
}

const BYTES32 = /^0x[0-9a-fA-F]{64}$/;

/**
 * The event's outcomes by question index; refused when the event is not negative-risk or its source does not
 * state the ids a conversion needs (the aggregator's events do not carry them).
 */
export function convertEventOf(event: PredictionEvent): ConvertEvent {
  const marketId = event.negRiskMarketId ?? event.markets.find((m) => m.negRiskMarketId)?.negRiskMarketId;
  if (event.neg_risk !== true && !marketId)
    throw invalidParameter(`The event ${event.id} (${event.title}) is not a negative-risk event: nothing converts.`);
  if (!marketId || !BYTES32.test(marketId))
    throw new PmDeskError(
      ErrorCode.NOT_AVAILABLE,
      `The event ${event.id} does not state its neg-risk market id here (Gamma's negRiskMarketID): read the event from Polymarket direct (pmdesk: --source polymarket).`,
    );
  const outcomes = event.markets.map((market): ConvertOutcome => {
    if (!market.questionId || !BYTES32.test(market.questionId))
      throw new PmDeskError(
        ErrorCode.NOT_AVAILABLE,
        `The market ${market.id} of event ${event.id} does not state its question id (Gamma's questionID): read the event from Polymarket direct (pmdesk: --source polymarket).`,
      );
    const index = BigInt(market.questionId) - BigInt(marketId);
    if (index < 0n || index > 255n)
      throw new PmDeskError(
        ErrorCode.VALIDATION_ERROR,
        `The market ${market.id}'s question id is not one of event ${event.id}'s questions on the neg-risk adapter.`,
      );
    const [yes, no] = market.position_tokens;
    if (!yes || !no || market.position_tokens.length !== 2)
      throw invalidParameter(`The market ${market.id} is not a Yes/No market.`);
    return {
      index: Number(index),
      name: market.name || market.question,
      market,
      yesTokenId: yes.token_id,
      noTokenId: no.token_id,
    };
  });
  outcomes.sort((a, b) => a.index - b.index);
  return { marketId: marketId.toLowerCase(), title: event.title, outcomes };
}

/**
 * The outcomes a trader names, comma-separated, each by its question index or its name (the short label or the
 * question, any case); an unknown or ambiguous name is refused naming the choices.
 */
export function chooseOutcomes(event: ConvertEvent, text: string): ConvertOutcome[] {
  const parts = text
    .split(',')
    .map((p) => p.trim())
    .filter((p) => p !== '');
  if (parts.length === 0) throw invalidParameter('Name at least one outcome whose No shares you give.');
  const choices = event.outcomes.map((o) => `${o.index} ${o.name}`).join(', ');
  const chosen = parts.map((part) => {
    const byIndex = /^[0-9]{1,3}$/.test(part) ? event.outcomes.filter((o) => o.index === Number(part)) : [];
    const lower = part.toLowerCase();
    const byName = event.outcomes.filter(
      (o) => o.name.toLowerCase() === lower || o.market.question.toLowerCase() === lower,
    );
    const found = byIndex.length ? byIndex : byName;
    if (found.length !== 1)
      throw invalidParameter(
        `${found.length ? 'Several outcomes are' : 'No outcome is'} named ${part.slice(0, 60)} in this event: ${choices}.`,
      );
    return found[0]!;
  });
  const seen = new Set<number>();
  for (const o of chosen) {
    if (seen.has(o.index)) throw invalidParameter(`${o.name} is named twice.`);
    seen.add(o.index);
  }
  return chosen;
}
