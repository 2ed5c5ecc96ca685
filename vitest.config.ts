import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Files are isolated, so msw's interception in unit tests never meets the real-HTTP suites.
    isolate: true,
    testTimeout: 20_000,
    // On CI a JSON summary is written too, for .ci/run's closing "N passed, N failed" line.
    reporters: process.env['CI'] ? ['default', 'json'] : ['default'],
    outputFile: { json: 'test-results.json' },
  },
});
