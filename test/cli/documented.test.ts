// Documented behaviours of the `forecasting` command (docs/cli.md) that no other test pinned down:
// exit code 1 for an unexpected error and the help's table of codes, `missing_header` from
// `webhooks verify`, `--help` on every documented command, and the drawing's 120-column cap.
// The built binary (dist/cli.js) against one mock on 127.0.0.1, on a manual clock.
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ForecastingClient, type QuestionCreateParams } from '../../src/index.js';
import { ManualClock } from '../../src/testing/index.js';
import { signWebhook } from '../../src/webhooks/index.js';
import { envFor, ROOT, run, useMockAndFolder } from './_cli.js';

const h = useMockAndFolder({ clock: new ManualClock() });
const clientOf = () => new ForecastingClient({ apiKey: h.mock.apiKey, baseURL: h.mock.baseURL, logLevel: 'off' });

/** A completed forecast of `question`: started, then the mock's clock moved past its end (no real waiting). */
async function completedTask(question: QuestionCreateParams): Promise<string> {
  const task = await clientOf().forecasts.create({ question, runMode: 'light' });
  h.mock.clock.advance(2 * 60 * 60_000);
  expect((await clientOf().forecasts.retrieve(task.id)).status).toBe('completed');
  return task.id;
}

describe('exit code 1: an unexpected error', () => {
  it('exits 1 with one error line when the command itself breaks (an answer it cannot print)', async () => {
    // A title nested deeper than JSON.stringify goes: the SDK reads it (JSON.parse does), the line
    // that shows it as JSON cannot be written. A server of its own: the mock could not send it either.
    const deep = `${'{"a":'.repeat(100_000)}1${'}'.repeat(100_000)}`;
    const server = createServer((_req, res) => void res.writeHead(200, { 'content-type': 'application/json' }).end(`{"id":"q_deep","type":"binary","title":${deep}}`));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1/external`;
      const r = await run(['questions', 'get', 'q_deep'], { env: { FORECASTING_API_KEY: h.mock.apiKey, FORECASTING_BASE_URL: baseURL } });
      expect(r.code).toBe(1);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(/^RangeError: \S.*\n$/);
      expect(r.stderr).not.toContain(h.mock.apiKey);
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it('lists exit codes 1 and 7 in the top-level help, with the meanings docs/cli.md gives', async () => {
    const r = await run(['--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^Exit codes:$/m);
    expect(r.stdout).toMatch(/^ {2}1 {4}unexpected error$/m);
    expect(r.stdout).toMatch(/^ {2}7 {4}the webhook did not verify$/m);
    const docs = readFileSync(join(ROOT, 'docs/cli.md'), 'utf8');
    expect(docs).toContain('| 1 | Unexpected error |');
    expect(docs).toContain('| 7 | The webhook did not verify |');
  });
});

describe('forecasting webhooks verify: missing_header', () => {
  const SECRET = 'whsec_cli_documented_secret';
  const body = JSON.stringify({ id: 'evt_1', type: 'forecast.completed', createdAt: '2025-01-01T00:00:00.000Z', data: { taskId: 't_1' } });

  it.each([
    ['an empty header', ''],
    ['a header line copied with no value', 'X-Service-Signature: '],
  ])('prints missing_header and exits 7 for %s (the body itself is signed)', async (_name, header) => {
    // The same body with a real signature verifies: only the header is at fault.
    const good = await signWebhook(body, SECRET, { timestamp: Math.floor(Date.now() / 1000) });
    expect((await run(['webhooks', 'verify', '--secret', SECRET, '--header', good], { input: body })).code).toBe(0);

    const r = await run(['webhooks', 'verify', '--secret', SECRET, '--header', header], { input: body });
    expect(r.code).toBe(7);
    expect(r.stdout).toBe('missing_header\n');
    expect(r.stderr).toMatch(/^WebhookVerificationError: missing_header: \S.*\n$/);
    expect(r.stderr).not.toContain(SECRET);
  });
});

/** The commands of docs/cli.md's "Commands" table: the leading lower-case words of each code span in its first column. */
function documentedCommands(): string[] {
  const docs = readFileSync(join(ROOT, 'docs/cli.md'), 'utf8');
  const table = docs.slice(docs.indexOf('## Commands'), docs.indexOf('### Forecasts drawn in the terminal'));
  const commands = new Set<string>();
  for (const line of table.split('\n')) {
    if (!line.startsWith('| `')) continue;
    const firstCell = line.split(/(?<!\\)\|/)[1] ?? '';
    for (const [, span] of firstCell.matchAll(/`([^`]+)`/g)) {
      const words: string[] = [];
      for (const word of (span ?? '').split(' ')) {
        if (!/^[a-z]+$/.test(word)) break;
        words.push(word);
      }
      if (words.length > 0) commands.add(words.join(' '));
    }
  }
  return [...commands];
}

describe('--help on every command docs/cli.md documents', () => {
  const commands = documentedCommands();

  it('finds the documented commands, forecasts show, fleet status and console among them', () => {
    expect(commands).toEqual(expect.arrayContaining(['questions create', 'questions list', 'questions get', 'questions browse', 'forecast', 'forecasts show', 'wait', 'webhooks verify', 'fleet status', 'console', 'mock']));
  });

  it.each(commands)('forecasting %s --help prints its usage and exits 0', async (command) => {
    const r = await run([...command.split(' '), '--help'], { env: envFor(h.mock) });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(new RegExp(`^Usage: forecasting ${command} \\[options\\]`));
    expect(r.stdout).toMatch(/^Options:$/m);
    expect(r.stderr).toBe('');
  });
});

const NUMERIC: QuestionCreateParams = { type: 'numeric', title: 'Brent on 1 June?', lowerBound: 40, upperBound: 140, scaleType: 'linear' };

describe('the drawing is at most 120 columns wide (docs/cli.md, "Forecasts drawn in the terminal")', () => {
  /** `forecasts show` piped, with `COLUMNS`: the drawing's lines (the result line left out). */
  async function drawn(taskId: string, columns: number): Promise<string[]> {
    const r = await run(['forecasts', 'show', taskId], { env: { ...envFor(h.mock), COLUMNS: String(columns) } });
    expect([r.code, r.stderr]).toEqual([0, '']);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(new RegExp(`^${taskId} {2}completed `));
    return lines.slice(1);
  }

  it('caps a numeric histogram at 120 columns when COLUMNS is 300 or 121, and follows COLUMNS below it', async () => {
    const id = await completedTask(NUMERIC);
    const axis = (lines: string[]) => lines.find((l) => /^ {2}-[-+]+$/.test(l));
    for (const [columns, width] of [[300, 120], [121, 120], [119, 119]] as const) {
      const lines = await drawn(id, columns);
      expect(axis(lines)).toHaveLength(width);
      expect(lines).toContainEqual(expect.stringMatching(/^ {2}40 +140$/));
      for (const line of lines) expect(line.length).toBeLessThanOrEqual(width);
    }
  });

  it('caps a binary bar at 120 columns when COLUMNS is 300', async () => {
    const id = await completedTask({ type: 'binary', title: 'Will the bar stop at 120?' });
    const [bar] = await drawn(id, 300);
    expect(bar).toMatch(/^ {2}YES {2}#*\.* +\d+\.\d%$/);
    expect(bar).toHaveLength(120);
  });
});
