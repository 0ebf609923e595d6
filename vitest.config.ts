import { defineConfig } from 'vitest/config';

// Unit and API integration tests of every workspace; browser tests have their own config under e2e/.

/**
 * How long a test may take before it counts as hung. The heaviest tests (a page rendered whole in jsdom, two server
 * starts on MariaDB) take 15-26 s on two cores busy with the whole suite, and a CI machine busier still timed two of
 * them out at 30 s; a hang still fails, later.
 */
const SLOW_MACHINE_MS = 90_000;
export default defineConfig({
  test: {
    // The server suites mostly wait on PostgreSQL and MariaDB, so four of them keep two cores busy; the jsdom
    // suites are pure CPU and stay at two (see the web project).
    maxWorkers: 4,
    projects: [
      { test: { name: 'repo', include: ['*.test.ts', 'scripts/**/*.test.ts'], environment: 'node', testTimeout: SLOW_MACHINE_MS } },
      { test: { name: 'contract', include: ['packages/contract/src/**/*.test.ts'], environment: 'node' } },
      { test: { name: 'device-sim', include: ['tools/device-sim/src/**/*.test.ts'], environment: 'node', testTimeout: SLOW_MACHINE_MS } },
      {
        test: {
          name: 'server',
          include: ['apps/server/src/**/*.test.ts'],
          environment: 'node',
          // every file builds its own app on its own database, so a worker keeps the modules it has loaded for the next
          // file instead of loading the server's few hundred modules again for each (about a quarter of the project's time)
          isolate: false,
          testTimeout: SLOW_MACHINE_MS,
          hookTimeout: SLOW_MACHINE_MS,
        },
      },
      {
        extends: './apps/web/vite.config.ts',
        // a page rendered whole in jsdom takes seconds on a busy machine: the 5 s default fails them there
        test: { name: 'web', include: ['apps/web/src/**/*.test.{ts,tsx}'], environment: 'jsdom', testTimeout: SLOW_MACHINE_MS, maxWorkers: 2, sequence: { groupOrder: 1 } },
      },
    ],
  },
});
