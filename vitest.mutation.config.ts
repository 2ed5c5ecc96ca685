import { defineConfig, mergeConfig } from 'vitest/config';
import base from './vitest.config.js';

// The tests Stryker runs against each mutant: only those that load src/. Those that run dist/, which a
// mutant never reaches, are left out: the built package's checks, the CLI's (the built binary, also
// in openapi-cli, and the lint of dist/openapi.json), the other runtimes, the docs' and examples'
// programs, the demo, and the fleet tests whose clients run in child processes (a mutant is active
// only in the test's own process, so they cannot kill one and would only cost minutes per mutant).
export default mergeConfig(
  base,
  defineConfig({
    test: {
      exclude: [
        'test/package/**',
        'test/cli/**',
        'test/openapi-cli.test.ts',
        'test/openapi-lint.test.ts',
        'test/runtimes/**',
        'test/docs/**',
        'test/examples/**',
        'test/e2e/demo.test.ts',
        'test/fleet/receivers.test.ts',
        'test/fleet/processes-limits.test.ts',
        'test/fleet/waits-processes.test.ts',
      ],
      reporters: ['default'],
    },
  }),
);
