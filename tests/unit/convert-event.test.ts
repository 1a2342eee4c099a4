// A negative-risk event's outcomes as a conversion names them: question indexes from Gamma's negRiskMarketID and
// questionID (never from the order the markets are listed in), the trader's choice by label, question or index,
// and the refusals: not a negative-risk event, ids the source does not state, an unknown, ambiguous or repeated
// outcome, and an index set outside the event.
import { describe, expect, it } from 'vitest';
import type { Market, PredictionEvent } from '../../packages/toolkit/src/model/market-model';
import { chooseOutcomes, convertEventOf } from '../../packages/toolkit/src/positions/convert-event';
import { convertIndexSet, questionIdOf } from '../../packages/toolkit/src/positions/convert-calls';

const MARKET_ID = `0x${'ab'.repeat(31)}00`;

function market(id: string, name: string, index: number | null): Market {
  return {
    id,
    name,
    question: `Will it be ${name}?`,
    end: '',
    description: '',
    image: '',
    icon: '',
    groupItemTitle: name,
    neg_risk: true,
    negRiskMarketId: MARKET_ID,
    ...(index === null ? {} : { questionId: questionIdOf(MARKET_ID, index) }),
    position_tokens: [
      { token_id: `${id}1`, name: 'Yes' },
      { token_id: `${id}2`, name: 'No' },
    ] as Market['position_tokens'],
  };
}

function event(markets: Market[], extra: Partial<PredictionEvent> = {}): PredictionEvent {
  return {
    id: '9001',
    protocol: 'polymarket',
    region: '',
    slug: 'fed',
    title: 'Fed decision?',
    description: '',
    startDate: '',
    creationDate: '',
    endDate: '',
    image: '',
    icon: '',
    neg_risk: true,
    negRiskMarketId: MARKET_ID,
    markets,
    ...extra,
  };
}

const fed = () => event([market('3', '50+ bps cut', 2), market('1', 'No change', 0), market('2', '25 bps cut', 1)]);

describe('convertEventOf', () => {
  it('orders the outcomes by their question index on the adapter, not by how the source lists them', () => {
    const read = convertEventOf(fed());
    expect(read.marketId).toBe(MARKET_ID);
    expect(read.outcomes.map((o) => [o.index, o.name, o.yesTokenId, o.noTokenId])).toEqual([
      [0, 'No change', '11', '12'],
      [1, '25 bps cut', '21', '22'],
      [2, '50+ bps cut', '31', '32'],
    ]);
  });

  it('refuses an event that is not negative-risk, and one whose source states no ids (the aggregator)', () => {
    expect(() => convertEventOf(event([], { neg_risk: false, negRiskMarketId: undefined }))).toThrow(
      /not a negative-risk event/,
    );
    const bare = { ...market('1', 'No change', null), negRiskMarketId: undefined };
    expect(() => convertEventOf(event([bare], { negRiskMarketId: undefined }))).toThrow(
      /does not state its neg-risk market id/,
    );
    expect(() => convertEventOf(event([market('1', 'No change', null)]))).toThrow(/does not state its question id/);
  });
});

describe('chooseOutcomes', () => {
  it('takes labels in any case, questions and indexes, comma-separated', () => {
    const chosen = chooseOutcomes(convertEventOf(fed()), ' no CHANGE , 2,Will it be 25 bps cut?');
    expect(chosen.map((o) => o.index)).toEqual([0, 2, 1]);
  });

  it('refuses nothing named, an unknown outcome (naming the choices) and one named twice', () => {
    const read = convertEventOf(fed());
    expect(() => chooseOutcomes(read, ' , ')).toThrow(/at least one outcome/);
    expect(() => chooseOutcomes(read, '75 bps cut')).toThrow(
      /No outcome is named 75 bps cut in this event: 0 No change, 1 25 bps cut, 2 50\+ bps cut/,
    );
    expect(() => chooseOutcomes(read, 'No change,0')).toThrow(/No change is named twice/);
  });
});

describe('convertIndexSet', () => {
  it('sets bit i for question i and refuses none, out of range and twice', () => {
    expect(convertIndexSet([0, 2], 3)).toBe(5n);
    expect(convertIndexSet([1], 4)).toBe(2n);
    expect(() => convertIndexSet([], 3)).toThrow(/at least one outcome/);
    expect(() => convertIndexSet([3], 3)).toThrow(/not in this event/);
    expect(() => convertIndexSet([1.5], 3)).toThrow(/not in this event/);
    expect(() => convertIndexSet([1, 1], 3)).toThrow(/chosen twice/);
  });
});
