// The keyboard help's "Keyboard trading" section: each trading action with its key and a way to press a new
// one (a key in use refused with a sentence naming what it does), the keys back to their defaults, the size
// presets, and the opt-in to place keyboard orders without the confirmation.
import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import {
  DEFAULT_KEY_BINDINGS,
  PRESET_ACTIONS,
  SIZE_PRESET_MAX,
  TRADING_ACTIONS,
  TRADING_ACTION_NAMES,
  isSizePreset,
  keyLabel,
  rebind,
  type TradingAction,
} from '../../../../shared/key-bindings';
import { listShortcuts } from '../../keys/keyboard';
import { useSession } from '../../store/session';
import { ErrorLine } from '../wallets/Dialog';

export function TradingKeys() {
  const settings = useSession((s) => s.settings);
  const { keyBindings, sizePresets, keyboardOrdersWithoutConfirm } = settings;
  const [choosing, setChoosing] = useState<TradingAction | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const keyBox = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (choosing) keyBox.current?.focus();
  }, [choosing]);

  function chooseKey(action: TradingAction, event: KeyboardEvent<HTMLInputElement>) {
    // Tab still moves on, Esc still closes, Shift alone is half a key: every other key is the one asked for.
    if (event.key === 'Tab' || event.key === 'Escape' || event.key === 'Shift') return;
    event.preventDefault();
    const bound = rebind(keyBindings, action, event.key, listShortcuts());
    if (!bound.ok) return setProblem(bound.reason);
    setProblem(null);
    if (bound.bindings !== keyBindings) void useSession.getState().saveSettings({ keyBindings: bound.bindings });
    setChoosing(null);
  }

  function resetKeys() {
    // A default another shortcut took since (the cancel-all key, say) is named rather than taken from it.
    const own = new Set(Object.values(TRADING_ACTION_NAMES));
    const clash = TRADING_ACTIONS.map((a) =>
      listShortcuts().find((s) => s.key === DEFAULT_KEY_BINDINGS[a] && !own.has(s.description)),
    ).find(Boolean);
    if (clash) return setProblem(`${keyLabel(clash.key)} already does “${clash.description}”: change that key first.`);
    setProblem(null);
    void useSession.getState().saveSettings({ keyBindings: { ...DEFAULT_KEY_BINDINGS } });
  }

  return (
    <section className="trading-keys" data-testid="trading-keys" aria-label="Keyboard trading">
      <h3>Keyboard trading</h3>
      <p className="muted">
        On the chosen market and outcome. Buy and Sell fill the ticket at the best price with the preset size and open
        its confirmation.
      </p>
      <table className="dense shortcuts-table">
        <tbody>
          {TRADING_ACTIONS.map((action) => (
            <tr key={action} data-testid="trading-key" data-action={action} data-key={keyBindings[action]}>
              <td>
                {choosing === action ? (
                  <input
                    ref={keyBox}
                    aria-label={`Press the new key for: ${TRADING_ACTION_NAMES[action]}`}
                    data-testid="trading-key-box"
                    readOnly
                    size={8}
                    value={keyLabel(keyBindings[action])}
                    onKeyDown={(e) => chooseKey(action, e)}
                    onBlur={() => setChoosing(null)}
                  />
                ) : (
                  <kbd>{keyLabel(keyBindings[action])}</kbd>
                )}
              </td>
              <td>
                {TRADING_ACTION_NAMES[action]}
                {PRESET_ACTIONS.includes(action as (typeof PRESET_ACTIONS)[number])
                  ? ` (${presetText(sizePresets, PRESET_ACTIONS.indexOf(action as (typeof PRESET_ACTIONS)[number]))})`
                  : ''}
              </td>
              <td>
                <button
                  type="button"
                  className="ghost"
                  data-testid={`rebind-${action}`}
                  title="Press the new key after clicking"
                  onClick={() => setChoosing(action)}
                >
                  Change…
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <ErrorLine message={problem} />
      <div className="row">
        <button type="button" data-testid="reset-trading-keys" onClick={resetKeys}>
          Reset trading keys to defaults
        </button>
      </div>
      <SizePresetsField />
      <label
        className="row ticket-check"
        title="Buy and Sell keys then send the order at once; main’s pre-trade checks still refuse what they refuse."
      >
        <input
          type="checkbox"
          data-testid="keyboard-no-confirm"
          checked={keyboardOrdersWithoutConfirm}
          onChange={(e) => void useSession.getState().saveSettings({ keyboardOrdersWithoutConfirm: e.target.checked })}
        />
        Place keyboard orders without confirmation
      </label>
      {keyboardOrdersWithoutConfirm ? (
        <div className="warn" role="alert" data-testid="keyboard-no-confirm-warning">
          One key press now sends a real order at the best price with the preset size, with nothing to review first.
        </div>
      ) : null}
    </section>
  );
}

function presetText(presets: { unit: 'shares' | 'usd'; sizes: number[] }, index: number): string {
  const size = presets.sizes[index];
  if (size === undefined) return '';
  return presets.unit === 'usd' ? `$${size}` : `${size} shares`;
}

/** The four preset sizes and their unit, saved together once each is a size the ticket takes. */
function SizePresetsField() {
  const presets = useSession((s) => s.settings.sizePresets);
  const [texts, setTexts] = useState(presets.sizes.map(String));
  const [unit, setUnit] = useState(presets.unit);
  const [problem, setProblem] = useState<string | null>(null);
  useEffect(() => {
    setTexts(presets.sizes.map(String));
    setUnit(presets.unit);
  }, [presets]);

  function save() {
    const sizes = texts.map((t) => (t.trim() === '' ? NaN : Number(t)));
    const bad = sizes.findIndex((s) => !isSizePreset(s));
    if (bad >= 0)
      return setProblem(
        `Preset ${bad + 1}: type a size above 0 and at most ${SIZE_PRESET_MAX.toLocaleString('en-US')}, in hundredths at most.`,
      );
    setProblem(null);
    void useSession.getState().saveSettings({ sizePresets: { unit, sizes } });
  }

  return (
    <div className="field" data-testid="size-presets">
      <span>Size presets</span>
      <div className="row">
        {texts.map((text, i) => (
          <input
            key={i}
            aria-label={`Size preset ${i + 1}`}
            data-testid={`size-preset-${i + 1}`}
            inputMode="decimal"
            size={6}
            value={text}
            onChange={(e) => setTexts(texts.map((t, j) => (j === i ? e.target.value : t)))}
          />
        ))}
        <select
          aria-label="Size presets unit"
          data-testid="size-presets-unit"
          value={unit}
          onChange={(e) => setUnit(e.target.value as 'shares' | 'usd')}
        >
          <option value="shares">shares</option>
          <option value="usd">USDC</option>
        </select>
        <button type="button" data-testid="size-presets-save" onClick={save}>
          Save presets
        </button>
      </div>
      <ErrorLine message={problem} />
    </div>
  );
}
