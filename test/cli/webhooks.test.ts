// `forecasting webhooks verify`: the raw body on stdin, the header as a flag; the event or the reason.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { signWebhook, verifyWebhook } from '../../src/webhooks/index.js';
import { BIN, run } from './_cli.js';

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
    expect(r.stderr).toMatch(new RegExp(`^WebhookVerificationError: ${code}: \\S.*\\n$`));
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

// A receiver in another language gets signed test calls from the shell (a newcomer asked for it).
describe('forecasting webhooks sign', () => {
  it('prints the header value the service would send with the body on stdin, which verifies', async () => {
    const t = now();
    const r = await run(['webhooks', 'sign', '--secret', SECRET, '--timestamp', String(t)], { input: body });
    expect([r.code, r.stderr]).toEqual([0, '']);
    expect(r.stdout).toBe(`${await signWebhook(body, SECRET, { timestamp: t })}\n`);
    const verified = await run(['webhooks', 'verify', '--secret', SECRET, '--header', r.stdout.trim()], { input: body });
    expect(verified.code).toBe(0);
  });

  it('signs now by default, with the secret of FORECASTING_WEBHOOK_SECRET, and with both of two secrets (a rotation)', async () => {
    const before = now();
    const r = await run(['webhooks', 'sign'], { input: body, env: { FORECASTING_WEBHOOK_SECRET: SECRET } });
    const t = Number(/^t=(\d+),v1=[0-9a-f]{64}\n$/.exec(r.stdout)?.[1]);
    expect(t).toBeGreaterThanOrEqual(before);
    expect(t).toBeLessThanOrEqual(now());
    const both = await run(['webhooks', 'sign', '--secret', SECRET, '--secret', 'whsec_the_old_one', '--timestamp', '1700000000'], { input: body });
    expect(both.stdout).toBe(`${await signWebhook(body, [SECRET, 'whsec_the_old_one'], { timestamp: 1_700_000_000 })}\n`);
  });

  it('is bad usage (exit 2) without a secret or with a timestamp that is no Unix seconds, the secret never shown', async () => {
    const noSecret = await run(['webhooks', 'sign'], { input: body, env: { FORECASTING_WEBHOOK_SECRET: '' } });
    expect([noSecret.code, noSecret.stdout]).toEqual([2, '']);
    expect(noSecret.stderr).toMatch(/^UsageError: --secret is required/);
    for (const timestamp of ['soon', '-1', '1.5', '1e30', String(Date.now())]) {
      const bad = await run(['webhooks', 'sign', '--secret', SECRET, '--timestamp', timestamp], { input: body });
      expect([bad.code, bad.stdout]).toEqual([2, '']);
      expect(bad.stderr).toMatch(/^UsageError: --timestamp must be/);
      expect(bad.stderr).not.toContain(SECRET);
    }
  });
});

describe('the curl line of docs/cli.md and docs/webhooks.md', () => {
  it('sends a call signed by `forecasting webhooks sign` that a receiver verifies', async () => {
    const verified: string[] = [];
    const server: Server = createServer(async (req, res) => {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const event = await verifyWebhook(Buffer.concat(chunks), req.headers, SECRET).catch(() => undefined);
      if (event) verified.push(event.id);
      res.writeHead(event ? 200 : 400).end();
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const dir = mkdtempSync(join(tmpdir(), 'forecasting-sign-'));
    try {
      writeFileSync(join(dir, 'body.json'), body);
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`;
      // As documented, with `forecasting` spelled as the built binary.
      const line = `sig=$(node '${BIN}' webhooks sign --secret "$SECRET" < body.json) && curl -s -o /dev/null -w '%{http_code}' -H "X-Service-Signature: $sig" --data-binary @body.json ${url}`;
      const { stdout } = await promisify(execFile)('sh', ['-c', line], { cwd: dir, env: { ...process.env, SECRET } });
      expect(stdout).toBe('200');
      expect(verified).toEqual(['evt_1']);
      // Signed first: with no secret, nothing is sent.
      const failed = await promisify(execFile)('sh', ['-c', line], { cwd: dir, env: { ...process.env, SECRET: '', FORECASTING_WEBHOOK_SECRET: '' } }).catch((e: { code: number }) => e);
      expect((failed as { code: number }).code).toBe(2);
      expect(verified).toEqual(['evt_1']);
    } finally {
      server.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
