// Entry of the signer as a Node worker thread: wires the thread's port to the signer service, and gives
// ethers Node's native scrypt (libuv's thread pool, several times faster than the pure-JS one).
import { scrypt as nodeScrypt } from 'node:crypto';
import { parentPort, workerData } from 'node:worker_threads';
import { scrypt } from 'ethers';
import { SignerService } from './signer-service';

scrypt.register(
  (passwd, salt, N, r, p, dkLen) =>
    new Promise((resolve, reject) =>
      nodeScrypt(passwd, salt, dkLen, { N, r, p, maxmem: 256 * N * r }, (error, key) =>
        error ? reject(error) : resolve(new Uint8Array(key)),
      ),
    ),
);

const port = parentPort;
if (!port) throw new Error('The signer worker must run as a worker thread.');
const { token } = workerData as { token: string };
new SignerService(token, {
  send: (message) => port.postMessage(message),
  onMessage: (listener) => port.on('message', listener),
});
