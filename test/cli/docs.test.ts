// docs/cli.md's curl session, run as written with bash, curl and jq against `forecasting mock`
// (the binary on PATH as an installed package puts it there).
import { spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ForecastingClient } from '../../src/index.js';
import { ManualClock, startMockServer } from '../../src/testing/index.js';
import { BIN, ROOT, childEnv, envFor, hasTools } from './_cli.js';

const tools = hasTools('bash', 'curl', 'jq');

const dir = mkdtempSync(join(tmpdir(), 'forecasting-docs-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The first sh block after `heading` in docs/cli.md, and the first text block after that. */
function session(heading: string): { script: string; output: string } {
  const doc = readFileSync(join(ROOT, 'docs/cli.md'), 'utf8');
  const section = doc.slice(doc.indexOf(heading));
  const sh = /```sh\n([\s\S]*?)```/.exec(section);
  const output = sh && /```text\n([\s\S]*?)```/.exec(section.slice(sh.index + sh[0].length))?.[1];
  if (!sh?.[1] || !output) throw new Error(`no sh and text blocks after ${heading}`);
  return { script: sh[1], output };
}

/** Runs `script` with bash in the scratch folder, `forecasting` on PATH (exec'ing node, as the installed binary does). */
function bash(script: string, env: Record<string, string> = {}): Promise<{ code: number | null; stdout: string; stderr: string }> {
  writeFileSync(join(dir, 'forecasting'), `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(BIN)} "$@"\n`);
  chmodSync(join(dir, 'forecasting'), 0o755);
  writeFileSync(join(dir, 'session.sh'), script);
  return new Promise((resolve) => {
    const child = spawn('bash', ['session.sh'], { cwd: dir, env: childEnv({ ...env, PATH: `${dir}:${process.env['PATH']}` }) });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    child.on('close', (code) => (clearTimeout(timer), resolve({ code, stdout, stderr })));
  });
}

describe('docs/cli.md', () => {
  it.skipIf(!tools)('"forecasting mock for other languages": the curl session runs and prints what the guide says', async () => {
    const { script, output } = session('## `forecasting mock` for other languages');
    // $! in the script is the mock's own process, as with the installed binary; should a step
    // fail, the mock started in the background is stopped all the same.
    const result = await bash(`set -euo pipefail\ntrap 'if [ -n "\${MOCK_PID:-}" ]; then kill "$MOCK_PID" 2>/dev/null || true; fi' EXIT\n${script}`);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const lines = result.stdout.trim().split('\n');
    const expected = output.trim().split('\n');
    // The statuses seen depend on timing; the last one and the seeded number do not.
    expect(lines.slice(0, -1).every((l) => /^status: (queued|running_subforecasts|synthesizing|completed)$/.test(l))).toBe(true);
    expect(lines.slice(-2)).toEqual(expected.slice(-2));
  });

  it.skipIf(!tools)('"Testing from Python, Go or any language": the curl session steers the mock over its control routes, as the guide says', async () => {
    const { script, output } = session('### A session with curl');
    const result = await bash(`set -euo pipefail\ntrap 'if [ -n "\${MOCK_PID:-}" ]; then kill "$MOCK_PID" 2>/dev/null || true; fi' EXIT\n${script}`);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(output);
  });

  it('"Testing from Python, Go or any language": the table of control routes is the one the code serves', async () => {
    const { mockControlsMarkdown } = await import('../../src/testing/control.js');
    expect(readFileSync(join(ROOT, 'docs/cli.md'), 'utf8')).toContain(`\n${mockControlsMarkdown()}\n`);
  });

  it.skipIf(!hasTools('bash'))('"Resuming a wait": the script keeps the command that resumes a wait that timed out', async () => {
    const { script, output } = session('### Resuming a wait');
    const mock = await startMockServer({ clock: new ManualClock() });
    try {
      const client = new ForecastingClient({ apiKey: mock.apiKey, baseURL: mock.baseURL, logLevel: 'off' });
      const task = await client.forecasts.create({ questionId: (await client.questions.create({ type: 'binary', title: 'Resumed?' })).id });
      // The guide's half hour, as half a second: the mock's time stands still, the task stays queued.
      expect(script).toContain('--timeout 1800');
      const result = await bash(`set -euo pipefail\n${script.replace('--timeout 1800', '--timeout 0.5')}`, { ...envFor(mock), TASK_ID: task.id });
      expect(result.stderr).toBe('');
      expect(result.code).toBe(0);
      expect(result.stdout).toBe(output.replace(/[0-9a-f-]{36}/, task.id));
    } finally {
      await mock.close();
    }
  });
});
