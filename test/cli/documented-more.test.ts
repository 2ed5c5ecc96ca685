// More documented behaviours of the `forecasting` command (docs/cli.md) that no other test pinned
// down: `forecasting mock --port` on a port in use, `--host localhost` and `--host [::1]` (the
// printed export lines reach the mock) and a host name refused, "with several tasks, a failure
// wins over a cancellation" (`wait` and `forecast --from-file --wait`, in both orders), and
// `questions browse --query … --type T`. The built binary (dist/cli.js), against mocks on loopback
// addresses only: one in process on a manual clock, and `forecasting mock` children.
import { writeFileSync } from 'node:fs';
import { createServer, type AddressInfo, type Server } from 'node:net';
import { networkInterfaces } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ForecastingClient, type QuestionCreateParams } from '../../src/index.js';
import { ManualClock } from '../../src/testing/index.js';
import { envFor, run, start, useMockAndFolder, type Running } from './_cli.js';

const clock = new ManualClock();
const h = useMockAndFolder({ clock });
const clientOf = () => new ForecastingClient({ apiKey: h.mock.apiKey, baseURL: h.mock.baseURL, logLevel: 'off' });

/** Every `forecasting mock` this file starts; each is stopped after the file's tests. */
const spawned: Running[] = [];
afterAll(async () => {
  for (const server of spawned.splice(0)) {
    server.child.kill('SIGTERM');
    await server.done;
  }
});

const hasIPv6Loopback = Object.values(networkInterfaces()).some((list) => list?.some((i) => i.address === '::1'));

interface Reached {
  baseURL: string;
  apiKey: string;
}

/** A value of an `export` line as a POSIX shell reads it: as it is, or single-quoted (`'\\''` for a quote). */
const unquote = (word: string) => (/^'.*'$/s.test(word) ? word.slice(1, -1).replaceAll(`'\\''`, "'") : word);

/** Starts `forecasting mock …args` and reads its two `export` lines, as a shell would take them. */
async function mockFromExports(args: string[]): Promise<Reached & { stdout: string }> {
  const server = start(['mock', ...args]);
  spawned.push(server);
  const stdout = await server.waitFor('stdout', /[\s\S]*export FORECASTING_API_KEY=.*\n/);
  const value = (name: string): string => {
    const found = new RegExp(`^export ${name}=(\\S+)$`, 'm').exec(stdout)?.[1];
    if (found === undefined) throw new Error(`no "export ${name}=…" line in: ${stdout}`);
    return unquote(found);
  };
  return { baseURL: value('FORECASTING_BASE_URL'), apiKey: value('FORECASTING_API_KEY'), stdout };
}

/** Starts `forecasting mock --json …args` and reads its one line. */
async function mockFromJson(args: string[]): Promise<Reached & { control: string; host: string }> {
  const server = start(['mock', '--json', ...args]);
  spawned.push(server);
  return JSON.parse(await server.waitFor('stdout', /^.*\n/)) as Reached & { control: string; host: string };
}

