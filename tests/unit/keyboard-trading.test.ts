// Keyboard trading's rules: the default keys (free of the terminal's other keys and of typing), a rebinding
// refused with a sentence naming what the key already does, saved bindings and presets cleaned on load (the
// rest of the settings kept), saveSettings' bounds, and the ticket's fields for a key: best price with the
// preset size, the price a tick up or down within the market's bounds.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  DEFAULT_KEY_BINDINGS,
  DEFAULT_SIZE_PRESETS,
  TRADING_ACTIONS,
  TRADING_ACTION_NAMES,
  cleanKeyBindings,
  cleanSizePresets,
  isBindableKey,
  rebind,
} from '../../src/shared/key-bindings';
import { operations } from '../../src/shared/contract';
import { SettingsStore, SETTINGS_FILE } from '../../src/main/settings/settings';
import { bestPriceOrder, presetFields, stepPrice } from '../../src/renderer/src/components/ticket/keyboard-trading';

/** The terminal's other keys as registered today (keyboard.ts callers): the defaults must leave them alone. */
const OTHER_KEYS = [
  { key: 'Escape', description: 'Leave the field or close what is open' },
  { key: '?', description: 'Show the keyboard shortcuts' },
  { key: 'w', description: 'Open the wallet menu' },
  { key: 'n', description: 'Open the network list' },
  { key: '/', description: 'Search markets' },
  { key: 'j', description: 'Next market' },
  { key: 'k', description: 'Previous market' },
  { key: 'f', description: 'Star or unstar the chosen market (watchlist)' },
  ...[1, 2, 3, 4, 5].map((n) => ({ key: String(n), description: `Account tab ${n}` })),
  { key: 'X', description: 'Cancel all open orders (asks first)' },
  { key: 'b', description: 'Ticket: buy' },
  { key: 's', description: 'Ticket: sell' },
];

const dirs: string[] = [];
async function folder(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'pmdesk-keys-'));
  dirs.push(dir);
  return dir;
}
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

