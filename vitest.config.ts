import { defineConfig } from 'vitest/config';

// Unit and API integration tests of every workspace; browser tests have their own config under e2e/.
export default defineConfig({
  test: {
    // The server suites mostly wait on PostgreSQL and MariaDB, so four of them keep two cores busy; the jsdom
    // suites are pure CPU and stay at two (see the web project).
    maxWorkers: 4,
    projects: [
      { test: { name: 'repo', include: ['*.test.ts', 'scripts/**/*.test.ts'], environment: 'node', testTimeout: 30_000 } },
      { test: { name: 'contract', include: ['packages/contract/src/**/*.test.ts'], environment: 'node' } },
      {
        test: {
          name: 'server',
          include: ['apps/server/src/**/*.test.ts'],
          environment: 'node',
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        extends: './apps/web/vite.config.ts',
        // a page rendered whole in jsdom takes seconds on a busy machine: the 5 s default fails them there
        test: { name: 'web', include: ['apps/web/src/**/*.test.{ts,tsx}'], environment: 'jsdom', testTimeout: 30_000, maxWorkers: 2, sequence: { groupOrder: 1 } },
      },
    ],
  },
});
