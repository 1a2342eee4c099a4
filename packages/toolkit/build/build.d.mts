// Types of build.mjs, for the TypeScript that calls it (bench/toolkit-package.ts).
/** Builds dist/ (ESM, CommonJS, .d.ts, source maps); resolves to dist's path relative to the working directory. */
export declare function buildPackage(): Promise<string>;