describe('trading key bindings', () => {
  it('bind every action to its own key by default, none of the terminal’s other keys, none typed without Shift or a function key', () => {
    const keys = TRADING_ACTIONS.map((a) => DEFAULT_KEY_BINDINGS[a]);
    expect(new Set(keys).size).toBe(TRADING_ACTIONS.length);
    for (const key of keys) {
      expect(isBindableKey(key)).toBe(true);
      expect(OTHER_KEYS.map((s) => s.key)).not.toContain(key);
      // Letters are capitals (Shift), or F-keys, or the two signs: a lower-case letter would be typed by habit.
      expect(/^[A-Z]$|^F\d$|^[+-]$/.test(key)).toBe(true);
    }
  });

  it('only one printable character or F1–F12 can be bound; Esc, Enter, Tab, Space, arrows, ? and / cannot', () => {
    for (const key of ['q', 'Q', '7', '=', ']', 'F1', 'F12']) expect(isBindableKey(key)).toBe(true);
    for (const key of ['Escape', 'Enter', 'Tab', ' ', 'ArrowUp', 'Backspace', 'Shift', '?', '/', 'F13', 'F0', 'ab', ''])
      expect(isBindableKey(key)).toBe(false);
  });

  it('a rebinding takes a free key and keeps the others', () => {
    const bound = rebind({ ...DEFAULT_KEY_BINDINGS }, 'buyBest', 'Q', OTHER_KEYS);
    expect(bound).toEqual({ ok: true, bindings: { ...DEFAULT_KEY_BINDINGS, buyBest: 'Q' } });
    // The action's own key again changes nothing.
    expect(rebind({ ...DEFAULT_KEY_BINDINGS }, 'flatten', 'F', OTHER_KEYS).ok).toBe(true);
  });

  it('a key another action or shortcut uses is refused with a sentence naming it', () => {
    expect(rebind({ ...DEFAULT_KEY_BINDINGS }, 'buyBest', 'S', OTHER_KEYS)).toEqual({
      ok: false,
      reason: `Shift+S already does “${TRADING_ACTION_NAMES.sellBest}”: choose another key.`,
    });
    expect(rebind({ ...DEFAULT_KEY_BINDINGS }, 'priceUp', 'j', OTHER_KEYS)).toEqual({
      ok: false,
      reason: 'j already does “Next market”: choose another key.',
    });
    expect(rebind({ ...DEFAULT_KEY_BINDINGS }, 'cancelMarket', 'X', OTHER_KEYS)).toEqual({
      ok: false,
      reason: 'Shift+X already does “Cancel all open orders (asks first)”: choose another key.',
    });
    expect(rebind({ ...DEFAULT_KEY_BINDINGS }, 'priceUp', 'Enter', OTHER_KEYS)).toEqual({
      ok: false,
      reason: 'Enter cannot be a trading key: choose a letter, a digit, a sign or F1–F12.',
    });
    // The trading keys registered as shortcuts are not "another shortcut": a swap through a free key works.
    const registered = [
      ...OTHER_KEYS,
      ...TRADING_ACTIONS.map((a) => ({ key: DEFAULT_KEY_BINDINGS[a], description: TRADING_ACTION_NAMES[a] })),
    ];
    const moved = rebind({ ...DEFAULT_KEY_BINDINGS }, 'sellBest', 'D', registered);
    expect(moved.ok).toBe(true);
    expect(rebind(moved.ok ? moved.bindings : DEFAULT_KEY_BINDINGS, 'buyBest', 'S', registered)).toMatchObject({
      ok: true,
      bindings: { buyBest: 'S', sellBest: 'D' },
    });
  });

  it('saved bindings are cleaned: unknown actions dropped, bad or doubled keys back to their default, a clash left over means all defaults', () => {
    expect(cleanKeyBindings(undefined)).toEqual(DEFAULT_KEY_BINDINGS);
    expect(cleanKeyBindings({ buyBest: 'Q', nonsense: 'Z', sellBest: 'Enter', priceUp: 42 })).toEqual({
      ...DEFAULT_KEY_BINDINGS,
      buyBest: 'Q',
    });
    // sellBest asks for Q too: it goes back to S.
    expect(cleanKeyBindings({ buyBest: 'Q', sellBest: 'Q' })).toEqual({ ...DEFAULT_KEY_BINDINGS, buyBest: 'Q' });
    // The cancel-all key is never a trading key.
    expect(cleanKeyBindings({ buyBest: 'K' }, ['K'])).toEqual(DEFAULT_KEY_BINDINGS);
    // buyBest takes S; sellBest, back to its default S, would clash with it: all back to the defaults.
    expect(cleanKeyBindings({ buyBest: 'S', sellBest: 'S' })).toEqual(DEFAULT_KEY_BINDINGS);
    expect(cleanKeyBindings(['B'])).toEqual(DEFAULT_KEY_BINDINGS);
  });

  it('saved presets are cleaned: four valid sizes and a unit, else the defaults', () => {
    expect(cleanSizePresets({ unit: 'usd', sizes: [5, 25, 100, 250.5] })).toEqual({
      unit: 'usd',
      sizes: [5, 25, 100, 250.5],
    });
    expect(cleanSizePresets({ unit: 'euros', sizes: [1, 2, 3] })).toEqual(DEFAULT_SIZE_PRESETS);
    expect(cleanSizePresets({ unit: 'shares', sizes: [1, -2, 3, 4] })).toEqual(DEFAULT_SIZE_PRESETS);
    expect(cleanSizePresets({ unit: 'shares', sizes: [1, 2, 3, 0.001] })).toEqual(DEFAULT_SIZE_PRESETS);
    expect(cleanSizePresets(null)).toEqual(DEFAULT_SIZE_PRESETS);
  });

  it('saveSettings refuses a key bound twice, an unbindable key, an unknown action and bad presets', () => {
    const input = operations.saveSettings.input;
    expect(input.safeParse({ keyBindings: { buyBest: 'Q' } }).success).toBe(true);
    expect(input.safeParse({ keyBindings: { buyBest: 'Q', sellBest: 'Q' } }).success).toBe(false);
    expect(input.safeParse({ keyBindings: { buyBest: 'Enter' } }).success).toBe(false);
    expect(input.safeParse({ keyBindings: { sellEverything: 'Q' } }).success).toBe(false);
    expect(
      input.safeParse({ sizePresets: { unit: 'usd', sizes: [1, 2, 3, 4] }, keyboardOrdersWithoutConfirm: true })
        .success,
    ).toBe(true);
    expect(input.safeParse({ sizePresets: { unit: 'usd', sizes: [1, 2, 3] } }).success).toBe(false);
    expect(input.safeParse({ sizePresets: { unit: 'usd', sizes: [1, 2, 3, 2_000_000] } }).success).toBe(false);
  });

  it('one action rebound is saved and read back with the others kept; a bad saved binding keeps the rest of the file', async () => {
    const dir = await folder();
    const store = new SettingsStore(dir);
    await store.save({ keyBindings: { ...DEFAULT_KEY_BINDINGS, buyBest: 'Q' } });
    await store.save({ keyBindings: { sellBest: 'W' } as never });
    const again = await new SettingsStore(dir).get();
    expect(again.keyBindings).toEqual({ ...DEFAULT_KEY_BINDINGS, buyBest: 'Q', sellBest: 'W' });
    expect(again.keyboardOrdersWithoutConfirm).toBe(false);
    const other = await folder();
    await writeFile(
      join(other, SETTINGS_FILE),
      JSON.stringify({
        theme: 'light',
        keyBindings: { buyBest: 'Tab' },
        sizePresets: 'big',
        keyboardOrdersWithoutConfirm: true,
      }),
    );
    const cleaned = await new SettingsStore(other).get();
    expect(cleaned).toMatchObject({
      theme: 'light',
      keyBindings: DEFAULT_KEY_BINDINGS,
      sizePresets: DEFAULT_SIZE_PRESETS,
      keyboardOrdersWithoutConfirm: true,
    });
  });
});

