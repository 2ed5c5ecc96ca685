// The README's first command must keep working: run the demo as a user would (after the build).
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

it('runs the demo end to end against the mock service', () => {
  const root = fileURLToPath(new URL('../..', import.meta.url));
  const out = execFileSync(process.execPath, ['examples/demo.mjs'], { cwd: root, encoding: 'utf8', timeout: 60_000 });
  expect(out).toContain('ValidationError on "upperBound"');
  expect(out).toContain('a tampered body is refused: no_matching_signature');
  expect(out).toMatch(/answer: \d+% YES/);
  expect(out).toMatch(/answer: median [\d.]+ \(80% between/);
  expect(out).toMatch(/report: Our forecast for/);
  expect(out).toMatch(/estimate: 3 forecasts for 3 credits, approved/);
  expect(out).toMatch(/recommendation: (Lisbon|Berlin)/);
  expect(out).toMatch(/Done: \d+ requests reached the mock service/);
});
