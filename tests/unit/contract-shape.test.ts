// The contract's own promises: the operations issue 7 names, none generic or signing arbitrary data, every
// input schema strict, the one shown-once secret declared where it is, and `buildTerminal` exposing exactly
// the contract. Also proves the secret scan the end-to-end tests rely on does find planted secrets.
import { describe, expect, it } from 'vitest';
import { CHART_INTERVALS, MARKET_SOURCE_KINDS, PROTOCOLS as TOOLKIT_PROTOCOLS } from '@pmdesk/toolkit/model';
import {
  CANDLE_INTERVALS,
  EVENT_NAMES,
  MARKET_SOURCES,
  OPERATION_NAMES,
  PROTOCOLS,
  buildTerminal,
  operations,
  type OperationName,
} from '../../src/shared/contract';
import { VALID_INPUT, findSecrets } from '../helpers/contract-examples';

describe('the contract', () => {
  it('names every operation the renderer needs', () => {
    expect(OPERATION_NAMES).toEqual(
      expect.arrayContaining([
        'getNetwork',
        'listEvents',
        'searchMarkets',
        'getEvent',
        'getMarket',
        'getOrderBook',
        'getPriceHistory',
        'getCandles',
        'subscribeFills',
        'unsubscribeFills',
        'listWallets',
        'createWallet',
        'importWallet',
        'importSandboxWallet',
        'unlockWallet',
        'lockWallet',
        'exportWallet',
        'placeOrder',
        'cancelOrder',
        'cancelAll',
        'cancelMarket',
        'listOpenOrders',
        'listTrades',
        'getBalances',
        'getPositions',
      ]),
    );
    expect(EVENT_NAMES).toEqual([
      'bookUpdate',
      'fill',
      'orderUpdate',
      'feedStatus',
      'walletLock',
      'network',
      'account',
      'deadManSwitch',
      'tickSize',
      'tapeGap',
      'notice',
      'tradingAccess',
      'alert',
      'stop',
      'marketState',
      'followedTrade',
      'lastTrade',
    ]);
  });

  it("takes the toolkit's lists of providers, market sources and candle widths instead of copying them", () => {
    expect(PROTOCOLS).toBe(TOOLKIT_PROTOCOLS);
    expect(MARKET_SOURCES).toBe(MARKET_SOURCE_KINDS);
    expect(CANDLE_INTERVALS).toBe(CHART_INTERVALS);
  });

  it('has no generic invoke and nothing that signs what the renderer chooses', () => {
    for (const name of OPERATION_NAMES)
      expect(name).not.toMatch(/invoke|sign|send|exec|eval|raw|call|request|channel/i);
  });

  it.each(OPERATION_NAMES.map((op) => [op]))(
    '%s: its example parses, an unknown field does not',
    (op: OperationName) => {
      const schema = operations[op].input;
      expect(schema.safeParse(VALID_INPUT[op]).success).toBe(true);
      expect(schema.safeParse({ ...VALID_INPUT[op], surprise: true }).success).toBe(false);
    },
  );

  it('declares the one secret shown once: the new wallet recovery phrase', () => {
    const declared = OPERATION_NAMES.filter((op) => (operations[op] as { shownOnce?: string }).shownOnce);
    expect(declared).toEqual(['createWallet']);
    expect(operations.createWallet.shownOnce).toBe('recoveryPhrase');
  });

  it('trading inputs are intents: a size or an amount, GTD with an expiration only', () => {
    const place = operations.placeOrder.input;
    const base = { wallet: 'w', marketId: '1', tokenId: '2', side: 'BUY', price: 0.5 };
    expect(place.safeParse(base).success).toBe(false);
    expect(place.safeParse({ ...base, size: 5 }).success).toBe(true);
    expect(place.safeParse({ ...base, amountUsd: 5, orderType: 'FOK' }).success).toBe(true);
    expect(place.safeParse({ ...base, size: 5, orderType: 'GTD' }).success).toBe(false);
    expect(place.safeParse({ ...base, size: 5, orderType: 'GTD', expiration: 2_000_000_000 }).success).toBe(true);
    expect(place.safeParse({ ...base, size: 5, price: 1 }).success).toBe(false);
  });
});

describe('buildTerminal', () => {
  it('exposes one function per operation and `on`, frozen, and forwards calls as they are', async () => {
    const calls: [string, unknown][] = [];
    const terminal = buildTerminal({
      call: async (op, input) => {
        calls.push([op, input]);
        return { ok: true, value: op };
      },
      listen: () => () => {},
    }) as unknown as Record<string, (input?: unknown) => Promise<unknown>>;
    expect(Object.keys(terminal).sort()).toEqual([...OPERATION_NAMES, 'on'].sort());
    expect(Object.isFrozen(terminal)).toBe(true);
    expect(await terminal.getMarket!({ marketId: '1' })).toEqual({ ok: true, value: 'getMarket' });
    await terminal.listWallets!();
    expect(calls).toEqual([
      ['getMarket', { marketId: '1' }],
      ['listWallets', {}],
    ]);
  });
});

describe('the secret scan', () => {
  const key = `0x${'4c'.repeat(32)}`;
  it('finds planted secrets', () => {
    expect(findSecrets({ wallet: { address: '0x1', note: key.slice(2) } }, [])).toHaveLength(1);
    expect(findSecrets({ mnemonic: 'x' }, [])).toEqual([
      { where: 'value.mnemonic', kind: 'a field named like a secret' },
    ]);
    expect(findSecrets({ error: { message: 'bad password hunter22!' } }, ['hunter22!'])).toHaveLength(1);
    const phrase = 'abandon ability able about above absent absorb abstract absurd abuse access accident';
    expect(findSecrets({ words: phrase.split(' ') }, [phrase]).map((f) => f.kind)).toContain('a recovery phrase');
  });
  it('lets public 32-byte values through', () => {
    expect(findSecrets({ conditionId: key, book: { market: key, hash: key } }, [])).toEqual([]);
  });
});

describe('state events', () => {
  it('a listener added after the network was announced hears it at once; others do not replay', async () => {
    const listeners = new Map<string, ((payload: unknown) => void)[]>();
    const terminal = buildTerminal({
      call: async () => ({ ok: true, value: null }),
      listen: (event, listener) => {
        listeners.set(event, [...(listeners.get(event) ?? []), listener]);
        return () =>
          listeners.set(
            event,
            (listeners.get(event) ?? []).filter((l) => l !== listener),
          );
      },
    });
    for (const listener of listeners.get('network') ?? []) listener({ name: 'sandbox' });
    for (const listener of listeners.get('fill') ?? []) listener({ marketId: 'm' });
    const heard: unknown[] = [];
    terminal.on('network', (payload) => heard.push(payload));
    terminal.on('fill', (payload) => heard.push(payload));
    await Promise.resolve();
    await Promise.resolve();
    expect(heard).toEqual([{ name: 'sandbox' }]);
  });
});
