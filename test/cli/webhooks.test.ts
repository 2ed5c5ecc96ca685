// `forecasting webhooks verify`: the raw body on stdin, the header as a flag; the event or the reason.
import { describe, expect, it } from 'vitest';
import { signWebhook } from '../../src/webhooks/index.js';
import { run } from './_cli.js';

const SECRET = 'whsec_cli_test_secret_value';
const body = JSON.stringify({ id: 'evt_1', type: 'forecast.completed', createdAt: '2025-01-01T00:00:00.000Z', data: { taskId: 't_1' } });
const now = () => Math.floor(Date.now() / 1000);

describe('forecasting webhooks verify', () => {
  it('prints the event and exits 0 for a good signature', async () => {
    const header = await signWebhook(body, SECRET, { timestamp: now() });
    const r = await run(['webhooks', 'verify', '--secret', SECRET, '--header', header], { input: body });
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    expect(JSON.parse(r.stdout)).toMatchObject({ id: 'evt_1', type: 'forecast.completed' });
  });

  it('takes the secret from FORECASTING_WEBHOOK_SECRET and the header line as copied, name included', async () => {
    const header = await signWebhook(body, SECRET, { timestamp: now() });
    const r = await run(['webhooks', 'verify', '--header', `X-Service-Signature: ${header}`], { input: body, env: { FORECASTING_WEBHOOK_SECRET: SECRET } });
    expect(r.code).toBe(0);
  });

  it.each([
    ['another secret signed it', async () => signWebhook(body, 'whsec_someone_else', { timestamp: now() }), body, 'no_matching_signature'],
    ['the body changed', async () => signWebhook(body, SECRET, { timestamp: now() }), `${body} `, 'no_matching_signature'],
    ['the timestamp is an hour old', async () => signWebhook(body, SECRET, { timestamp: now() - 3600 }), body, 'timestamp_out_of_range'],
    ['the header is malformed', async () => 'v1=abc', body, 'malformed_header'],
    ['the body is not an event', async () => signWebhook('[1,2]', SECRET, { timestamp: now() }), '[1,2]', 'malformed_payload'],
  ])('prints the reason code and exits 7 when %s (the secret never shown)', async (_name, header, input, code) => {
    const r = await run(['webhooks', 'verify', '--secret', SECRET, '--header', await header()], { input });
    expect(r.code).toBe(7);
    expect(r.stdout).toBe(`${code}\n`);
    expect(r.stderr).toMatch(new RegExp(`^WebhookVerificationError \\(${code}\\): \\S.*\\n$`));
    expect(r.stderr).not.toContain(SECRET);
  });

  it('with --json: the event as ever on success, and {verified: false, code, message} on failure (exit 7)', async () => {
    const good = await run(['webhooks', 'verify', '--json', '--secret', SECRET, '--header', await signWebhook(body, SECRET, { timestamp: now() })], { input: body });
    expect(good.code).toBe(0);
    expect(JSON.parse(good.stdout)).toMatchObject({ id: 'evt_1', type: 'forecast.completed' });
    const bad = await run(['webhooks', 'verify', '--json', '--secret', SECRET, '--header', await signWebhook(body, 'whsec_someone_else', { timestamp: now() })], { input: body });
    expect(bad.code).toBe(7);
    expect(JSON.parse(bad.stdout)).toEqual({ verified: false, code: 'no_matching_signature', message: expect.stringMatching(/\S/) });
    expect(bad.stdout).not.toContain(SECRET);
  });

  it('honours --tolerance', async () => {
    const header = await signWebhook(body, SECRET, { timestamp: now() - 3600 });
    const r = await run(['webhooks', 'verify', '--secret', SECRET, '--header', header, '--tolerance', '7200'], { input: body });
    expect(r.code).toBe(0);
  });

  it('is bad usage (exit 2) without a secret or a header', async () => {
    const noSecret = await run(['webhooks', 'verify', '--header', 't=1,v1=ab'], { input: body });
    expect([noSecret.code, noSecret.stderr]).toEqual([2, 'UsageError: --secret is required (or set FORECASTING_WEBHOOK_SECRET)\n']);
    const noHeader = await run(['webhooks', 'verify', '--secret', SECRET], { input: body });
    expect(noHeader.code).toBe(2);
    expect(noHeader.stderr).toMatch(/^UsageError: --header is required/);
  });
});
