// The ticket's and the account panel's pure logic: cents and prices, snapping to the tick, the local
// estimate and the order the ticket sends, the "open this market" link, CSV quoting, and PnL.
import { describe, expect, it } from 'vitest';
import {
  centsToPrice,
  draftOrder,
  estimateOrder,
  snapToTick,
  nearestValidPrices,
  priceBounds,
  availableAfterOrders,
  quickAmount,
  toWin,
  tickChangeWarning,
  isTickSize,
  type MarketTerms,
  type TicketInput,
} from '../../src/renderer/src/components/ticket/order-math';
import {
  csvField,
  positionFigures,
  positionPnl,
  positionsCsv,
  toCsv,
  tradesCsv,
  tradesSignature,
} from '../../src/renderer/src/model/account-math';
import { selectionFromHash } from '../../src/renderer/src/store/selection';
import type { PositionInfo, TradeInfo } from '../../src/shared/contract';
import { formatUsd, priceToCents } from '../../src/renderer/src/format/numbers';

describe('cents and prices', () => {
  it('reads cents as the trader types them', () => {
    expect(centsToPrice('45')).toBe(0.45);
    expect(centsToPrice(' 45.5¢ ')).toBe(0.455);
    expect(centsToPrice('.5')).toBe(0.005);
    expect(centsToPrice('7')).toBe(0.07);
    for (const bad of ['', 'abc', '-5', '4,5', '1e2', '4.5.1']) expect(centsToPrice(bad)).toBeNull();
  });

  it('writes prices as cents with the decimals the tick allows', () => {
    expect(priceToCents(0.45, '0.01')).toBe('45');
    expect(priceToCents(0.455, '0.001')).toBe('45.5');
    expect(priceToCents(0.4567, '0.0001')).toBe('45.67');
    expect(priceToCents(0.3, '0.1')).toBe('30');
    // 0.07 * 100 is 7.000000000000001 in floating point: never shown as such.
    expect(priceToCents(0.07, '0.01')).toBe('7');
  });
});

describe('snapping to the tick', () => {
  it('rounds to the nearest tick, without float error on halves', () => {
    expect(snapToTick(0.453, '0.01')).toBe(0.45);
    expect(snapToTick(0.456, '0.01')).toBe(0.46);
    expect(snapToTick(0.285, '0.01')).toBe(0.29);
    expect(snapToTick(0.4567, '0.001')).toBe(0.457);
    expect(snapToTick(0.34, '0.1')).toBe(0.3);
    expect(snapToTick(0.12345, '0.0001')).toBe(0.1235);
  });

  it('knows the half-cent and quarter-cent ticks the order builder knows (one list, src/shared/market-rules)', () => {
    expect(isTickSize('0.005')).toBe(true);
    expect(isTickSize('0.0025')).toBe(true);
    expect(snapToTick(0.4771, '0.005')).toBe(0.475);
    expect(snapToTick(0.4788, '0.005')).toBe(0.48);
    expect(snapToTick(0.4763, '0.0025')).toBe(0.4775);
    expect(priceToCents(0.475, '0.005')).toBe('47.5');
    expect(priceToCents(0.4775, '0.0025')).toBe('47.75');
  });

  it('keeps the price between one tick and one minus one tick', () => {
    expect(snapToTick(0.001, '0.01')).toBe(0.01);
    expect(snapToTick(0.999, '0.01')).toBe(0.99);
    expect(snapToTick(0.02, '0.1')).toBe(0.1);
    expect(snapToTick(0.99995, '0.0001')).toBe(0.9999);
  });
});

