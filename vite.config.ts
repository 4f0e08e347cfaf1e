import { defineConfig, type Plugin } from 'vite';

/**
 * The built pages carry a strict Content-Security-Policy: scripts only from the page's origin (no
 * inline script, no eval — WebAssembly compilation excepted, which tfjs-wasm needs), nothing
 * fetched from anywhere else. Injected at build time only: the dev server's hot reload needs an
 * inline script. e2e/security.spec.ts checks that it holds.
 */
export const CSP = [
  "default-src 'self'",
  "script-src 'self' 'wasm-unsafe-eval'",
  "style-src 'self'",
  "img-src 'self' data: blob:",
  "connect-src 'self'",
  "worker-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
].join('; ');

const contentSecurityPolicy = (): Plugin => ({
  name: 'orchestra-lab-csp',
  apply: 'build',
  transformIndexHtml: () => [{ tag: 'meta', attrs: { 'http-equiv': 'Content-Security-Policy', content: CSP }, injectTo: 'head-prepend' }],
});
import react from '@vitejs/plugin-react';

// The lab is a static site: `base: './'` lets the built folder be served from any path.
export default defineConfig({
  base: './',
  plugins: [react(), contentSecurityPolicy()],
  worker: { format: 'es' },
  // Two pages: the lab, and the training benchmark (bench.html, run by `npm run bench`).
  // KaTeX's fonts stay files: Vite would inline the smallest as data: URLs, which the CSP's font rule (self only) refuses.
  // The page's budget: a script chunk over 600 kB is warned of (KaTeX loads with the first formula, in a chunk of its
  // own). The workers' tfjs bundles are emitted as assets and fetched by the worker, not the page.
  build: { target: 'es2022', assetsInlineLimit: (file) => (/\.(woff2?|ttf)$/.test(file) ? false : undefined), chunkSizeWarningLimit: 600, rollupOptions: { input: { main: 'index.html', bench: 'bench.html' } } },
  server: { host: '127.0.0.1' },
});