describe('keyboard orders on the ticket', () => {
  const presets = { unit: 'shares' as const, sizes: [10, 50, 100, 500] };

  it('buy at the best ask and sell at the best bid: a GTC limit on the tick with the preset size', () => {
    expect(bestPriceOrder('BUY', { bestBid: 0.38, bestAsk: 0.4 }, '0.01', presets, 1, 'Yes')).toEqual({
      ok: true,
      fields: {
        side: 'BUY',
        kind: 'limit',
        orderType: 'GTC',
        postOnly: false,
        expiry: '',
        priceCents: '40',
        amount: '50',
        sizeUnit: 'shares',
      },
    });
    expect(
      bestPriceOrder('SELL', { bestBid: 0.385, bestAsk: 0.4 }, '0.001', { unit: 'usd', sizes: [5, 6, 7, 8] }, 3, 'Yes'),
    ).toMatchObject({
      ok: true,
      fields: { side: 'SELL', priceCents: '38.5', amount: '8', sizeUnit: 'usd' },
    });
  });

  it('no best price on that side: a sentence, no fields', () => {
    expect(bestPriceOrder('BUY', { bestBid: 0.38, bestAsk: null }, '0.01', presets, 0, 'Yes')).toEqual({
      ok: false,
      reason: 'Nobody is selling Yes: there is no best ask to buy at.',
    });
    expect(bestPriceOrder('SELL', { bestBid: null, bestAsk: 0.4 }, '0.01', presets, 0, 'No')).toEqual({
      ok: false,
      reason: 'Nobody is bidding for No: there is no best bid to sell at.',
    });
  });

  it('presets become the ticket size in their unit; an unknown preset is nothing', () => {
    expect(presetFields(presets, 0)).toEqual({ amount: '10', sizeUnit: 'shares' });
    expect(presetFields({ unit: 'usd', sizes: [1, 2.5, 3, 4] }, 1)).toEqual({ amount: '2.5', sizeUnit: 'usd' });
    expect(presetFields(presets, 4)).toBeNull();
  });

  it('the price moves one tick and stops at the bounds', () => {
    expect(stepPrice('40', '0.01', 1, null)).toBe('41');
    expect(stepPrice('40', '0.01', -1, null)).toBe('39');
    expect(stepPrice('99', '0.01', 1, null)).toBe('99');
    expect(stepPrice('1', '0.01', -1, null)).toBe('1');
    expect(stepPrice('2', '0.01', -1, null)).toBe('1');
    expect(stepPrice('40.5', '0.001', 1, null)).toBe('40.6');
    expect(stepPrice('99.9', '0.001', 1, null)).toBe('99.9');
    expect(stepPrice('0.1', '0.001', -1, null)).toBe('0.1');
    expect(stepPrice('12.34', '0.0001', 1, null)).toBe('12.35');
  });

  it('a price off the tick moves to the next tick that way; no price starts from the best price, snapped', () => {
    expect(stepPrice('40.5', '0.01', 1, null)).toBe('41');
    expect(stepPrice('40.5', '0.01', -1, null)).toBe('40');
    expect(stepPrice('', '0.01', 1, 0.384)).toBe('38');
    expect(stepPrice('', '0.01', 1, null)).toBeNull();
    // An out-of-range price comes back within the bounds.
    expect(stepPrice('150', '0.01', -1, null)).toBe('99');
    expect(stepPrice('0', '0.01', 1, null)).toBe('1');
  });
});
