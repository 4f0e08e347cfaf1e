import { defineConfig } from '@playwright/test';

// Real headless Chromium from Debian (never a downloaded browser), with its software WebGPU
// adapter enabled, against the production build served by `vite preview`.
export const CHROMIUM_ARGS = [
  '--enable-unsafe-webgpu',
  '--enable-unsafe-swiftshader',
  '--no-sandbox',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

// E2E_PORT lets two checkouts on one machine run their browser tests at once without one reusing
// the other's server.
const PORT = Number(process.env.E2E_PORT ?? 4173);

// Tests tagged @timing measure speed (it/s, long tasks, a view's update time) or load the software
// WebGPU adapter: they run first, one at a time; then the rest run two at a time (files in parallel).
const TIMING = /@timing/;

export default defineConfig({
  testDir: 'e2e',
  timeout: 120_000,
  expect: { timeout: 30_000 },
  workers: 2,
  retries: 0,
  reporter: [['list'], ['json', { outputFile: 'test-results/e2e.json' }]],
  use: {
    baseURL: `http://127.0.0.1:${PORT}`,
    headless: true,
    viewport: { width: 1280, height: 800 },
    launchOptions: { executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS },
  },
  projects: [
    { name: 'timing', grep: TIMING, workers: 1, use: { browserName: 'chromium' } },
    { name: 'chromium', grepInvert: TIMING, dependencies: ['timing'], use: { browserName: 'chromium' } },
  ],
  webServer: {
    command: `npx vite preview --host 127.0.0.1 --port ${PORT} --strictPort`,
    url: `http://127.0.0.1:${PORT}`,
    reuseExistingServer: !process.env.CI,
    timeout: 60_000,
  },
});