describe('a price off the tick is refused with the two nearest valid prices, never changed', () => {
  const terms: MarketTerms = {
    marketId: '90021',
    tokenId: '123',
    tickSize: '0.01',
    minOrderSize: 5,
    referencePrice: 0.42,
  };
  const input = (priceCents: string, kind: 'limit' | 'market' = 'limit'): TicketInput => ({
    side: 'BUY',
    kind,
    priceCents,
    amount: '10',
    sizeUnit: 'shares',
    orderType: kind === 'limit' ? 'GTC' : 'FOK',
    expiry: '',
    postOnly: false,
  });

  it('finds the valid prices either side, kept within the exchange’s bounds', () => {
    expect(nearestValidPrices(0.45, '0.01')).toBeNull();
    expect(nearestValidPrices(0.285, '0.01')).toEqual([0.28, 0.29]);
    expect(nearestValidPrices(0.005, '0.01')).toEqual([0.01, 0.02]);
    expect(nearestValidPrices(0.015, '0.01')).toEqual([0.01, 0.02]);
    expect(nearestValidPrices(0.995, '0.01')).toEqual([0.98, 0.99]);
    expect(nearestValidPrices(0.4763, '0.0025')).toEqual([0.475, 0.4775]);
    expect(nearestValidPrices(0.4775, '0.0025')).toBeNull();
    expect(priceBounds('0.001')).toEqual({ lowest: 0.001, highest: 0.999 });
  });

  it('0.5¢ and 1.5¢ on a 1¢ tick are refused, offering 1¢ and 2¢; a worst price too', () => {
    expect(draftOrder(input('0.5'), terms, 'main', 0)).toEqual({
      ok: false,
      reason: "0.5¢ is not on this market's 1¢ tick: choose 1¢ or 2¢.",
      choices: [0.01, 0.02],
    });
    expect(draftOrder(input('1.5'), terms, 'main', 0)).toEqual({
      ok: false,
      reason: "1.5¢ is not on this market's 1¢ tick: choose 1¢ or 2¢.",
      choices: [0.01, 0.02],
    });
    expect(draftOrder(input('45.4¢', 'market'), terms, 'main', 0)).toMatchObject({ ok: false, choices: [0.45, 0.46] });
    expect(draftOrder(input('47.75'), { ...terms, tickSize: '0.0025' }, 'main', 0)).toMatchObject({
      ok: true,
      intent: { price: 0.4775 },
    });
  });

  it('0¢ and 100¢ are refused with the range this market takes, in the tick’s decimals', () => {
    expect(draftOrder(input('0'), terms, 'main', 0)).toEqual({
      ok: false,
      reason: '0¢ is not a price this market takes: choose from 1¢ to 99¢.',
    });
    expect(draftOrder(input('100'), terms, 'main', 0)).toEqual({
      ok: false,
      reason: '100¢ is not a price this market takes: choose from 1¢ to 99¢.',
    });
    expect(draftOrder(input('99.95'), { ...terms, tickSize: '0.001' }, 'main', 0)).toMatchObject({
      ok: false,
      choices: [0.998, 0.999],
    });
    expect(draftOrder(input('100'), { ...terms, tickSize: '0.001' }, 'main', 0)).toEqual({
      ok: false,
      reason: '100¢ is not a price this market takes: choose from 0.1¢ to 99.9¢.',
    });
  });
});

describe('a tick change', () => {
  it('is said in cents and leaves the price alone; a price now off the tick is pointed at, not moved', () => {
    expect(tickChangeWarning('0.01', '0.001', '45')).toBe(
      'The tick size changed: prices now move in steps of 0.1¢ (was 1¢).',
    );
    expect(tickChangeWarning('0.001', '0.01', '45.5')).toBe(
      'The tick size changed: prices now move in steps of 1¢ (was 0.1¢). Your price 45.5¢ is off the new tick: pick one of the two offered.',
    );
    expect(tickChangeWarning('0.01', '0.0025', '')).toBe(
      'The tick size changed: prices now move in steps of 0.25¢ (was 1¢).',
    );
  });
});

