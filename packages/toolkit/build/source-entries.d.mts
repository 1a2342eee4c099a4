// Types of source-entries.mjs, for the TypeScript configs that import it (vitest, electron-vite).
export declare const ENTRIES: Record<string, string>;
export declare function sourceAliases(): Record<string, string>;
export declare function viteAliases(): { find: RegExp; replacement: string }[];
