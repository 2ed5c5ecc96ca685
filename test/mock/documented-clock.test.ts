// A ScaledClock's pending callback never keeps the process alive (docs/testing.md, "Clocks";
// src/testing/clock.ts): checked in a child `node` that loads the built package, schedules a
// callback an hour ahead on a ScaledClock, and then has nothing left to do. It must exit on its
// own. A control child, whose clock timer cannot be unref'd, must not: so the check can fail.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const HOUR = 60 * 60 * 1000;
/** Ample for a child to load the package and exit; a child alive after this is a failure. */
const EXIT_LIMIT_MS = 10_000;
/** How long the control child is watched after arming its timer (real time: it is a real process). */
const CONTROL_WATCH_MS = 1_500;

type Format = 'esm' | 'cjs';

/**
 * The child's program. It wraps `setTimeout` to record each delay armed (and, with `keepRef`, to make
 * `unref()` a no-op, as if the clock never called it), schedules a callback on a ScaledClock an hour
 * of real time ahead (timeScale 1), prints the delays armed by `schedule`, and ends its script.
 */
function program(format: Format, keepRef: boolean): string {
  const load =
    format === 'esm'
      ? `const { ScaledClock } = await import('forecasting-sdk/testing');`
      : `const { ScaledClock } = require('forecasting-sdk/testing');`;
  const body = `
    const realSetTimeout = globalThis.setTimeout;
    const armed = [];
    globalThis.setTimeout = (fn, ms, ...args) => {
      const timer = realSetTimeout(fn, ms, ...args);
      armed.push(ms);
      ${keepRef ? 'timer.unref = () => timer;' : ''}
      return timer;
    };
    ${load}
    const clock = new ScaledClock({ timeScale: 1 });
    const before = armed.length;
    clock.schedule(clock.now() + ${HOUR}, () => console.log('callback ran'));
    console.log('armed ' + JSON.stringify(armed.slice(before)));
  `;
  return format === 'esm' ? body : `(async () => { ${body} })();`;
}

interface Outcome {
  /** Whether the child exited by itself within the limit (otherwise it was killed). */
  exitedAlone: boolean;
  code: number | null;
  stdout: string;
  stderr: string;
  /** The delays the clock armed, from the child's `armed [...]` line. */
  armed: number[];
}

/**
 * Runs the child. It is killed `watchMs` after printing its `armed` line, or `EXIT_LIMIT_MS` after
 * starting, whichever comes first, unless it has exited by itself by then.
 */
function runChild(format: Format, keepRef: boolean, watchMs = EXIT_LIMIT_MS): Promise<Outcome> {
  const args = [...(format === 'esm' ? ['--input-type=module'] : []), '-e', program(format, keepRef)];
  const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  let killed = false;
  const kill = () => {
    if (child.exitCode === null && child.signalCode === null) {
      killed = true;
      child.kill('SIGKILL');
    }
  };
  const limit = setTimeout(kill, EXIT_LIMIT_MS);
  let watch: ReturnType<typeof setTimeout> | undefined;
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk;
    if (watch === undefined && stdout.includes('armed ')) watch = setTimeout(kill, watchMs);
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  return new Promise<Outcome>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(limit);
      clearTimeout(watch);
      const line = /^armed (\[.*\])$/m.exec(stdout);
      resolve({ exitedAlone: !killed, code, stdout, stderr, armed: line ? (JSON.parse(line[1]!) as number[]) : [] });
    });
  });
}

describe('a ScaledClock callback never keeps the process alive (docs/testing.md, "Clocks")', () => {
  it.each<Format>(['esm', 'cjs'])('lets a %s child with a callback pending an hour ahead exit by itself, code 0', async (format) => {
    const outcome = await runChild(format, false);
    expect(outcome.stderr).toBe('');
    // The clock did arm one real timer, for the hour ahead: the callback was pending when it exited.
    expect(outcome.armed).toHaveLength(1);
    expect(outcome.armed[0]).toBeGreaterThan(HOUR - 60_000);
    expect(outcome.armed[0]).toBeLessThanOrEqual(HOUR);
    expect(outcome.stdout).not.toContain('callback ran');
    expect(outcome.exitedAlone).toBe(true);
    expect(outcome.code).toBe(0);
  });

  it('is a check that can fail: the same child whose clock timer stays ref’d is still alive after 1.5 s', async () => {
    const outcome = await runChild('esm', true, CONTROL_WATCH_MS);
    expect(outcome.stderr).toBe('');
    expect(outcome.armed).toHaveLength(1);
    expect(outcome.exitedAlone).toBe(false);
    expect(outcome.code).toBeNull();
  });
});
