import { defineConfig, mergeConfig } from 'vitest/config';
import base from './vitest.config.js';

// The tests Stryker runs against each mutant: only those that load src/. The checks of the built
// package (test/package/**), the CLI (test/cli/**: the built binary), the other runtimes and the
// demo and the receiver processes of test/fleet/receivers run dist/, which a mutant never reaches.
export default mergeConfig(
  base,
  defineConfig({
    test: {
      exclude: ['test/package/**', 'test/cli/**', 'test/runtimes/**', 'test/e2e/demo.test.ts', 'test/fleet/receivers.test.ts'],
      reporters: ['default'],
    },
  }),
);
