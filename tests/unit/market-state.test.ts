// A market's state in words (issue 27, defect 1): from its resolution, closing and taking orders, never from
// `active` alone (Gamma keeps `active: true` after a market resolves), the same words in the CLI, the grid, the
// header and the ticket.
import { describe, expect, it } from 'vitest';
import { marketState } from '../../packages/toolkit/src/model/market-state';
import { GammaMarketSchema } from '../../packages/toolkit/src/polymarket/gamma-schemas';
import { parseAnswer } from '../../packages/toolkit/src/polymarket/http';
import { toMarket } from '../../packages/toolkit/src/polymarket/mapping';
import { rowOfMarket } from '../../src/renderer/src/model/market-rows';
import { NO_TOKEN, YES_TOKEN, gammaMarket } from '../helpers/polymarket-fixtures';

const fromGamma = (fields: Record<string, unknown>) =>
  toMarket(parseAnswer(GammaMarketSchema, gammaMarket(fields), 'test'));
const resolvedFields = { active: true, closed: true, acceptingOrders: false, umaResolutionStatus: 'resolved' };

describe('market state in words', () => {
  it('reads a resolved market that Gamma still calls active as resolved, naming the winning outcome', () => {
    const yes = fromGamma({ ...resolvedFields, outcomePrices: '["1","0"]' });
    expect(yes).toMatchObject({ active: true, resolved: true, winnerTokenId: YES_TOKEN });
    expect(marketState(yes)).toEqual({ words: 'Resolved: Yes', tone: 'resolved' });
    const no = fromGamma({ ...resolvedFields, outcomePrices: '["0","1"]' });
    expect(no.winnerTokenId).toBe(NO_TOKEN);
    expect(marketState(no).words).toBe('Resolved: No');
  });

  it('names no winner where the final prices name none (a 50-50 settlement)', () => {
    const even = fromGamma({ ...resolvedFields, outcomePrices: '["0.5","0.5"]' });
    expect(even.winnerTokenId).toBeUndefined();
    expect(marketState(even).words).toBe('Resolved');
  });

  it('a closed market whose outcome is only proposed is closed, awaiting resolution', () => {
    const proposed = fromGamma({
      active: true,
      closed: true,
      acceptingOrders: false,
      umaResolutionStatus: 'proposed',
      outcomePrices: '["0.9995","0.0005"]',
    });
    expect(proposed.resolved).toBeUndefined();
    expect(marketState(proposed)).toEqual({ words: 'Closed — awaiting resolution', tone: 'closed' });
  });

  it('an open market is Open; one that does not take orders says so', () => {
    expect(marketState(fromGamma({})).words).toBe('Open');
    expect(marketState(fromGamma({ acceptingOrders: false })).words).toBe('Not taking orders');
  });

  it('the grid row carries the same words', () => {
    expect(
      rowOfMarket(fromGamma({ ...resolvedFields, outcomePrices: '["1","0"]' }), undefined, 'polymarket').state,
    ).toEqual({ words: 'Resolved: Yes', tone: 'resolved' });
    expect(rowOfMarket(fromGamma({}), undefined, 'polymarket').state?.words).toBe('Open');
  });
});
