// Size bounds of the long-lived connections (WebSockets): one message may not grow without end. The HTTP
// bounds live with the request helper (request.ts), the fill stream's with the stream (aggregator/fills.ts).

/**
 * The largest WebSocket message accepted (the `ws` package's default is 100 MiB): a first book snapshot for a
 * hundred tokens stays well below; a larger one closes the socket (1009), and the feed reconnects as after any close.
 */
export const WS_MAX_MESSAGE_BYTES = 4 * 1024 * 1024;
