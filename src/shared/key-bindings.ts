// Keyboard trading's actions, their default keys and the size presets, with the rules a binding obeys: one
// key per action, no key for two actions, keys a trader can press without typing into anything. Shared: main
// cleans the saved bindings on load with these rules, the renderer refuses a rebinding with them.

export const TRADING_ACTIONS = [
  'buyBest',
  'sellBest',
  'priceUp',
  'priceDown',
  'preset1',
  'preset2',
  'preset3',
  'preset4',
  'flatten',
  'cancelMarket',
] as const;
export type TradingAction = (typeof TRADING_ACTIONS)[number];
export type KeyBindings = Record<TradingAction, string>;

/**
 * Shifted letters and signs the rest of the terminal leaves free (b/s pick the ticket's side, f stars, j/k
 * move, 1–5 are the account tabs, X cancels all): a trading key is never one typed by accident.
 */
export const DEFAULT_KEY_BINDINGS: Readonly<KeyBindings> = Object.freeze({
  buyBest: 'B',
  sellBest: 'S',
  priceUp: '+',
  priceDown: '-',
  preset1: 'F1',
  preset2: 'F2',
  preset3: 'F3',
  preset4: 'F4',
  flatten: 'F',
  cancelMarket: 'C',
});

/** What each action does, as the help lists it. */
export const TRADING_ACTION_NAMES: Readonly<Record<TradingAction, string>> = Object.freeze({
  buyBest: 'Buy the chosen outcome at the best ask, preset size',
  sellBest: 'Sell the chosen outcome at the best bid, preset size',
  priceUp: 'Ticket price up one tick',
  priceDown: 'Ticket price down one tick',
  preset1: 'Size preset 1',
  preset2: 'Size preset 2',
  preset3: 'Size preset 3',
  preset4: 'Size preset 4',
  flatten: 'Flatten: sell the whole position in the chosen outcome at the market',
  cancelMarket: 'Cancel this market’s open orders',
});

export const PRESET_ACTIONS = ['preset1', 'preset2', 'preset3', 'preset4'] as const satisfies readonly TradingAction[];

/** The sizes keyboard orders use, in shares or dollars; the first is the one in use until another is chosen. */
export interface SizePresets {
  unit: 'shares' | 'usd';
  sizes: number[];
}
export const DEFAULT_SIZE_PRESETS: Readonly<SizePresets> = Object.freeze({
  unit: 'shares',
  sizes: Object.freeze([10, 50, 100, 500]) as number[],
});
/** No preset above this (shares or dollars): a slip of the keyboard stays a slip. */
export const SIZE_PRESET_MAX = 1_000_000;

/** Keys that move around, close or type nothing: never a trading key, nor the cancel-all key. */
export const RESERVED_KEYS: ReadonlySet<string> = new Set([
  'Escape',
  'Tab',
  'Enter',
  ' ',
  'Shift',
  'Control',
  'Alt',
  'Meta',
  'CapsLock',
  'Backspace',
  'Delete',
  'ArrowUp',
  'ArrowDown',
  'ArrowLeft',
  'ArrowRight',
]);
/** Keys the terminal always means something by (the help, search, leaving a field). */
export const FIXED_KEYS = new Set(['?', '/', 'Escape']);

/** Whether a key (KeyboardEvent.key) can be bound at all: one printable character or F1–F12. */
export function isBindableKey(key: string): boolean {
  if (RESERVED_KEYS.has(key) || FIXED_KEYS.has(key)) return false;
  return (key.length === 1 && key.trim() === key) || /^F([1-9]|1[0-2])$/.test(key);
}

/** A size preset the ticket can take: positive, at most two decimals, bounded. */
export function isSizePreset(size: unknown): size is number {
  return (
    typeof size === 'number' &&
    Number.isFinite(size) &&
    size > 0 &&
    size <= SIZE_PRESET_MAX &&
    Math.abs(Math.round(size * 100) - size * 100) < 1e-9
  );
}

/**
 * The saved bindings, cleaned: an unknown action is dropped, a missing or unbindable key takes its default, and
 * a key bound twice (or taken by `taken`, the cancel-all key) goes back to its default; if that leaves a clash,
 * all go back to the defaults (which a cancel-all key set outside the terminal may still meet: the help then
 * lists both uses of it). A binding is a preference: a bad one never sets the settings file aside.
 */
export function cleanKeyBindings(value: unknown, taken: readonly string[] = []): KeyBindings {
  const saved =
    typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  const out = { ...DEFAULT_KEY_BINDINGS };
  const used = new Set(taken);
  for (const action of TRADING_ACTIONS) {
    const key = saved[action];
    if (typeof key === 'string' && isBindableKey(key) && !used.has(key)) out[action] = key;
    used.add(out[action]);
  }
  const keys = Object.values(out);
  if (new Set(keys).size !== keys.length || keys.some((k) => taken.includes(k))) return { ...DEFAULT_KEY_BINDINGS };
  return out;
}

/** The saved presets, cleaned: four valid sizes and a unit, else the defaults. */
export function cleanSizePresets(value: unknown): SizePresets {
  const saved = typeof value === 'object' && value !== null ? (value as Partial<SizePresets>) : {};
  const unit = saved.unit === 'usd' || saved.unit === 'shares' ? saved.unit : DEFAULT_SIZE_PRESETS.unit;
  const sizes =
    Array.isArray(saved.sizes) && saved.sizes.length === PRESET_ACTIONS.length && saved.sizes.every(isSizePreset)
      ? [...saved.sizes]
      : [...DEFAULT_SIZE_PRESETS.sizes];
  return { unit, sizes };
}

/** A key as printed on the keyboard; a capital letter is typed with Shift. */
export function keyLabel(key: string): string {
  const names: Record<string, string> = { Escape: 'Esc', ' ': 'Space', ArrowUp: '↑', ArrowDown: '↓' };
  if (names[key]) return names[key];
  if (key.length === 1 && key >= 'A' && key <= 'Z') return `Shift+${key}`;
  return key;
}

/** What else already answers a key: another trading action, or a shortcut of the terminal's. */
export interface KeyUse {
  key: string;
  description: string;
}

/**
 * Binds `action` to `key`, or says why not in a sentence naming what the key already does. `others` are the
 * terminal's other shortcuts (the help's list, which includes the trading keys themselves: those of `action`
 * are skipped, another action's are named by that action).
 */
export function rebind(
  bindings: KeyBindings,
  action: TradingAction,
  key: string,
  others: readonly KeyUse[],
): { ok: true; bindings: KeyBindings } | { ok: false; reason: string } {
  if (!isBindableKey(key))
    return {
      ok: false,
      reason: `${keyLabel(key)} cannot be a trading key: choose a letter, a digit, a sign or F1–F12.`,
    };
  if (bindings[action] === key) return { ok: true, bindings };
  const otherAction = TRADING_ACTIONS.find((a) => a !== action && bindings[a] === key);
  if (otherAction)
    return {
      ok: false,
      reason: `${keyLabel(key)} already does “${TRADING_ACTION_NAMES[otherAction]}”: choose another key.`,
    };
  const own = new Set(Object.values(TRADING_ACTION_NAMES));
  const shortcut = others.find((s) => s.key === key && !own.has(s.description));
  if (shortcut)
    return { ok: false, reason: `${keyLabel(key)} already does “${shortcut.description}”: choose another key.` };
  return { ok: true, bindings: { ...bindings, [action]: key } };
}
