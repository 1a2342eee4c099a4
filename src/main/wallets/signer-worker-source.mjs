// Starts the signer worker from its TypeScript source (tests, tsx); a build ships signer-worker.mjs instead.
import { tsImport } from 'tsx/esm/api';

await tsImport('./signer-worker.ts', import.meta.url);
