// `@pmdesk/toolkit/model`: the market model, the error catalogue and the market rules — pure TypeScript with
// no I/O, no Node and no DOM, so a renderer or any browser code can import it without the rest of the toolkit.
/**
 * The market model, the error catalogue and the market rules: pure, no I/O.
 * @module @pmdesk/toolkit/model
 */
export * from './errors';
export * from './market-model';
export * from './market-rules';
export * from './market-state';
export * from './lists';
export * from './reward-scoring';
