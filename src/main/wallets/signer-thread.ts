// The signer as a Node worker thread (CLI, tests): a fresh random token per worker, handed over at start.
// The Electron app will start the same service in a utility process behind the same SignerTransport.
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { SignerClient } from './signer-client';
import type { SignerRequestMessage, SignerTransport } from './signer-protocol';

/** The built worker beside the running bundle (out/cli), else the TypeScript source through tsx. */
export function defaultSignerEntry(): URL {
  const built = new URL('./signer-worker.mjs', import.meta.url);
  return existsSync(fileURLToPath(built)) ? built : new URL('./signer-worker-source.mjs', import.meta.url);
}

export interface SignerThreadOptions {
  entry?: URL;
}

/** A worker-thread transport, exposed for tests that speak the raw protocol (a wrong token, say). */
export function startSignerWorker(token: string, options: SignerThreadOptions = {}): SignerTransport {
  const worker = new Worker(options.entry ?? defaultSignerEntry(), { workerData: { token } });
  let closing = false;
  const exitListeners: ((detail: string) => void)[] = [];
  let exited = false;
  const exit = (detail: string) => {
    if (exited) return;
    exited = true;
    for (const listener of exitListeners) listener(detail);
  };
  // A worker error carries a stack from inside the signer: only its kind crosses into main.
  worker.on('error', (error) => exit(`worker error: ${error.name}`));
  worker.on('exit', (code) => exit(closing ? 'closed' : `worker exited with code ${code}`));
  return {
    send: (message: SignerRequestMessage) => worker.postMessage(message),
    onMessage: (listener) => worker.on('message', listener),
    onExit: (listener) => exitListeners.push(listener),
    close: async () => {
      closing = true;
      await worker.terminate();
    },
  };
}

export function startSignerThread(options: SignerThreadOptions = {}): SignerClient {
  const token = randomBytes(32).toString('hex');
  return new SignerClient(startSignerWorker(token, options), token);
}
