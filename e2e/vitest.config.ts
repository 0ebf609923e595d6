import { defineConfig } from 'vitest/config';

// Browser tests: one server and one Chromium per file, two files at a time. A browser test mostly waits (for a page,
// an animation, the server), so two of them share two cores well: the whole suite took 891 s so instead of about
// 1,900 s one after another, with the same tests passing. Every file starts its own server on a free port, its own
// data folder and its own MQTT port, so two files never meet.
export default defineConfig({
  test: {
    name: 'e2e',
    root: import.meta.dirname,
    include: ['**/*.e2e.test.ts'],
    globalSetup: ['./global-setup.ts'],
    environment: 'node',
    fileParallelism: true,
    maxWorkers: 2,
    testTimeout: 60_000,
    // expect.poll waits 1 s by default: on two busy cores a closing dialog's animation can take longer
    expect: { poll: { timeout: 10_000 } },
    hookTimeout: 120_000,
    // no second try: a test that passes only sometimes hides a race in the console or in the test, to be fixed there
    retry: 0,
  },
});
