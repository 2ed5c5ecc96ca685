// Every program in examples/ runs, as a user would run it, against the mock service: each is a child
// process importing `forecasting-sdk` (this repository's build, through package.json `exports`).
// The Worker runs in workerd: worker.test.ts. The demo: test/e2e/demo.test.ts.
import { execFile } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** Runs `args` with this Node from the repository root, without FORECASTING_* (so examples use the mock). */
function node(args: string[], timeout = 90_000): Promise<{ code: number; stdout: string; stderr: string }> {
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('FORECASTING_')));
  return new Promise((resolve) => {
    execFile(process.execPath, args, { cwd: root, timeout, env: { ...env, NO_COLOR: '1', FORCE_COLOR: '0' }, encoding: 'utf8' }, (err, stdout, stderr) =>
      resolve({ code: err ? (typeof err.code === 'number' ? err.code : 1) : 0, stdout, stderr }),
    );
  });
}

/** Each example and what its output must show. */
const EXPECTED: Record<string, RegExp[]> = {
  'progress-bar.mjs': [/^\[█{24}\] 5\/5 completed/m, /^Median [\d.]+ USD, 80% between [\d.]+ and [\d.]+$/m, /^Report: Our forecast for/m],
  // How many wait for a slot depends on timing: on the mock's fast clock, early ones may finish while later batches are sent.
  'batch.mjs': [/^round 1: started (5\d|60)(, \d+ wait for a free slot)?$/m, /^60 forecasts completed; wettest: /m],
  'express-receiver.mjs': [/webhook\.test\s+succeeded\s+attempts 1/, /forecast\.failed\s+succeeded\s+attempts 2/, /forecast\.completed\s+succeeded/],
  'hono-receiver.mjs': [/^webhook: forecast\.completed for [\w-]+: \d+% YES$/m, /^a forged call: 400 no_matching_signature$/m],
};
/** Run elsewhere: the demo (test/e2e/demo.test.ts) and the Worker (worker.test.ts). */
const ELSEWHERE = ['demo.mjs', 'worker.mjs'];

describe.concurrent('examples/', () => {
  it('has a test for every program in it', () => {
    const programs = readdirSync(`${root}examples`).filter((f) => f.endsWith('.mjs'));
    expect(programs.filter((f) => !(f in EXPECTED) && !ELSEWHERE.includes(f))).toEqual([]);
  });

  it.for(Object.entries(EXPECTED))('runs %s to completion', { timeout: 100_000 }, async ([file, patterns], { expect }) => {
    const { code, stdout, stderr } = await node([`examples/${file}`]);
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
    for (const pattern of patterns) expect(stdout, stdout).toMatch(pattern);
  });

  it('runs the vitest example (a user’s own code tested with the mock, over HTTP and with msw) in its own vitest', async () => {
    const vitest = `${root}node_modules/vitest/vitest.mjs`;
    const { code, stdout, stderr } = await node([vitest, 'run', '--config', 'examples/vitest/vitest.config.ts', '--reporter=verbose'], 120_000);
    expect(code, `${stdout}\n${stderr}`).toBe(0);
    expect(stdout).toMatch(/Test Files\s+2 passed \(2\)/);
    expect(stdout).toContain('waits for the forecast already running instead of starting a second');
    expect(stdout).toContain('answers a probability, with requests that never left the process');
  }, 130_000);
});
