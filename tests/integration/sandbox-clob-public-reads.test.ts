// What an outside client found in the sandbox CLOB's public reads, driven by Polymarket's official v2 client
// (and raw HTTP for what the client would not send): POST /prices answers both sides of one token, and a
// market's live activity is its real trades, newest first, in the MarketTradeEvent shape.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ClobClient, Side } from '@polymarket/clob-client-v2';
import { officialSigner, startClobSandbox, type ClobSandbox } from '../helpers/sandbox-clob';
import type { CatalogMarket } from '../../sandbox/market/catalog';

describe('sandbox CLOB public reads (order version 2)', () => {
  let sb: ClobSandbox;
  let alice: ClobClient;
  let bob: ClobClient;
  let traded: CatalogMarket;

  beforeAll(async () => {
    sb = await startClobSandbox({ orderVersion: 2, amoy: true });
    const [a, b] = sb.wallets;
    const client = async (wallet: typeof a) => {
      const anon = new ClobClient({
        host: sb.server.url,
        chain: 80002,
        signer: officialSigner(wallet!) as never,
        throwOnError: true,
      });
      const creds = await anon.createOrDeriveApiKey();
      return new ClobClient({
        host: sb.server.url,
        chain: 80002,
        signer: officialSigner(wallet!) as never,
        creds,
        throwOnError: true,
      });
    };
    alice = await client(a);
    bob = await client(b);
    traded = sb.catalog.events
      .flatMap((e) => e.markets)
      .find((m) => !m.negRisk && m.tickSize === '0.01' && m !== sb.binary)!;
  });
  afterAll(async () => sb?.stop());

  const get = async (path: string) => {
    const response = await fetch(`${sb.server.url}${path}`);
    return { status: response.status, body: (await response.json()) as unknown };
  };

  it('answers POST /prices with both sides when one token is asked for BUY and SELL', async () => {
    const [yes, no] = [sb.binary.tokens[0].tokenId, sb.binary.tokens[1].tokenId];
    const options = { tickSize: '0.01' as const, negRisk: false };
    // A bid for YES at 0.49, and a bid for NO at 0.49: an ask for YES at 0.51.
    await alice.createAndPostOrder({ tokenID: yes, price: 0.49, size: 10, side: Side.BUY }, options);
    await bob.createAndPostOrder({ tokenID: no, price: 0.49, size: 10, side: Side.BUY }, options);
    const single = {
      BUY: (await alice.getPrice(yes, 'BUY')).price as string,
      SELL: (await alice.getPrice(yes, 'SELL')).price as string,
    };
    expect(single).toEqual({ BUY: '0.49', SELL: '0.51' });

    const prices = await alice.getPrices([
      { token_id: yes, side: Side.BUY },
      { token_id: yes, side: Side.SELL },
      { token_id: no, side: Side.SELL },
    ]);
    expect(prices).toEqual({ [yes]: single, [no]: { SELL: '0.51' } });
    // Asked twice for the same side, and once without a side (both): still one entry per side.
    const raw = await fetch(`${sb.server.url}/prices`, {
      method: 'POST',
      body: JSON.stringify([{ token_id: no, side: 'BUY' }, { token_id: no, side: 'BUY' }, { token_id: yes }]),
    });
    expect(await raw.json()).toEqual({ [no]: { BUY: '0.49' }, [yes]: single });
  });

  it('serves a market’s live activity: its settled trades, newest first, as MarketTradeEvent', async () => {
    const [a, b] = sb.wallets as [NonNullable<(typeof sb.wallets)[0]>, NonNullable<(typeof sb.wallets)[0]>];
    const [yes, no] = [traded.tokens[0].tokenId, traded.tokens[1].tokenId];
    const options = { tickSize: '0.01' as const, negRisk: false };
    expect(await alice.getMarketTradesEvents(traded.conditionId)).toEqual([]);

    // MINT: alice rests a YES bid at 0.55, bob takes with a NO buy at 0.45.
    await alice.createAndPostOrder({ tokenID: yes, price: 0.55, size: 10, side: Side.BUY }, options);
    const mint = await bob.createAndPostOrder({ tokenID: no, price: 0.45, size: 10, side: Side.BUY }, options);
    // A settlement that fails is no trade: it must not show.
    sb.server.exchangeFaults().nextSettlement({ retries: 0, fail: true });
    await alice.createAndPostOrder({ tokenID: yes, price: 0.7, size: 5, side: Side.SELL }, options);
    await expect(
      bob.createAndPostOrder({ tokenID: yes, price: 0.7, size: 5, side: Side.BUY }, options),
    ).rejects.toThrow(/settlement failed/);
    expect(sb.server.failedTrades()).toHaveLength(1);
    // NORMAL: alice rests a YES ask at 0.6 (below her restored 0.7), bob lifts it.
    await alice.createAndPostOrder({ tokenID: yes, price: 0.6, size: 5, side: Side.SELL }, options);
    const lift = await bob.createAndPostOrder({ tokenID: yes, price: 0.6, size: 5, side: Side.BUY }, options);

    const events = await alice.getMarketTradesEvents(traded.conditionId);
    const market = { condition_id: traded.conditionId, question: traded.question, icon: '', slug: traded.slug };
    const user = {
      address: b.address,
      username: '',
      profile_picture: '',
      optimized_profile_picture: '',
      pseudonym: '',
    };
    expect(events).toEqual([
      {
        event_type: 'trade',
        market: { ...market, asset_id: yes },
        user,
        side: 'BUY',
        size: '5',
        fee_rate_bps: '400', // the tech market's 0.04 taker fee
        price: '0.6',
        outcome: 'Yes',
        outcome_index: 0,
        transaction_hash: lift.transactionsHashes![0],
        timestamp: expect.stringMatching(/^\d{10}$/),
      },
      {
        event_type: 'trade',
        market: { ...market, asset_id: no },
        user,
        side: 'BUY',
        size: '10',
        fee_rate_bps: '400', // the tech market's 0.04 taker fee
        price: '0.45',
        outcome: 'No',
        outcome_index: 1,
        transaction_hash: mint.transactionsHashes![0],
        timestamp: expect.stringMatching(/^\d{10}$/),
      },
    ]);
    expect(Number(events[0]!.timestamp)).toBeGreaterThanOrEqual(Number(events[1]!.timestamp));
    expect(Math.abs(Number(events[0]!.timestamp) - Date.now() / 1000)).toBeLessThan(60);
    // The taker is bob, never alice the maker.
    expect(events.every((e) => e.user.address !== a.address)).toBe(true);
    // Version 1's path answers the same; another market's activity has none of these trades.
    expect((await get(`/live-activity/events/${traded.conditionId}`)).body).toEqual(events);
    expect((await get(`/markets/live-activity/${sb.negRisk.conditionId}`)).body).toEqual([]);
  });

  it('prints a taker order that took two price levels once per level, at each level’s price, never at its average', async () => {
    const [yes, no] = [traded.tokens[0].tokenId, traded.tokens[1].tokenId];
    const options = { tickSize: '0.01' as const, negRisk: false };
    // Alice's YES bids at 0.41 and 0.40 are NO asks at 0.59 and 0.60: bob's NO buy of 10 at 0.60 takes 5 at each
    // (an average of 0.595, which is no price on this market's tick).
    await alice.createAndPostOrder({ tokenID: yes, price: 0.41, size: 5, side: Side.BUY }, options);
    await alice.createAndPostOrder({ tokenID: yes, price: 0.4, size: 5, side: Side.BUY }, options);
    const sweep = await bob.createAndPostOrder({ tokenID: no, price: 0.6, size: 10, side: Side.BUY }, options);
    const events = await alice.getMarketTradesEvents(traded.conditionId);
    const prints = events.filter((e) => e.transaction_hash === sweep.transactionsHashes![0]);
    // Newest first: the last level taken is the last trade price.
    expect(prints.map((e) => [e.side, e.outcome, e.price, e.size])).toEqual([
      ['BUY', 'No', '0.6', '5'],
      ['BUY', 'No', '0.59', '5'],
    ]);
    expect(events.some((e) => e.price === '0.595')).toBe(false);
  });

  it('answers live activity of an unknown market with 404 and of a malformed id with 400', async () => {
    for (const prefix of ['/markets/live-activity/', '/live-activity/events/']) {
      expect(await get(`${prefix}0x${'ab'.repeat(32)}`)).toEqual({ status: 404, body: { error: 'market not found' } });
      for (const bad of ['nope', `0x${'ab'.repeat(31)}`, `0x${'zz'.repeat(32)}`, '%ZZ']) {
        const answer = await get(`${prefix}${bad}`);
        expect(answer.status, `${prefix}${bad}`).toBe(400);
        expect((answer.body as { error: string }).error).toMatch(/condition id|Malformed/i);
      }
    }
    expect((await get('/markets/%ZZ')).status).toBe(400);
  });
});
