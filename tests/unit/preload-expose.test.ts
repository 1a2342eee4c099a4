// The preload, bundled as Electron loads it (one CommonJS file) and run in a fresh context whose `require`
// knows only `electron`, as a sandboxed preload's does. Electron's contextBridge and ipcRenderer are small
// stand-ins (Electron itself cannot run here); everything else is the real preload.
import { runInNewContext } from 'node:vm';
import { build } from 'esbuild';
import { beforeAll, describe, expect, it } from 'vitest';
import { EVENT_NAMES, IPC_EVENT_CHANNEL, OPERATION_NAMES } from '../../src/shared/contract';

let bundle: string;
beforeAll(async () => {
  const result = await build({
    entryPoints: ['src/preload/index.ts'],
    bundle: true,
    format: 'cjs',
    platform: 'node',
    external: ['electron'],
    write: false,
    logLevel: 'silent',
  });
  bundle = result.outputFiles[0]!.text;
});

function loadPreload() {
  const exposed: [string, Record<string, unknown>][] = [];
  const invoked: [string, unknown][] = [];
  const ipcListeners = new Map<string, ((event: unknown, message: unknown) => void)[]>();
  const required: string[] = [];
  const electron = {
    contextBridge: { exposeInMainWorld: (name: string, api: Record<string, unknown>) => exposed.push([name, api]) },
    ipcRenderer: {
      invoke: async (channel: string, input: unknown) => {
        invoked.push([channel, input]);
        return { ok: true, value: 'answer' };
      },
      on: (channel: string, listener: (event: unknown, message: unknown) => void) =>
        ipcListeners.set(channel, [...(ipcListeners.get(channel) ?? []), listener]),
    },
  };
  const module = { exports: {} };
  runInNewContext(bundle, {
    module,
    exports: module.exports,
    console,
    require: (name: string) => {
      required.push(name);
      if (name !== 'electron') throw new Error(`a sandboxed preload cannot require ${name}`);
      return electron;
    },
  });
  return { exposed, invoked, ipcListeners, required };
}

describe('the preload', () => {
  it('requires nothing but electron (it runs in the sandbox)', () => {
    expect(loadPreload().required).toEqual(['electron']);
  });

  it('exposes exactly one thing, window.terminal, with one function per contract operation plus `on`', () => {
    const { exposed } = loadPreload();
    expect(exposed.map(([name]) => name)).toEqual(['terminal']);
    const api = exposed[0]![1];
    expect(Object.keys(api).sort()).toEqual([...OPERATION_NAMES, 'on'].sort());
    for (const value of Object.values(api)) expect(typeof value).toBe('function');
    expect(Object.isFrozen(api)).toBe(true);
    for (const forbidden of [
      'invoke',
      'send',
      'ipcRenderer',
      'sendSync',
      'signMessage',
      'signTypedData',
      'require',
      'process',
    ])
      expect(api).not.toHaveProperty(forbidden);
  });

  it('sends each operation on its own channel and answers what main answered', async () => {
    const { exposed, invoked } = loadPreload();
    const api = exposed[0]![1] as Record<string, (input?: unknown) => Promise<unknown>>;
    expect(await api.listEvents!({ page: 2 })).toEqual({ ok: true, value: 'answer' });
    await api.getNetwork!();
    expect(invoked).toEqual([
      ['terminal:listEvents', { page: 2 }],
      ['terminal:getNetwork', {}],
    ]);
  });

  it('hands event listeners the payload only, for contract events only', () => {
    const { exposed, ipcListeners } = loadPreload();
    const on = exposed[0]![1].on as (event: string, listener: (payload: unknown) => void) => () => void;
    const heard: unknown[][] = [];
    const off = on('fill', (...args) => heard.push(args));
    const [deliver] = ipcListeners.get(IPC_EVENT_CHANNEL)!;
    const ipcEvent = { sender: { send: () => {} }, ports: [] };
    deliver!(ipcEvent, { event: 'fill', payload: { marketId: 'm', fill: { price: 0.5 } } });
    deliver!(ipcEvent, { event: 'notAContractEvent', payload: 1 });
    deliver!(ipcEvent, null);
    expect(heard).toEqual([[{ marketId: 'm', fill: { price: 0.5 } }]]);
    off();
    deliver!(ipcEvent, { event: 'fill', payload: 2 });
    expect(heard).toHaveLength(1);
    expect(() => on('ipc-message', () => {})).toThrow(/no terminal event named ipc-message/);
    expect(() => on('fill', 'not a function' as never)).toThrow(/must be a function/);
    for (const event of EVENT_NAMES) expect(typeof on(event, () => {})).toBe('function');
  });
});
