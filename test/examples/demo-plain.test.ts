// The demo prints escape codes only for a person at a terminal: piped, or with NO_COLOR set, it is
// plain text (a log file or `npm run demo | less` shows no `\x1b[1m`).
import { execFile, execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const ESC = '\u001b';
const hasScript = (() => {
  try {
    execFileSync('script', ['-qec', 'true', '/dev/null'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

/** Runs `file args` from the repository root with `env` (no NO_COLOR, FORCE_COLOR or FORECASTING_* unless given). */
function runDemo(file: string, args: string[], env: Record<string, string> = {}): Promise<string> {
  const base = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('FORECASTING_') && k !== 'NO_COLOR' && k !== 'FORCE_COLOR'));
  return new Promise((resolve, reject) => {
    execFile(file, args, { cwd: root, env: { ...base, ...env }, encoding: 'utf8', timeout: 90_000 }, (err, stdout) => (err ? reject(err) : resolve(stdout)));
  });
}

describe('examples/demo.mjs', () => {
  it('piped (stdout not a terminal), prints plain text', { timeout: 100_000 }, async () => {
    const out = await runDemo(process.execPath, ['examples/demo.mjs']);
    expect(out).toContain('1. Create one question of each type');
    expect(out).not.toContain(ESC);
  });

  // `script` gives the demo a terminal; its output is then the terminal's.
  const onTerminal = (env: Record<string, string>) => runDemo('script', ['-qec', `${JSON.stringify(process.execPath)} examples/demo.mjs`, '/dev/null'], env);

  it.skipIf(!hasScript)('on a terminal with NO_COLOR set, prints plain text too', { timeout: 100_000 }, async () => {
    const out = await onTerminal({ NO_COLOR: '1' });
    expect(out).toContain('1. Create one question of each type');
    expect(out).not.toContain(ESC);
  });

  it.skipIf(!hasScript)('on a terminal without NO_COLOR, shows bold headings (so the two tests above can fail)', { timeout: 100_000 }, async () => {
    expect(await onTerminal({})).toContain(`${ESC}[1m1. Create one question of each type`);
  });
});
