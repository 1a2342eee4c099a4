// Browser mode's side of the bridge: builds `window.terminal` from the same contract as the Electron preload,
// over the host's /bridge WebSocket (this launch's token comes in the page URL's fragment, which is never sent
// to a server). In the Electron window the preload has already put `window.terminal` there and this does nothing.
import {
  BRIDGE_PATH,
  buildTerminal,
  isEventName,
  type BridgeRequest,
  type EventName,
  type Result,
  type Terminal,
  type TerminalWire,
} from '../../../shared/contract/index';

declare global {
  interface Window {
    terminal: Terminal;
  }
}

type Listener = (payload: unknown) => void;

export interface BridgeConnection {
  terminal: Terminal;
  /** Settles when the socket opened, or rejects when it could not. */
  ready: Promise<void>;
  close(): void;
}

/** The token this launch put in the page's URL fragment (`#token=…`), if any. */
export function tokenFromLocation(hash: string): string | undefined {
  const token = new URLSearchParams(hash.replace(/^#/, '')).get('token');
  return token && /^[A-Za-z0-9_-]{16,128}$/.test(token) ? token : undefined;
}

/** `ws://host/bridge?token=…` for a page served at `http://host`. */
export function bridgeUrl(pageOrigin: string, token: string): string {
  const url = new URL(BRIDGE_PATH, pageOrigin);
  url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
  url.searchParams.set('token', token);
  return url.toString();
}

const closedResult = (): Result<never> => ({
  ok: false,
  error: {
    code: 'ERR_NETWORK',
    message: 'PM Desk is not answering: the connection to its main process closed. Start it again and reload.',
  },
});

export function connectBridge(url: string, WebSocketImpl: typeof WebSocket = WebSocket): BridgeConnection {
  const socket = new WebSocketImpl(url);
  const pending = new Map<number, (result: Result<unknown>) => void>();
  const listeners = new Map<EventName, Set<Listener>>();
  const queue: string[] = [];
  let nextId = 1;
  let closed = false;

  const ready = new Promise<void>((resolve, reject) => {
    socket.addEventListener('open', () => {
      for (const frame of queue.splice(0)) socket.send(frame);
      resolve();
    });
    socket.addEventListener('close', () => {
      closed = true;
      reject(new Error('The PM Desk bridge closed.'));
      for (const answer of pending.values()) answer(closedResult());
      pending.clear();
    });
  });
  // A rejected `ready` nobody awaits must not surface as an unhandled rejection.
  ready.catch(() => {});

  const receive = (data: unknown) => {
    if (!data || typeof data !== 'object') return;
    const frame = data as { id?: unknown; result?: unknown; event?: unknown; payload?: unknown };
    if (typeof frame.id === 'number') {
      const answer = pending.get(frame.id);
      if (!answer) return;
      pending.delete(frame.id);
      answer(frame.result as Result<unknown>);
    } else if (isEventName(frame.event)) {
      for (const listener of listeners.get(frame.event) ?? []) {
        try {
          listener(frame.payload);
        } catch (error) {
          console.error('A terminal event listener threw', error);
        }
      }
    }
  };

  socket.addEventListener('message', (message) => {
    if (typeof message.data !== 'string') return;
    let data: unknown;
    try {
      data = JSON.parse(message.data);
    } catch {
      return;
    }
    // The host sends the events of one turn of its loop as one array of messages, in order.
    if (Array.isArray(data)) for (const item of data) receive(item);
    else receive(data);
  });

  const wire: TerminalWire = {
    call(operation, input) {
      if (closed) return Promise.resolve(closedResult());
      const id = nextId++;
      const request: BridgeRequest = { id, op: operation, input };
      return new Promise((resolve) => {
        pending.set(id, resolve);
        const frame = JSON.stringify(request);
        if (socket.readyState === WebSocketImpl.OPEN) socket.send(frame);
        else queue.push(frame);
      });
    },
    listen(event, listener) {
      let set = listeners.get(event);
      if (!set) listeners.set(event, (set = new Set()));
      set.add(listener);
      return () => void set.delete(listener);
    },
  };
  return { terminal: buildTerminal(wire), ready, close: () => socket.close() };
}

/** Installs `window.terminal` in browser mode; a no-op under Electron's preload or without a token. */
export function installBrowserBridge(win: Window = window): BridgeConnection | undefined {
  // Under Electron the preload defined it already (the global type says it is always there; at run time it may not be).
  if ((win as Partial<Window>).terminal !== undefined) return undefined;
  const token = tokenFromLocation(win.location.hash);
  if (!token) return undefined;
  const connection = connectBridge(bridgeUrl(win.location.origin, token));
  Object.defineProperty(win, 'terminal', {
    value: connection.terminal,
    writable: false,
    configurable: false,
    enumerable: true,
  });
  return connection;
}
