// Every command: --help, bad usage (exit 2), the environment, and errors as one line that never shows the key.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockServer, type MockServer } from '../../src/testing/index.js';
import { envFor, run } from './_cli.js';

let mock: MockServer;
beforeAll(async () => {
  mock = await startMockServer();
});
afterAll(() => mock.close());

const COMMANDS = [[], ['questions'], ['questions', 'create'], ['questions', 'list'], ['questions', 'get'], ['questions', 'browse'], ['forecast'], ['wait'], ['webhooks'], ['webhooks', 'verify'], ['mock']];

describe('--help', () => {
  it.each(COMMANDS.map((c) => [c.join(' ') || '(top)', c]))('prints the help of %s and exits 0', async (_name, command) => {
    const r = await run([...command, '--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`Usage: forecasting${command.length ? ` ${command.join(' ')}` : ''}`);
    expect(r.stderr).toBe('');
  });

  it('lists the exit codes and the environment in the top help and in the waiting commands', async () => {
    const top = await run(['--help']);
    for (const line of ['FORECASTING_API_KEY', 'FORECASTING_BASE_URL', '0    success', '2    bad usage', '3    API error', '4    a task failed', '5    a task was cancelled', '6    the wait timed out', '130  interrupted']) {
      expect(top.stdout).toContain(line);
    }
    for (const command of ['forecast', 'wait']) expect((await run([command, '--help'])).stdout).toContain('Exit codes:');
  });

  it('prints the version', async () => {
    const r = await run(['--version']);
    expect([r.code, r.stdout]).toEqual([0, '0.1.0\n']);
  });
});

describe('bad usage: one line on stderr, exit 2', () => {
  it.each([
    [['questoins'], /^UsageError: unknown command 'questoins' \(Did you mean questions\?\)/],
    [['questions', 'list', '--bogus'], /^UsageError: unknown option '--bogus'/],
    [['questions', 'get'], /^UsageError: missing required argument 'question-id'/],
    [['questions', 'list', '--limit', 'ten'], /^UsageError: --limit must be a whole number of at least 0, got "ten"/],
    [['wait'], /^UsageError: missing required argument 'task-id'/],
    [['wait', 'a', '--timeout', 'soon'], /^UsageError: --timeout must be a number of seconds, got "soon"/],
    [['wait', 'a', '--progress', 'fancy'], /^UsageError: option '--progress <mode>' argument 'fancy' is invalid/],
    [['forecast'], /^UsageError: missing the question id \(or --from-file questions\.jsonl\)/],
    [['forecast', 'q', '--from-file', 'x.jsonl'], /^UsageError: give a question id or --from-file, not both/],
    [['forecast', 'q', '--timeout', '5'], /^UsageError: --timeout needs --wait/],
    [['forecast', 'q', '--no-draw'], /^UsageError: --no-draw needs --wait/],
    [['forecasts', 'show'], /^UsageError: missing required argument 'task-id'/],
    [['console', '--port', 'x'], /^UsageError: --port must be a whole number from 0 to 65535, got "x"/],
    // Number() alone read these as 80, 1000, and any free port: only decimal digits are a number here.
    [['console', '--port', '0x50'], /^UsageError: --port must be a whole number from 0 to 65535, got "0x50"/],
    [['console', '--port', '1e3'], /^UsageError: --port must be a whole number from 0 to 65535, got "1e3"/],
    [['console', '--port', ''], /^UsageError: --port must be a whole number from 0 to 65535, got ""/],
    [['console', '--port', '65536'], /^UsageError: --port must be a whole number from 0 to 65535, got "65536"/],
    [['mock', '--port', '70000'], /^UsageError: --port must be a whole number from 0 to 65535, got "70000"/],
    [['questions', 'list', '--limit', ' 5'], /^UsageError: --limit must be a whole number of at least 0, got " 5"/],
    [['wait', 'a', '--timeout', '0x10'], /^UsageError: --timeout must be a number of seconds, got "0x10"/],
    [['wait', 'a', '--timeout', 'Infinity'], /^UsageError: --timeout must be a number of seconds, got "Infinity"/],
    [['mock', '--time-scale', '1e3'], /^UsageError: --time-scale must be a positive number, got "1e3"/],
    [['forecast', '--from-file', '/no/such.jsonl'], /^UsageError: cannot read --from-file \/no\/such\.jsonl: ENOENT/],
    [['forecast', '--from-file', '/tmp'], /^UsageError: cannot read --from-file \/tmp: EISDIR/],
    // A path that never ends is read up to a cap, not until memory runs out.
    [['forecast', '--from-file', '/dev/zero'], /^UsageError: --from-file \/dev\/zero is over 64 MiB: split it into smaller files/],
    [['questions', 'get', 'a', 'b'], /^UsageError: too many arguments/],
  ])('forecasting %j', async (args, message) => {
    const r = await run(args, { env: envFor(mock) });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(message);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
  });

  it('shows the help on stderr for a command group alone', async () => {
    const r = await run(['questions']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('Usage: forecasting questions');
  });
});

describe('the environment and errors', () => {
  it('names the missing variable (exit 2)', async () => {
    const noKey = await run(['questions', 'list'], { env: { FORECASTING_BASE_URL: mock.baseURL } });
    expect([noKey.code, noKey.stderr]).toEqual([2, expect.stringMatching(/^UsageError: FORECASTING_API_KEY is not set/)]);
    const noUrl = await run(['questions', 'list'], { env: { FORECASTING_API_KEY: mock.apiKey } });
    expect([noUrl.code, noUrl.stderr]).toEqual([2, expect.stringMatching(/^UsageError: FORECASTING_BASE_URL is not set/)]);
  });

  // A mistake in the command is found before anything would be sent: it is said first, not hidden
  // behind the variable (found by a newcomer, who fixed the variable only to meet the next error).
  it('says what the command lacks before a missing variable, and the variable once the command is right', async () => {
    const lacking = await run(['questions', 'create', '--type', 'binary'], { env: {} });
    expect([lacking.code, lacking.stderr]).toEqual([2, expect.stringMatching(/^ValidationError: title: is required/)]);
    const right = await run(['questions', 'create', '--type', 'binary', '--title', 'Ready?'], { env: {} });
    expect([right.code, right.stderr]).toEqual([2, 'UsageError: FORECASTING_API_KEY is not set: export your API key (pre_…), or the one `forecasting mock` prints\n']);
    const badFlag = await run(['forecast', 'q_1', '--run-mode', 'bogus'], { env: { FORECASTING_API_KEY: mock.apiKey } });
    expect([badFlag.code, badFlag.stderr]).toEqual([2, expect.stringMatching(/^ValidationError: runMode: /)]);
    // A wait has nothing to check first: the variable is named at once, not retried as an outage.
    const wait = await run(['wait', 'task_1'], { env: {} });
    expect([wait.code, wait.stderr]).toEqual([2, expect.stringMatching(/^UsageError: FORECASTING_API_KEY is not set/)]);
  });

  it('reads FORECASTING_API_KEY and FORECASTING_BASE_URL, and never shows the key in an error, --debug included', async () => {
    const key = 'pre_this_key_is_secret_123';
    for (const debug of [[], ['--debug']]) {
      const r = await run(['questions', 'list', ...debug], { env: { FORECASTING_API_KEY: key, FORECASTING_BASE_URL: mock.baseURL } });
      expect(r.code).toBe(3);
      expect(r.stderr).toMatch(/^AuthenticationError: 401 /);
      expect(`${r.stdout}${r.stderr}`).not.toContain(key);
      expect(`${r.stdout}${r.stderr}`).not.toContain('this_key_is_secret');
    }
    expect(mock.service.requests.list().at(-1)?.path).toBe('/questions?limit=20');
  });

  it('prints one line without --debug, and the stack with it', async () => {
    const plain = await run(['questions', 'get', 'missing'], { env: envFor(mock) });
    expect(plain.stderr.trim().split('\n')).toHaveLength(1);
    expect(plain.stderr).not.toMatch(/\n\s+at /);
    const debug = await run(['questions', 'get', 'missing', '--debug'], { env: envFor(mock) });
    expect(debug.code).toBe(3);
    expect(debug.stderr.split('\n')[0]).toMatch(/^NotFoundError: 404 /);
    expect(debug.stderr).toMatch(/\n\s+at /);
  });

  it('is an API error (exit 3) when the service cannot be reached', async () => {
    const closed = await startMockServer();
    const env = envFor(closed);
    await closed.close();
    const r = await run(['questions', 'get', 'x'], { env });
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/^APIConnectionError: /);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
  });
});
