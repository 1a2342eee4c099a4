// electron-vite: one build for the three Electron sides. Main and preload bundle from src/main/app and
// src/preload; the renderer is a plain Vite app under src/renderer (also served by browser mode).
import { resolve } from 'node:path';
import { defineConfig } from 'electron-vite';

export default defineConfig({
  main: {
    build: { outDir: 'out/main', lib: { entry: resolve('src/main/app/index.ts') } },
  },
  preload: {
    build: { outDir: 'out/preload', lib: { entry: resolve('src/preload/index.ts') } },
  },
  renderer: {
    root: resolve('src/renderer'),
    build: { outDir: resolve('out/renderer'), rollupOptions: { input: resolve('src/renderer/index.html') } },
  },
});
