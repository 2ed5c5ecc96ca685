// docs/cli.md's curl session, run as written with bash, curl and jq against `forecasting mock`
// (the binary on PATH as an installed package puts it there).
import { execFileSync, spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BIN, ROOT, childEnv } from './_cli.js';

const has = (tool: string) => {
  try {
    execFileSync(tool, ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
};
const tools = ['bash', 'curl', 'jq'].every(has);

const dir = mkdtempSync(join(tmpdir(), 'forecasting-docs-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The first sh block after `heading` in docs/cli.md, and the first text block after it. */
function session(heading: string): { script: string; output: string } {
  const doc = readFileSync(join(ROOT, 'docs/cli.md'), 'utf8');
  const section = doc.slice(doc.indexOf(heading));
  const script = /```sh\n([\s\S]*?)```/.exec(section)?.[1];
  const output = /```text\n([\s\S]*?)```/.exec(section)?.[1];
  if (!script || !output) throw new Error(`no sh and text blocks after ${heading}`);
  return { script, output };
}

describe('docs/cli.md', () => {
  it.skipIf(!tools)('"forecasting mock for other languages": the curl session runs and prints what the guide says', async () => {
    const { script, output } = session('## `forecasting mock` for other languages');
    // `forecasting` on PATH, exec'ing node: $! in the script is the mock's own process, as with the installed binary.
    writeFileSync(join(dir, 'forecasting'), `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(BIN)} "$@"\n`);
    chmodSync(join(dir, 'forecasting'), 0o755);
    // Should a step fail, the mock started in the background is stopped all the same.
    writeFileSync(join(dir, 'session.sh'), `set -euo pipefail\ntrap 'if [ -n "\${MOCK_PID:-}" ]; then kill "$MOCK_PID" 2>/dev/null || true; fi' EXIT\n${script}`);
    const result = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
      const child = spawn('bash', ['session.sh'], { cwd: dir, env: childEnv({ PATH: `${dir}:${process.env['PATH']}` }) });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (d) => (stdout += d));
      child.stderr.on('data', (d) => (stderr += d));
      const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
      child.on('close', (code) => (clearTimeout(timer), resolve({ code, stdout, stderr })));
    });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const lines = result.stdout.trim().split('\n');
    const expected = output.trim().split('\n');
    // The statuses seen depend on timing; the last one and the seeded number do not.
    expect(lines.slice(0, -1).every((l) => /^status: (queued|running_subforecasts|synthesizing|completed)$/.test(l))).toBe(true);
    expect(lines.slice(-2)).toEqual(expected.slice(-2));
  });
});
