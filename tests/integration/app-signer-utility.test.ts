// The signer as the app runs it: main's transport to a utility process and the child's parent-port end,
// joined by small stand-ins for Electron's UtilityProcess and parentPort (Electron cannot run here); the
// signer service between them is the real one, so wallets are created and unlocked for real.
import { EventEmitter } from 'node:events';
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  serveSignerOnParentPort,
  utilityProcessTransport,
  type ParentPortLike,
  type UtilityProcessLike,
} from '../../src/main/app/signer-utility';
import { SignerClient } from '../../src/main/wallets/signer-client';

/** A utility process whose child end runs in this process: messages cross asynchronously, as they do. */
function fakeUtilityProcess() {
  const parentSide = new EventEmitter();
  const childSide = new EventEmitter();
  const child: UtilityProcessLike & { killed: boolean } = {
    killed: false,
    postMessage: (message) => setImmediate(() => childSide.emit('message', { data: structuredClone(message) })),
    on: (event: string, listener: (...args: unknown[]) => void) => parentSide.on(event, listener),
    kill: () => {
      child.killed = true;
      setImmediate(() => parentSide.emit('exit', 0));
      return true;
    },
  } as UtilityProcessLike & { killed: boolean };
  const parentPort: ParentPortLike = {
    postMessage: (message) => setImmediate(() => parentSide.emit('message', structuredClone(message))),
    on: (event: string, listener: (event: { data: unknown }) => void) => childSide.on(event, listener),
  };
  return { child, parentPort, childSide };
}

describe('the signer in a utility process', () => {
  it('creates, unlocks and locks a wallet through the transport; the phrase appears only in createWallet', async () => {
    const { child, parentPort } = fakeUtilityProcess();
    serveSignerOnParentPort(parentPort);
    const token = randomBytes(32).toString('hex');
    const signer = new SignerClient(utilityProcessTransport(child, token), token);
    const created = await signer.createWallet('correct horse battery', { scryptN: 2 ** 10 });
    expect(created.mnemonic.split(' ')).toHaveLength(12);
    expect(await signer.unlock(created.keystore, 'correct horse battery')).toBe(created.address);
    expect(await signer.unlocked()).toEqual([created.address]);
    expect(await signer.lock()).toEqual([created.address]);
    await signer.close();
    expect(child.killed).toBe(true);
  });

  it('answers nobody but the holder of the token it was given first', async () => {
    const { child, parentPort, childSide } = fakeUtilityProcess();
    serveSignerOnParentPort(parentPort);
    const token = randomBytes(32).toString('hex');
    const replies: unknown[] = [];
    child.on('message', (m) => replies.push(m));
    utilityProcessTransport(child, token);
    // The token goes first (asynchronously, like every message); the stranger's request comes after it.
    await new Promise((resolve) => setImmediate(resolve));
    const answered = new Promise<void>((resolve) => child.on('message', () => resolve()));
    childSide.emit('message', { data: { id: 7, token: randomBytes(32).toString('hex'), op: 'unlocked', params: {} } });
    await answered;
    expect(replies).toEqual([
      {
        id: 7,
        ok: false,
        error: { code: 'ERR_FORBIDDEN', message: 'The signer answers only to the process that started it.' },
      },
    ]);
  });

  it('a request before the token is ignored, and a dead signer fails pending requests plainly', async () => {
    const { child, parentPort, childSide } = fakeUtilityProcess();
    serveSignerOnParentPort(parentPort);
    const replies: unknown[] = [];
    child.on('message', (m) => replies.push(m));
    childSide.emit('message', { data: { id: 99, token: 'ab'.repeat(32), op: 'unlocked', params: {} } });
    const token = randomBytes(32).toString('hex');
    const signer = new SignerClient(utilityProcessTransport(child, token), token);
    expect(await signer.unlocked()).toEqual([]);
    expect(replies.map((r) => (r as { id: number }).id)).toEqual([1]);
    const pending = signer.createWallet('correct horse battery', { scryptN: 2 ** 10 });
    child.kill();
    await expect(pending).rejects.toMatchObject({ code: 'ERR_SDK_INTERNAL' });
  });
});