describe('what is available, quick amounts and To win', () => {
  const order = (side: 'BUY' | 'SELL', price: number, originalSize: number, sizeMatched = 0, tokenId = 'yes') => ({
    tokenId,
    side,
    price,
    originalSize,
    sizeMatched,
  });

  it('Available is the balance less what open orders hold, exactly', () => {
    const a = availableAfterOrders({
      collateral: 100,
      shares: 10,
      tokenId: 'yes',
      openOrders: [
        order('BUY', 0.07, 10),
        order('BUY', 0.1, 30, 10),
        order('SELL', 0.6, 4),
        order('SELL', 0.6, 3, 0, 'no'),
      ],
    });
    // 10 × 7¢ + 20 unfilled × 10¢ = $2.70 held; 4 Yes shares in a sell.
    expect(a).toEqual({ dollars: 97.3, heldByOrders: 2.7, shares: 6, sharesInOrders: 4 });
    expect(
      availableAfterOrders({ collateral: 1, shares: undefined, tokenId: null, openOrders: [order('BUY', 0.5, 10)] }),
    ).toMatchObject({ dollars: 0, shares: undefined });
  });

  it('+$10 and +$100 add dollars to a BUY; 25 %, 50 % and Max take that part of what is available', () => {
    const buy = { side: 'BUY' as const, amount: '', sizeUnit: 'shares' as const, priceCents: '40' };
    const available = { dollars: 97.3, shares: 6 };
    expect(quickAmount({ add: 10 }, buy, available)).toEqual({ amount: '10', sizeUnit: 'usd' });
    expect(quickAmount({ add: 100 }, { ...buy, amount: '10', sizeUnit: 'usd' }, available)).toEqual({
      amount: '110',
      sizeUnit: 'usd',
    });
    // 25 shares at 40¢ are $10 in dollars, then $10 more.
    expect(quickAmount({ add: 10 }, { ...buy, amount: '25' }, available)).toEqual({ amount: '20', sizeUnit: 'usd' });
    expect(quickAmount({ fraction: 0.25 }, buy, available)).toEqual({ amount: '24.32', sizeUnit: 'usd' });
    expect(quickAmount({ fraction: 1 }, buy, available)).toEqual({ amount: '97.3', sizeUnit: 'usd' });
    expect(quickAmount({ fraction: 0.5 }, { ...buy, side: 'SELL' }, available)).toEqual({
      amount: '3',
      sizeUnit: 'shares',
    });
    expect(quickAmount({ fraction: 1 }, { ...buy, side: 'SELL' }, { dollars: 5, shares: 0 })).toBeNull();
  });

  it('To win: the payout and the gain over the cost', () => {
    expect(toWin(10, 4.5)).toEqual({ payout: '$10.00', gain: '+122 %' });
    expect(toWin(5, 0.25)).toEqual({ payout: '$5.00', gain: '+1,900 %' });
    expect(toWin(10, 9.5)).toEqual({ payout: '$10.00', gain: '+5.3 %' });
    expect(toWin(0, 1)).toBeNull();
  });
});

describe('the local estimate', () => {
  it('prices shares: cost at the limit, a dollar a share if it wins, no fee at 0 bps', () => {
    expect(estimateOrder({ amount: 10, unit: 'shares', price: 0.45 })).toEqual({
      price: 0.45,
      shares: 10,
      cost: 4.5,
      payout: 10,
      fees: 0,
    });
  });

  it('turns dollars into whole hundredths of a share, rounded down, never spending more than typed', () => {
    const e = estimateOrder({ amount: 10, unit: 'usd', price: 0.33 });
    expect(e.shares).toBe(30.3);
    expect(e.cost).toBe(10);
    expect(e.payout).toBe(30.3);
    expect(estimateOrder({ amount: 1, unit: 'usd', price: 0.07 }).shares).toBe(14.28);
  });
});

