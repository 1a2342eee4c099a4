// What the toolkit asks of the platform it runs on, without importing any Node module: in Node, optional Node
// packages (the native signing fast path, `ws` where Node has no WebSocket) are loaded through
// `process.getBuiltinModule`, which browsers and bundlers never see; in a browser these answer "not here".

interface NodeProcessLike {
  versions?: { node?: string };
  getBuiltinModule?: (id: string) => unknown;
}
type RequireLike = ((id: string) => unknown) & { resolve(id: string): string };

const nodeProcess = (globalThis as { process?: NodeProcessLike }).process;

/** True under Node (and Electron's main process), false in a browser. */
export const isNode = Boolean(nodeProcess?.versions?.node);

/** A CommonJS `require` resolving from `from` (a file URL or path) under Node; undefined elsewhere. */
export function nodeRequire(from: string | undefined): RequireLike | undefined {
  if (!isNode || !from) return undefined;
  const nodeModule = nodeProcess?.getBuiltinModule?.('node:module') as
    { createRequire(from: string): RequireLike } | undefined;
  return nodeModule?.createRequire(from);
}
