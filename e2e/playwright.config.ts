import { defineConfig } from '@playwright/test';
import { writeE2eBoundaries } from './e2eIndex.ts';

// Browser tests drive Debian's Chromium (never a downloaded browser); the explorer is served
// by `npm start` on a test port. Software WebGL (SwiftShader) renders the globe headless.
const port = Number(process.env.E2E_PORT ?? 5199);
// The explorer's server routes with the tests' own index (e2e/e2eIndex.ts), never a user's `dishes`.
const boundaries = writeE2eBoundaries();

export default defineConfig({
  testDir: '.',
  testMatch: '**/*.spec.ts',
  timeout: 90_000,
  expect: { timeout: 20_000 },
  fullyParallel: false,
  workers: 1,
  retries: 0,
  reporter: process.env.CI ? [['list'], ['json', { outputFile: '../test-results/e2e.json' }]] : [['list'], ['json', { outputFile: '../test-results/e2e.json' }]],
  outputDir: '../test-results/e2e',
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    viewport: { width: 1280, height: 800 },
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--use-angle=swiftshader', '--enable-unsafe-swiftshader', '--ignore-gpu-blocklist'],
    },
  },
  webServer: {
    command: 'node scripts/start.mjs',
    cwd: '..',
    url: `http://127.0.0.1:${port}/`,
    env: { PORT: String(port), GEOSHARD_BOUNDARIES: boundaries },
    reuseExistingServer: false,
    timeout: 120_000,
    stdout: 'pipe',
  },
});