describe('the order the ticket sends', () => {
  const terms: MarketTerms = {
    marketId: '90021',
    tokenId: '123',
    tickSize: '0.01',
    minOrderSize: 5,
    referencePrice: 0.42,
  };
  const ticket = (patch: Partial<TicketInput>): TicketInput => ({
    side: 'BUY',
    kind: 'limit',
    priceCents: '45',
    amount: '10',
    sizeUnit: 'shares',
    orderType: 'GTC',
    expiry: '',
    postOnly: false,
    ...patch,
  });
  const now = 1_800_000_000;

  it('a limit order: the price on the tick, the size in shares, post-only kept', () => {
    const d = draftOrder(ticket({ priceCents: '45', postOnly: true }), terms, 'main', now);
    expect(d).toMatchObject({
      ok: true,
      intent: {
        wallet: 'main',
        marketId: '90021',
        tokenId: '123',
        side: 'BUY',
        orderType: 'GTC',
        price: 0.45,
        size: 10,
        postOnly: true,
      },
    });
    expect(d.ok && d.intent.amountUsd).toBeUndefined();
  });

  it('a limit order sized in dollars sends the shares those dollars buy', () => {
    expect(draftOrder(ticket({ amount: '9', sizeUnit: 'usd' }), terms, 'main', now)).toMatchObject({
      ok: true,
      intent: { price: 0.45, size: 20 },
    });
  });

  it('GTD needs an expiry more than a minute ahead, sent in unix seconds', () => {
    expect(draftOrder(ticket({ orderType: 'GTD' }), terms, 'main', now)).toEqual({
      ok: false,
      reason: 'A GTD order needs an expiry date and time.',
    });
    const soon = new Date((now + 30) * 1000);
    const local = (d: Date) =>
      `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}T${String(d.getHours()).padStart(2, '0')}:${String(d.getMinutes()).padStart(2, '0')}`;
    expect(draftOrder(ticket({ orderType: 'GTD', expiry: local(soon) }), terms, 'main', now)).toMatchObject({
      ok: false,
      reason: 'The expiry must be more than a minute from now.',
    });
    const later = new Date((now + 7200) * 1000);
    const d = draftOrder(ticket({ orderType: 'GTD', expiry: local(later) }), terms, 'main', now);
    expect(d.ok && d.intent.expiration).toBe(Math.floor(new Date(local(later)).getTime() / 1000));
    expect(d.ok && d.intent.orderType).toBe('GTD');
  });

  /** The live book's default worst price (43¢: it reaches 40¢, three ticks of slippage) and its fill of $4. */
  const bound = { worst: 0.43, fill: { shares: 10, dollars: 4, average: 0.4 } };

  it('a market BUY in dollars sends the dollars and always a worst price: the live book’s default, or the one typed', () => {
    const d = draftOrder(
      ticket({ kind: 'market', orderType: 'FOK', priceCents: '', amount: '4', sizeUnit: 'usd' }),
      { ...terms, marketBound: bound },
      'main',
      now,
    );
    expect(d).toMatchObject({
      ok: true,
      intent: { orderType: 'FOK', price: 0.43, amountUsd: 4, postOnly: false },
      estimate: { price: 0.4, shares: 10, cost: 4 },
    });
    const worst = draftOrder(
      ticket({ kind: 'market', orderType: 'FAK', priceCents: '50', amount: '4', sizeUnit: 'usd', postOnly: true }),
      { ...terms, marketBound: bound },
      'main',
      now,
    );
    expect(worst).toMatchObject({ ok: true, intent: { orderType: 'FAK', price: 0.5, amountUsd: 4, postOnly: false } });
  });

  it('a market order with no worst price to send is not drafted: the live book’s reason, or a max/min price to type', () => {
    const empty = {
      reason:
        'The book has no asks: a market buy has nothing to fill against. Type a max price, or place a limit order.',
    };
    expect(
      draftOrder(
        ticket({ kind: 'market', orderType: 'FOK', priceCents: '', amount: '4', sizeUnit: 'usd' }),
        { ...terms, marketBound: empty },
        'main',
        now,
      ),
    ).toEqual({ ok: false, reason: empty.reason });
    expect(
      draftOrder(
        ticket({ side: 'SELL', kind: 'market', orderType: 'FOK', priceCents: '', amount: '4' }),
        terms,
        'main',
        now,
      ),
    ).toEqual({
      ok: false,
      reason: 'Type a min price in cents: a market order never fills past it.',
    });
  });

  it('a market SELL in shares sends the shares; a market order never goes out as GTC', () => {
    expect(
      draftOrder(
        ticket({ side: 'SELL', kind: 'market', orderType: 'GTC', priceCents: '', amount: '12.345' }),
        { ...terms, marketBound: { worst: 0.37, fill: { shares: 12.345, dollars: 4.9, average: 0.4 } } },
        'main',
        now,
      ),
    ).toMatchObject({
      ok: true,
      intent: { side: 'SELL', orderType: 'FOK', size: 12.34, price: 0.37 },
    });
  });

  it('says why it cannot send: no amount, a bad amount, a bad price, under the minimum, no price to estimate at', () => {
    expect(draftOrder(ticket({ amount: '' }), terms, 'main', now)).toEqual({ ok: false, reason: 'Type a size.' });
    expect(draftOrder(ticket({ amount: '-3' }), terms, 'main', now)).toEqual({
      ok: false,
      reason: '“-3” is not an amount: type a positive number.',
    });
    expect(draftOrder(ticket({ amount: '0' }), terms, 'main', now)).toMatchObject({ ok: false });
    expect(draftOrder(ticket({ priceCents: 'abc' }), terms, 'main', now)).toEqual({
      ok: false,
      reason: '“abc” is not a price: type it in cents (45 for 45¢).',
    });
    expect(draftOrder(ticket({ priceCents: '120' }), terms, 'main', now)).toEqual({
      ok: false,
      reason: '120¢ is not a price this market takes: choose from 1¢ to 99¢.',
    });
    expect(draftOrder(ticket({ priceCents: '' }), terms, 'main', now)).toEqual({
      ok: false,
      reason: 'Type a limit price in cents.',
    });
    expect(draftOrder(ticket({ amount: '4' }), terms, 'main', now)).toEqual({
      ok: false,
      reason: "This market's minimum order is 5 shares; this is 4.",
    });
    expect(
      draftOrder(ticket({ kind: 'market', priceCents: '' }), { ...terms, referencePrice: null }, 'main', now),
    ).toEqual({
      ok: false,
      reason: 'Type a max price in cents: a market order never fills past it.',
    });
  });
});

