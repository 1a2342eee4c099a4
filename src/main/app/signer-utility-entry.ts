// Entry of the signer's Electron utility process (bundled to out/main/signer-utility.js): Node's native
// scrypt for ethers, then the signer service on the parent port.
import { scrypt as nodeScrypt } from 'node:crypto';
import { scrypt } from 'ethers';
import { serveSignerOnParentPort, type ParentPortLike } from './signer-utility';

scrypt.register(
  (passwd, salt, N, r, p, dkLen) =>
    new Promise((resolve, reject) =>
      nodeScrypt(passwd, salt, dkLen, { N, r, p, maxmem: 256 * N * r }, (error, key) =>
        error ? reject(error) : resolve(new Uint8Array(key)),
      ),
    ),
);

const port = (process as unknown as { parentPort?: ParentPortLike }).parentPort;
if (!port) throw new Error('The signer must run as an Electron utility process.');
serveSignerOnParentPort(port);
