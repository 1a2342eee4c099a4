// The renderer as a plain Vite app (what the tests and benchmarks build with `vite.build({ root: 'src/renderer' })`);
// electron-vite's renderer section uses the same plugin, so both builds are the same app.
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

export default defineConfig({ plugins: [react()], base: './' });
