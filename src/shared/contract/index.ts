// The one IPC contract: every operation the renderer may ask main for and every event main may push, each
// with its schema. The preload, the browser-mode bridge and the router are all built from these tables, so
// they cannot drift. There is deliberately no generic `invoke(channel, …)`: a page script must not reach
// anything this file does not name (a raw channel would let it, say, call a password check in a loop), and
// no operation signs bytes the renderer chose: trading operations are intents that main turns into orders.
// The contract is split by area (markets, wallets, trading, account, alerts, settings) with the events, the
// `window.terminal` builder and the wire format beside them; this index is its one import path.
export * from './result';
/** A book leaves main in one shape, the one the ladder draws (src/shared/book.ts). */
export type { Book, BookLevel } from '../book';
export { PROTOCOLS, CANDLE_INTERVALS, type Protocol } from './inputs';
export type { OperationSpec } from './inputs';
export * from './markets';
export * from './wallets';
export * from './trading';
export * from './account';
export * from './alerts';
export * from './rewards';
export * from './convert';
export * from './portfolio';
export * from './settings';
export * from './traders';
export * from './operations';
export * from './events';
export * from './terminal';
export * from './wire';
