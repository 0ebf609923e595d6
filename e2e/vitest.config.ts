import { defineConfig } from 'vitest/config';

// Browser tests: one server and one Chromium per file, files one after another (two cores).
export default defineConfig({
  test: {
    name: 'e2e',
    root: import.meta.dirname,
    include: ['**/*.e2e.test.ts'],
    globalSetup: ['./global-setup.ts'],
    environment: 'node',
    fileParallelism: false,
    testTimeout: 60_000,
    // expect.poll waits 1 s by default: on two busy cores a closing dialog's animation can take longer
    expect: { poll: { timeout: 10_000 } },
    hookTimeout: 120_000,
    // two shared cores under a full run make animation-timed clicks race now and then; a real failure fails every try
    retry: 2,
  },
});
