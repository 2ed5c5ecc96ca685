// The example's own test configuration, as a project of yours would have it. The repository's suite
// runs it in a child process (test/examples/examples.test.ts) and does not collect these files itself.
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    root: fileURLToPath(new URL('.', import.meta.url)),
    include: ['*.test.ts'],
    testTimeout: 20_000,
  },
});
