// A wallet's trades through the contract are told from its own side, whether it took or made them.
import { describe, expect, it } from 'vitest';
import { tradeAsSeenBy } from '../../src/main/trading/trading-access';

const ME = '0x00000000000000000000000000000000000000Aa';
const trade = {
  id: 't1',
  market: '0xc0',
  asset_id: 'yes',
  side: 'BUY',
  price: '0.55',
  size: '10',
  status: 'CONFIRMED',
  match_time: '1790000000',
  trader_side: 'TAKER',
  maker_orders: [
    {
      maker_address: '0x00000000000000000000000000000000000000bb',
      asset_id: 'no',
      side: 'BUY',
      price: '0.45',
      matched_amount: '6',
    },
    { maker_address: ME.toLowerCase(), asset_id: 'yes', side: 'SELL', price: '0.5', matched_amount: '3' },
    { maker_address: ME, asset_id: 'yes', side: 'SELL', price: '0.6', matched_amount: '1' },
  ],
};

describe('trades from the wallet’s own side', () => {
  it('as the taker: the trade as listed', () => {
    expect(tradeAsSeenBy(ME, trade)).toEqual({
      tradeId: 't1',
      conditionId: '0xc0',
      status: 'CONFIRMED',
      matchedAt: 1_790_000_000,
      tokenId: 'yes',
      side: 'BUY',
      price: 0.55,
      size: 10,
      pending: false,
    });
  });

  it('pending until CONFIRMED; a FAILED trade is not pending', () => {
    expect(tradeAsSeenBy(ME, { ...trade, status: 'MATCHED' }).pending).toBe(true);
    expect(tradeAsSeenBy(ME, { ...trade, status: 'MINED' }).pending).toBe(true);
    expect(tradeAsSeenBy(ME, { ...trade, status: 'RETRYING' }).pending).toBe(true);
    expect(tradeAsSeenBy(ME, { ...trade, status: 'FAILED' }).pending).toBe(false);
  });

  it('as a maker: its own legs, size summed and price weighted', () => {
    const seen = tradeAsSeenBy(ME, { ...trade, trader_side: 'MAKER' });
    expect(seen).toMatchObject({ tokenId: 'yes', side: 'SELL', size: 4 });
    expect(seen.price).toBeCloseTo((0.5 * 3 + 0.6 * 1) / 4, 10);
  });

  it('as a maker whose legs name no side: the opposite of the taker on the same outcome', () => {
    const legs = [{ maker_address: ME, asset_id: 'yes', price: '0.5', matched_amount: '2' }];
    expect(tradeAsSeenBy(ME, { ...trade, trader_side: 'MAKER', maker_orders: legs })).toMatchObject({
      side: 'SELL',
      size: 2,
      price: 0.5,
    });
  });

  it('as a maker on the other outcome with no side named: the same side as the taker (a mint)', () => {
    const legs = [{ maker_address: ME, asset_id: 'no', price: '0.45', matched_amount: '5' }];
    expect(tradeAsSeenBy(ME, { ...trade, trader_side: 'MAKER', maker_orders: legs })).toMatchObject({
      tokenId: 'no',
      side: 'BUY',
      size: 5,
      price: 0.45,
    });
  });
});
