import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Nothing a test runs in its process connects beyond loopback: a connection elsewhere is refused and fails the test.
    setupFiles: ['test/_setup/loopback-only.ts'],
    // Files are isolated, so msw's interception in unit tests never meets the real-HTTP suites.
    isolate: true,
    testTimeout: 20_000,
    // Two files at a time even on 2 cores (vitest's default there is one): most of the suite's time
    // is spent waiting on servers it starts (Redis failovers, child processes, a browser), not on CPU.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    // On CI a JSON summary is written too, for .ci/run's closing "N passed, N failed" line.
    reporters: process.env['CI'] ? ['default', 'json'] : ['default'],
    outputFile: { json: 'test-results.json' },
  },
});