describe('the "open this market" link', () => {
  it('reads the market and the outcome next to the launch token', () => {
    expect(selectionFromHash('#token=abcdefghijklmnop1234&market=90021&outcome=42')).toEqual({
      market: { protocol: 'polymarket', marketId: '90021' },
      tokenId: '42',
    });
    expect(selectionFromHash('#market=90021')).toEqual({
      market: { protocol: 'polymarket', marketId: '90021' },
      tokenId: null,
    });
  });

  it('ignores what is not a market id or a token id', () => {
    expect(selectionFromHash('#token=abcdefghijklmnop1234')).toEqual({ market: null, tokenId: null });
    expect(selectionFromHash('#market=<script>&outcome=1')).toEqual({ market: null, tokenId: null });
    expect(selectionFromHash('#market=90021&outcome=yes')).toEqual({
      market: { protocol: 'polymarket', marketId: '90021' },
      tokenId: null,
    });
  });
});

describe('CSV', () => {
  it('quotes commas, quotes, line breaks and edge spaces, and keeps formulas as text', () => {
    expect(csvField('plain')).toBe('plain');
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "yes"')).toBe('"say ""yes"""');
    expect(csvField('two\nlines')).toBe('"two\nlines"');
    expect(csvField(' padded')).toBe('" padded"');
    expect(csvField('=HYPERLINK("x")')).toBe('"\'=HYPERLINK(""x"")"');
    expect(csvField(-1.5)).toBe('-1.5');
    expect(csvField(null)).toBe('');
    expect(csvField(true)).toBe('true');
  });

  it('writes the header first and CRLF line ends', () => {
    expect(toCsv(['a', 'b'], [[1, 'x,y']])).toBe('a,b\r\n1,"x,y"\r\n');
    expect(toCsv(['a'], [])).toBe('a\r\n');
  });

  const position: PositionInfo = {
    conditionId: '0xabc',
    marketSlug: 'will-it-snow',
    question: 'Will it snow, in "Paris"?',
    tokenId: '42',
    outcome: 'Yes',
    size: 20,
    averagePrice: 0.4,
    currentPrice: 0.5,
    currentValue: 10,
  };
  it('positions by question and outcome, with value and PnL at the price shown, ids last', () => {
    expect(positionsCsv([{ position, current: 0.55, figures: positionFigures(position, 0.55) }]).split('\r\n')).toEqual(
      [
        'market,outcome,size,average_price,current_price,value,pnl_usd,pnl_percent,condition_id,token_id',
        '"Will it snow, in ""Paris""?",Yes,20,0.4,0.55,11,3,37.5,0xabc,42',
        '',
      ],
    );
  });

  it('trades with their time in UTC, question, outcome, side, fee, status and transaction, ids last', () => {
    const trade: TradeInfo = {
      tradeId: 't1',
      conditionId: '0xabc',
      tokenId: '42',
      side: 'BUY',
      price: 0.4,
      size: 10,
      status: 'MATCHED',
      matchedAt: 1_800_000_000,
      pending: true,
      question: 'Q, really?',
      outcome: 'No',
      fee: 0.0576,
      txHash: '0xfeed',
    };
    expect(tradesCsv([trade]).split('\r\n')).toEqual([
      'time_utc,market,outcome,side,price,size,fee_usd,status,tx_hash,trade_id,condition_id,token_id',
      '2027-01-15T08:00:00.000Z,"Q, really?",No,BUY,0.4,10,0.0576,MATCHED,0xfeed,t1,0xabc,42',
      '',
    ]);
    // A trade that names nothing itself takes the names the terminal knows; an unknown fee and hash stay empty.
    const bare: TradeInfo = {
      tradeId: 't2',
      conditionId: '0xabc',
      tokenId: '42',
      side: 'SELL',
      price: 0.5,
      size: 1,
      status: 'CONFIRMED',
      matchedAt: 0,
      pending: false,
      fee: null,
    };
    expect(tradesCsv([bare], () => ({ question: 'Known', outcome: 'Yes' })).split('\r\n')[1]).toBe(
      ',Known,Yes,SELL,0.5,1,,CONFIRMED,,t2,0xabc,42',
    );
  });
});

