// electron-vite: one build for the three Electron sides. Main (with the signer's utility-process entry) and
// preload bundle from src/main/app and src/preload; the renderer is a plain Vite app under src/renderer (also
// served by browser mode). The preload runs sandboxed, so it is a single CommonJS file that requires only
// electron: its dependencies (zod, the shared contract) are bundled in, never left as imports.
import { resolve } from 'node:path';
import { defineConfig } from 'electron-vite';
import react from '@vitejs/plugin-react';
import { viteAliases } from './packages/toolkit/build/source-entries.mjs';

// The toolkit package (a workspace) is bundled from its sources, as any other app code.
const resolveToolkit = { alias: viteAliases() };

export default defineConfig({
  main: {
    resolve: resolveToolkit,
    build: {
      outDir: 'out/main',
      rollupOptions: {
        input: {
          index: resolve('src/main/app/index.ts'),
          'signer-utility': resolve('src/main/app/signer-utility-entry.ts'),
        },
      },
    },
  },
  preload: {
    resolve: resolveToolkit,
    build: {
      outDir: 'out/preload',
      externalizeDeps: false,
      rollupOptions: {
        input: { index: resolve('src/preload/index.ts') },
        external: ['electron'],
        output: { format: 'cjs', entryFileNames: '[name].cjs' },
      },
    },
  },
  renderer: {
    root: resolve('src/renderer'),
    resolve: resolveToolkit,
    plugins: [react()],
    build: { outDir: resolve('out/renderer'), rollupOptions: { input: resolve('src/renderer/index.html') } },
  },
});
