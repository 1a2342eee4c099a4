// The chain node's JSON-RPC transport for the order flow, bounded like every other request: one deadline for the
// whole answer and a size cap. ethers' own Node transport only times out an idle socket (a node that drips a byte
// at a time is never given up) and leaves the socket open after its timeout, which keeps a CLI process alive.
import { FetchRequest, makeError, type FetchGetUrlFunc } from 'ethers';

/** The toolkit's request bound, used when the caller gives none. */
const DEFAULT_RPC_TIMEOUT_MS = 100_000;
/** A JSON-RPC answer of the order flow (a balance, an allowance, a receipt) is small; a block of logs is not asked. */
const RPC_ANSWER_MAX_BYTES = 4 * 1024 * 1024;

/** A FetchRequest for `url` whose every request ends within `timeoutMs` (ethers' TIMEOUT) or is cut at the cap. */
export function boundedRpcRequest(url: string, timeoutMs = DEFAULT_RPC_TIMEOUT_MS): FetchRequest {
  const request = new FetchRequest(url);
  request.timeout = timeoutMs;
  request.getUrlFunc = boundedGetUrl(timeoutMs);
  return request;
}

function boundedGetUrl(timeoutMs: number): FetchGetUrlFunc {
  return async (req, signal) => {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), timeoutMs);
    signal?.addListener(() => controller.abort());
    try {
      const response = await fetch(req.url, {
        method: req.method,
        headers: req.headers,
        body: req.body ? Buffer.from(req.body) : undefined,
        signal: controller.signal,
        // ethers decides on redirects itself (same protocol only); fetch must not follow them behind its back.
        redirect: 'manual',
      });
      const body = await readCapped(response, controller);
      return {
        statusCode: response.status,
        statusMessage: response.statusText,
        headers: Object.fromEntries(response.headers),
        body,
      };
    } catch (error) {
      if (controller.signal.aborted && !signal?.cancelled)
        throw makeError('request timeout', 'TIMEOUT', { operation: 'request.send', reason: 'timeout' } as never);
      // fetch says only "fetch failed"; the socket's own code (ECONNREFUSED, ENOTFOUND) is what tells a trader why.
      const code = (error as { cause?: { code?: unknown } })?.cause?.code;
      if (typeof code === 'string')
        throw Object.assign(new Error(`${code}: ${(error as Error).message}`), { code, cause: error });
      throw error;
    } finally {
      clearTimeout(timer);
    }
  };
}

async function readCapped(response: Response, controller: AbortController): Promise<Uint8Array | null> {
  if (!response.body) return null;
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of response.body as AsyncIterable<Uint8Array>) {
    size += chunk.byteLength;
    if (size > RPC_ANSWER_MAX_BYTES) {
      controller.abort();
      throw makeError(`the chain's node answered more than ${RPC_ANSWER_MAX_BYTES} bytes`, 'SERVER_ERROR', {
        request: undefined as never,
      });
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}
