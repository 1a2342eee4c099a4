// The renderer as a plain Vite app (what the tests and benchmarks build with `vite.build({ root: 'src/renderer' })`);
// electron-vite's renderer section uses the same plugin, so both builds are the same app.
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { viteAliases } from '../../packages/toolkit/build/source-entries.mjs';

// The toolkit package's public entries resolve to its sources, as in electron-vite's renderer section.
export default defineConfig({ plugins: [react()], base: './', resolve: { alias: viteAliases() } });
