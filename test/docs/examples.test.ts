// The code examples of the guides work as written: every TypeScript block type-checks against the
// built package, and the blocks marked `ts run` run to completion. Markers: test/docs/README.md.
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { examplesOf, runExample, typecheckExamples } from './harness.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
/** The markdown files whose examples are tested. */
const DOCS = ['docs/testing.md', 'docs/webhooks.md', 'docs/decisions.md', 'docs/context.md', 'docs/forecasts.md'];
const examples = DOCS.flatMap((file) => examplesOf(root, file));

describe('documentation examples', () => {
  it('finds the examples of every file, some of them runnable', () => {
    for (const file of DOCS) expect(examples.filter((e) => e.file === file).length, file).toBeGreaterThan(0);
    expect(examples.some((e) => e.run)).toBe(true);
  });

  it('type-checks every TypeScript example (strict, against the built package)', () => {
    expect(typecheckExamples(root, examples)).toEqual([]);
  }, 60_000);

  // Concurrent: most of their time is waiting (a forecast on the mock's running clock, servers).
  it.concurrent.each(examples.filter((e) => e.run).map((e) => [e.name, e] as const))('runs %s', async (_name, example) => {
    const result = await runExample(root, example, 30_000);
    expect(result.timedOut, 'did not finish within 30 s (a server or timer left open?)').toBe(false);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
  }, 40_000);
});
