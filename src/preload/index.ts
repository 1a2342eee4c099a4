// Preload: exposes `window.terminal`, built from the shared IPC contract, and nothing else. It runs sandboxed
// (context isolation on, Node off), so it is one bundle that requires only `electron`. The renderer gets one
// function per contract operation and `on` for the contract's events; never ipcRenderer, never a channel name,
// never the IPC event object (which would carry a reference back to the sender).
import { contextBridge, ipcRenderer } from 'electron';
import { IPC_EVENT_CHANNEL, buildTerminal, ipcChannel, isEventName, type EventName } from '../shared/contract';

type Listener = (payload: unknown) => void;
const listeners = new Map<EventName, Set<Listener>>();

ipcRenderer.on(IPC_EVENT_CHANNEL, (_event, message: unknown) => {
  const { event, payload } = (message ?? {}) as { event?: unknown; payload?: unknown };
  if (!isEventName(event)) return;
  for (const listener of listeners.get(event) ?? []) {
    try {
      listener(payload);
    } catch (error) {
      console.error('A terminal event listener threw', error);
    }
  }
});

const terminal = buildTerminal({
  call: (operation, input) => ipcRenderer.invoke(ipcChannel(operation), input),
  listen: (event, listener) => {
    let set = listeners.get(event);
    if (!set) listeners.set(event, (set = new Set()));
    set.add(listener);
    return () => void set.delete(listener);
  },
});

contextBridge.exposeInMainWorld('terminal', terminal);
