import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

// The lab is a static site: `base: './'` lets the built folder be served from any path.
export default defineConfig({
  base: './',
  plugins: [react()],
  worker: { format: 'es' },
  // Two pages: the lab, and the training benchmark (bench.html, run by `npm run bench`).
  build: { target: 'es2022', chunkSizeWarningLimit: 4000, rollupOptions: { input: { main: 'index.html', bench: 'bench.html' } } },
  server: { host: '127.0.0.1' },
});
