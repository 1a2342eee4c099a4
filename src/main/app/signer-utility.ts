// The signer in an Electron utility process: main's end (a SignerTransport over the child) and the child's
// end (the signer service on its parent port). The token is handed over as the first message, so only the
// process that forked the signer can ever ask it anything; the rest is the same protocol as the worker thread.
import type { SignerPort, SignerRequestMessage, SignerTransport } from '../wallets/signer-protocol';
import { SignerService } from '../wallets/signer-service';

/** The parts of Electron's UtilityProcess main uses. */
export interface UtilityProcessLike {
  postMessage(message: unknown): void;
  on(event: 'message', listener: (message: unknown) => void): unknown;
  on(event: 'exit', listener: (code: number) => void): unknown;
  kill(): boolean;
}

/** The parts of the child's `process.parentPort` the signer uses. */
export interface ParentPortLike {
  postMessage(message: unknown): void;
  on(event: 'message', listener: (event: { data: unknown }) => void): unknown;
}

export function utilityProcessTransport(child: UtilityProcessLike, token: string): SignerTransport {
  const exitListeners: ((detail: string) => void)[] = [];
  let closing = false;
  let exited = false;
  let resolveExit: () => void = () => {};
  const exit = new Promise<void>((resolve) => (resolveExit = resolve));
  child.on('exit', (code) => {
    if (exited) return;
    exited = true;
    resolveExit();
    for (const listener of exitListeners) listener(closing ? 'closed' : `signer process exited with code ${code}`);
  });
  child.postMessage({ init: token });
  return {
    send: (message: SignerRequestMessage) => child.postMessage(message),
    onMessage: (listener) => void child.on('message', listener),
    onExit: (listener) => void exitListeners.push(listener),
    close: async () => {
      if (exited) return;
      closing = true;
      child.kill();
      await exit;
    },
  };
}

/** The child's side: waits for the token, then serves the signer protocol on the parent port. */
export function serveSignerOnParentPort(port: ParentPortLike): void {
  const listeners: ((message: unknown) => void)[] = [];
  let started = false;
  port.on('message', ({ data }) => {
    if (!started) {
      const token = (data as { init?: unknown } | null)?.init;
      if (typeof token !== 'string') return;
      started = true;
      const signerPort: SignerPort = {
        send: (message) => port.postMessage(message),
        onMessage: (listener) => void listeners.push(listener),
      };
      new SignerService(token, signerPort);
      return;
    }
    for (const listener of listeners) listener(data);
  });
}
