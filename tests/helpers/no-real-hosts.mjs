// Loaded into every test process and every Node child it starts (NODE_OPTIONS --import): a connection to a real
// Polymarket host, or to the built-in networks' RPC nodes, is refused before any byte or DNS lookup leaves the
// machine, and written to the file named by PMDESK_REAL_HOST_LOG so the test that caused it fails even when it
// expected some network error. Plain JavaScript so a child process loads it without a TypeScript loader.
import { appendFileSync } from 'node:fs';
import net from 'node:net';

/** The hosts of Polygon's and Amoy's built-in profiles (packages/toolkit/src/chain/networks.ts), all of polymarket.com and its market-image host. */
export const REAL_HOST =
  /(^|\.)polymarket\.com$|^polymarket-upload\.s3\.us-east-2\.amazonaws\.com$|^polygon\.drpc\.org$|^rpc-amoy\.polygon\.technology$/i;

const GUARDED = Symbol.for('pmdesk.noRealHosts');

if (!net.Socket.prototype[GUARDED]) {
  const connect = net.Socket.prototype.connect;
  net.Socket.prototype.connect = function guardedConnect(...args) {
    // net.connect and tls.connect hand over [options, callback] already normalised; a direct call passes options or (port, host).
    const first = Array.isArray(args[0]) ? args[0][0] : args[0];
    const host =
      first !== null && typeof first === 'object'
        ? (first.host ?? first.servername)
        : typeof args[1] === 'string'
          ? args[1]
          : undefined;
    if (typeof host === 'string' && REAL_HOST.test(host.replace(/\.$/, ''))) {
      const message = `A test tried to reach a real host: ${host}`;
      if (process.env.PMDESK_REAL_HOST_LOG)
        appendFileSync(process.env.PMDESK_REAL_HOST_LOG, `${message} (pid ${process.pid})\n`);
      // Failed the way a refused connection fails (an 'error' on the socket), so fetch rejects and a WebSocket
      // emits 'error' instead of an exception escaping from inside the HTTP client.
      process.nextTick(() => this.destroy(Object.assign(new Error(message), { code: 'ERR_PMDESK_REAL_HOST' })));
      return this;
    }
    return connect.apply(this, args);
  };
  net.Socket.prototype[GUARDED] = true;
}
