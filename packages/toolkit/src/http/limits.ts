// Bounds of the long-lived connections (WebSockets): the handshake must finish in time, and one message may not
// grow without end (silence once open is each feed's own stale check). The HTTP
// bounds live with the request helper (request.ts), the fill stream's with the stream (aggregator/fills.ts).

/**
 * The largest WebSocket message accepted (the `ws` package's default is 100 MiB): a first book snapshot for a
 * hundred tokens stays well below; a larger one closes the socket (1009), and the feed reconnects as after any close.
 */
export const WS_MAX_MESSAGE_BYTES = 4 * 1024 * 1024;

/** The longest a WebSocket handshake may take: a host that accepts and never upgrades is given up and redialled. */
export const WS_HANDSHAKE_TIMEOUT_MS = 10_000;