describe('PnL and what makes positions be read again', () => {
  it('is value minus size times average price, unknown without an average', () => {
    expect(positionPnl({ size: 20, averagePrice: 0.4, currentValue: 10 })).toBe(2);
    expect(positionPnl({ size: 10, averagePrice: 0.7, currentValue: 3 })).toBe(-4);
    expect(positionPnl({ size: 3, averagePrice: 0.1, currentValue: 0.6 })).toBe(0.3);
    expect(positionPnl({ size: 10, averagePrice: null, currentValue: 3 })).toBeNull();
  });

  it('changes with a new trade or a new status, not with order', () => {
    const a = { tradeId: 'a', status: 'MATCHED' } as TradeInfo;
    const b = { tradeId: 'b', status: 'CONFIRMED' } as TradeInfo;
    expect(tradesSignature([a, b])).toBe(tradesSignature([b, a]));
    expect(tradesSignature([a])).not.toBe(tradesSignature([a, b]));
    expect(tradesSignature([a])).not.toBe(tradesSignature([{ ...a, status: 'CONFIRMED' }]));
  });

  it('money reads with its sign in front', () => {
    expect(formatUsd(-4)).toBe('−$4.00');
    expect(formatUsd(1234.5)).toBe('$1,234.50');
    expect(formatUsd(-0.001)).toBe('$0.00');
  });
});