/** One request to `url` with the mock's key. */
async function call(url: string, apiKey: string, method = 'GET', body?: unknown): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(url, {
    method,
    headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

const closeServer = (server: Server) => new Promise<void>((resolve) => server.close(() => resolve()));

describe('forecasting mock --port P when P is in use', () => {
  it('exits 2 with one UsageError line naming the address and the port, and prints no export line', async () => {
    const holder = createServer();
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
    const { port } = holder.address() as AddressInfo;
    try {
      const r = await run(['mock', '--port', String(port)], { killAfter: 10_000 });
      expect(r.signal).toBeNull();
      expect(r.code).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toBe(`UsageError: cannot listen on 127.0.0.1 port ${port}: EADDRINUSE\n`);
    } finally {
      await closeServer(holder);
    }
  });

  it('a second mock on the port of a running one exits 2 naming the port (--json too); the first keeps serving', async () => {
    const first = await mockFromExports(['--manual-clock']);
    const port = new URL(first.baseURL).port;
    const r = await run(['mock', '--port', port, '--json'], { killAfter: 10_000 });
    expect([r.signal, r.code, r.stdout]).toEqual([null, 2, '']);
    expect(r.stderr).toMatch(new RegExp(`^UsageError: [^\\n]*\\bport ${port}\\b[^\\n]*EADDRINUSE\\n$`));
    expect((await call(`${first.baseURL}/questions`, first.apiKey)).status).toBe(200);
  });
});

describe('forecasting mock --host (what mock-options.test.ts leaves out)', () => {
  /** The printed FORECASTING_BASE_URL and key reach the mock: a question created there is read back. */
  async function reachable(printed: Reached): Promise<void> {
    const made = await call(`${printed.baseURL}/questions`, printed.apiKey, 'POST', { type: 'binary', title: 'Reached at the printed address?' });
    expect(made.status).toBe(201);
    const read = await call(`${printed.baseURL}/questions/${String(made.body['id'])}`, printed.apiKey);
    expect([read.status, read.body['title']]).toEqual([200, 'Reached at the printed address?']);
  }

  it('--host localhost listens there and prints a loopback FORECASTING_BASE_URL that answers with the printed key', async () => {
    const printed = await mockFromExports(['--host', 'localhost', '--manual-clock']);
    expect(printed.baseURL).toMatch(/^http:\/\/(127\.0\.0\.1|\[::1\]|localhost):\d+\/api\/v1\/external$/);
    await reachable(printed);
    const info = await mockFromJson(['--host', 'localhost', '--manual-clock']);
    expect(info.host).toBe('localhost');
    await reachable(info);
  });

  it.skipIf(!hasIPv6Loopback)('--host [::1] (in brackets) listens on ::1 and prints http://[::1]:<port>, which answers', async () => {
    const printed = await mockFromExports(['--host', '[::1]', '--manual-clock']);
    expect(printed.baseURL).toMatch(/^http:\/\/\[::1\]:\d+\/api\/v1\/external$/);
    await reachable(printed);
    // Only there: the same port on 127.0.0.1 is not the mock.
    await expect(fetch(`http://127.0.0.1:${new URL(printed.baseURL).port}/api/v1/external/questions`)).rejects.toThrow();
  });

  it.skipIf(!hasIPv6Loopback)('--host :: (every interface) prints http://[::1]:<port>, the address a client on this machine uses, which answers', async () => {
    const printed = await mockFromExports(['--host', '::', '--manual-clock']);
    expect(printed.baseURL).toMatch(/^http:\/\/\[::1\]:\d+\/api\/v1\/external$/);
    await reachable(printed);
  });

  it.each([['example.com'], ['[example.com]']])('refuses the host name %s with a usage error (exit 2), nothing printed on stdout', async (host) => {
    const r = await run(['mock', '--host', host], { killAfter: 10_000 });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^UsageError: --host must be an IP address\b.*\n$/);
    expect(r.stderr).toContain(`"${host}"`);
  });
});

describe('with several tasks, a failure wins over a cancellation (exit 4, not 5)', () => {
  /** A task of a new question, made to end `ending` halfway through, and the mock's clock moved past its end. */
  async function finalTask(ending: 'failed' | 'cancelled'): Promise<string> {
    const question = await clientOf().questions.create({ type: 'binary', title: `Will this one end ${ending}?` });
    h.mock.service.forecastControls.setOutcome(question.id, ending === 'failed' ? { task: 'failed', message: 'No sources found' } : { task: 'cancelled' });
    const task = await clientOf().forecasts.create({ questionId: question.id, runMode: 'light' });
    clock.advance(24 * 60 * 60_000);
    expect(h.mock.service.store.forecasts.get(task.id)?.status).toBe(ending);
    return task.id;
  }

  it('forecasting wait: exit 4 whichever of the failed and the cancelled task comes first; each alone exits 4 and 5', async () => {
    const failed = await finalTask('failed');
    const cancelled = await finalTask('cancelled');
    const env = envFor(h.mock);
    expect((await run(['wait', failed, '--progress', 'none'], { env })).code).toBe(4);
    expect((await run(['wait', cancelled, '--progress', 'none'], { env })).code).toBe(5);
    for (const ids of [[cancelled, failed], [failed, cancelled]]) {
      const r = await run(['wait', ...ids, '--progress', 'none'], { env });
      expect(r.code).toBe(4);
      const lines = r.stdout.trimEnd().split('\n');
      expect(lines.map((l) => l.split('  ').slice(0, 2))).toEqual(ids.map((id) => [id, id === failed ? 'failed' : 'cancelled']));
      expect(r.stderr).toBe('');
    }
  });

  it('forecasting wait --json: the same exit 4, the array naming both endings', async () => {
    const failed = await finalTask('failed');
    const cancelled = await finalTask('cancelled');
    const r = await run(['wait', cancelled, failed, '--json', '--progress', 'none'], { env: envFor(h.mock) });
    expect(r.code).toBe(4);
    expect((JSON.parse(r.stdout) as Array<{ id: string; status: string }>).map((t) => [t.id, t.status])).toEqual([[cancelled, 'cancelled'], [failed, 'failed']]);
  });

  it('forecast --from-file --wait against forecasting mock, outcomes set over PUT /__mock/…/outcome: exit 4 in both orders', async () => {
    // A fast clock (an hour of mock time per real second): the light forecasts end in well under a second.
    const info = await mockFromJson(['--time-scale', '3600']);
    const question = async (title: string) => String((await call(`${info.baseURL}/questions`, info.apiKey, 'POST', { type: 'binary', title })).body['id']);
    const failing = await question('Will the launch slip?');
    const cancelling = await question('Will the vote be held?');
    expect((await call(`${info.control}/questions/${failing}/outcome`, info.apiKey, 'PUT', { task: 'failed', message: 'No sources found' })).status).toBe(200);
    expect((await call(`${info.control}/questions/${cancelling}/outcome`, info.apiKey, 'PUT', { task: 'cancelled' })).status).toBe(200);

    for (const order of [[cancelling, failing], [failing, cancelling]]) {
      const file = join(h.dir, `order-${order[0] === failing ? 'failed-first' : 'cancelled-first'}.jsonl`);
      writeFileSync(file, order.map((id) => JSON.stringify({ questionId: id })).join('\n'));
      const r = await run(['forecast', '--from-file', file, '--run-mode', 'light', '--wait', '--progress', 'none', '--no-draw'], { env: envFor(info) });
      expect(r.code).toBe(4);
      const statuses = r.stdout.trimEnd().split('\n').map((l) => l.split('  ')[1]);
      expect(statuses).toEqual(order.map((id) => (id === failing ? 'failed' : 'cancelled')));
      expect(r.stdout).toMatch(/ {2}failed {2}\d+\/\d+ {2}No sources found\n/);
      expect(r.stdout).not.toContain('rejected');
    }
  });
});

describe('forecasting questions browse --query "…" --type T', () => {
  const QUESTIONS: QuestionCreateParams[] = [
    { type: 'binary', title: 'Will the quokka census grow?' },
    { type: 'numeric', title: 'How many quokkas on Rottnest in 2030?', lowerBound: 0, upperBound: 50_000, scaleType: 'linear' },
    { type: 'numeric', title: 'How many wallabies on Rottnest in 2030?', lowerBound: 0, upperBound: 50_000, scaleType: 'linear' },
  ];

  it('keeps only the questions of type T that match the query; without --type, every type that matches', async () => {
    const made = await Promise.all(QUESTIONS.map((q) => clientOf().questions.create(q)));
    const line = (i: number) => `${made[i]!.id}  ${made[i]!.type}  ${made[i]!.title}`;
    const browse = async (...flags: string[]) => {
      const r = await run(['questions', 'browse', '--query', 'quokka', ...flags], { env: envFor(h.mock) });
      expect([r.code, r.stderr]).toEqual([0, '']);
      expect(r.stdout.endsWith('\n')).toBe(true);
      return r.stdout.trimEnd().split('\n').sort();
    };
    expect(await browse()).toEqual([line(0), line(1)].sort());
    expect(await browse('--type', 'numeric')).toEqual([line(1)]);
    expect(await browse('--type', 'binary')).toEqual([line(0)]);
    // Several types, comma-separated (the command's help): each kept, nothing else.
    expect(await browse('--type', 'numeric,binary')).toEqual([line(0), line(1)].sort());
    expect(await browse('--type', 'date,binary')).toEqual([line(0)]);
  });
});
