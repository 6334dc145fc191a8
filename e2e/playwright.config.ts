// Playwright against the built site (dist/, served by `vite preview`) in Debian's Chromium:
// `npx playwright install` cannot download browsers here, so the system browser is used.
import { existsSync } from 'node:fs';
import { defineConfig, devices } from '@playwright/test';

// E2E_PORT (and E2E_DIST, read by vite.config.ts: the build folder) let several checkouts (git worktrees) test at once on one machine.
const PORT = Number(process.env.E2E_PORT ?? 4173);
// The wrapper script /usr/bin/chromium prints a harmless shell warning; the binary does not.
const executablePath =
  process.env.CHROMIUM_PATH ??
  (existsSync('/usr/lib/chromium/chromium') ? '/usr/lib/chromium/chromium' : '/usr/bin/chromium');

export default defineConfig({
  testDir: '.',
  testMatch: '*.spec.ts',
  outputDir: '../test-results',
  fullyParallel: true,
  workers: 2,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 15_000 },
  reporter: [['list']],
  use: {
    baseURL: `http://127.0.0.1:${PORT}/`,
    trace: 'off',
    launchOptions: {
      executablePath,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
        '--disable-dev-shm-usage',
      ],
    },
  },
  projects: [{ name: 'desktop', use: { ...devices['Desktop Chrome'], viewport: { width: 1280, height: 900 } } }],
  webServer: {
    // The binary directly: an npx wrapper can leave vite running when killed.
    command: `./node_modules/.bin/vite preview --config web/vite.config.ts --host 127.0.0.1 --strictPort --port ${PORT}`,
    cwd: '..',
    url: `http://127.0.0.1:${PORT}/`,
    reuseExistingServer: false,
    timeout: 60_000,
  },
});
