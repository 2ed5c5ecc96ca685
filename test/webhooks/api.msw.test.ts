// The Webhooks group through the SDK against the mock inside fetch (msw). No receiver is called here:
// every webhook has a public address, so its deliveries are recorded and never sent.
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  BadRequestError,
  ConflictError,
  ForecastingClient,
  NotFoundError,
  RateLimitError,
  ValidationError,
} from '../../src/index.js';
import { createMockService } from '../../src/testing/index.js';
import { mockHandlers } from '../../src/testing/msw.js';

const baseURL = 'https://forecasting.example/api/v1/external';
const strict = createMockService({
  apiKeys: [
    { key: 'pre_owner', userId: 'u1' },
    { key: 'pre_owner_second_key', userId: 'u1' },
    { key: 'pre_other', userId: 'u2' },
  ],
});
// The same service in test mode, on another base URL.
const localBase = 'https://local.example/api/v1/external';
const testMode = createMockService({ apiKeys: [{ key: 'pre_local', userId: 'u9' }], webhooks: { allowLoopbackReceivers: true } });
const server = setupServer(...mockHandlers(strict, { baseURL }), ...mockHandlers(testMode, { baseURL: localBase }));

const connect = (apiKey = 'pre_owner', base = baseURL) =>
  new ForecastingClient({ apiKey, baseURL: base, maxRetries: 0, logLevel: 'off' });
const client = connect();
const HOOK = 'https://hooks.example.com/forecasting';

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(async () => {
  await strict.webhooks.idle();
  await testMode.webhooks.idle();
  strict.reset();
  testMode.reset();
  server.resetHandlers();
});
afterAll(() => server.close());

const errorOf = (promise: Promise<unknown>) => promise.then(() => undefined, (err: unknown) => err);

describe('client.webhooks against the mock', () => {
  it('returns the signing secret on creation only; reads show its prefix', async () => {
    const created = await client.webhooks.create({ url: HOOK, description: 'prod' });
    expect(created.signingSecret).toMatch(/^whsec_[\w-]{40,}$/);
    expect(created).toMatchObject({ type: 'webhook', url: HOOK, description: 'prod', enabled: true, eventKinds: ['forecast.completed'] });
    expect(created.secretPrefix).toBe(created.signingSecret.slice(0, 10));

    const read = await client.webhooks.retrieve(created.id);
    expect(read).not.toHaveProperty('signingSecret');
    expect(read.secretPrefix).toBe(created.secretPrefix);
    const listed = await client.webhooks.list();
    expect(listed.data.map((w) => w.id)).toEqual([created.id]);
    expect(listed.data[0]).not.toHaveProperty('signingSecret');
  });

  it('rotates the secret: a new one, shown once, and a new prefix', async () => {
    const created = await client.webhooks.create({ url: HOOK });
    const rotated = await client.webhooks.rotate(created.id);
    expect(rotated.signingSecret).toMatch(/^whsec_/);
    expect(rotated.signingSecret).not.toBe(created.signingSecret);
    expect((await client.webhooks.retrieve(created.id)).secretPrefix).toBe(rotated.signingSecret.slice(0, 10));
  });

  it('edits enabled, url, description and eventKinds, only those sent', async () => {
    const created = await client.webhooks.create({ url: HOOK, eventKinds: ['forecast.completed'] });
    const edited = await client.webhooks.update(created.id, { enabled: false, eventKinds: ['forecast.failed', 'forecast.started'] });
    expect(edited).toMatchObject({ enabled: false, url: HOOK, eventKinds: ['forecast.failed', 'forecast.started'] });
    const moved = await client.webhooks.update(created.id, { url: 'https://other.example.com/h', description: 'moved' });
    expect(moved).toMatchObject({ enabled: false, url: 'https://other.example.com/h', description: 'moved' });
  });

  it('deletes a webhook and keeps its delivery history', async () => {
    const created = await client.webhooks.create({ url: HOOK });
    const delivery = await client.webhooks.test(created.id);
    await strict.webhooks.idle();
    await client.webhooks.delete(created.id);
    expect(await errorOf(client.webhooks.retrieve(created.id))).toBeInstanceOf(NotFoundError);
    const kept = await client.webhooks.deliveries.retrieve(delivery.id);
    expect(kept.webhookId).toBe(created.id);
    expect(kept.status).toBe('cancelled'); // it was waiting for a retry
  });

  it("hides a user's webhooks and deliveries from another user, whatever key the owner uses", async () => {
    const created = await client.webhooks.create({ url: HOOK });
    const delivery = await client.webhooks.test(created.id);
    const other = connect('pre_other');
    expect(await errorOf(other.webhooks.retrieve(created.id))).toBeInstanceOf(NotFoundError);
    expect(await errorOf(other.webhooks.deliveries.retrieve(delivery.id))).toBeInstanceOf(NotFoundError);
    expect((await other.webhooks.list()).data).toEqual([]);
    expect((await connect('pre_owner_second_key').webhooks.retrieve(created.id)).id).toBe(created.id);
  });

  it('allows 5 webhooks per user and refuses the sixth with a conflict', async () => {
    for (let i = 0; i < 5; i++) await client.webhooks.create({ url: `${HOOK}/${i}` });
    const sixth = await errorOf(client.webhooks.create({ url: `${HOOK}/6` }));
    expect(sixth).toBeInstanceOf(ConflictError);
    expect((sixth as ConflictError).message).toMatch(/At most 5 webhooks/);
    await connect('pre_other').webhooks.create({ url: HOOK }); // another user has their own 5
  });
});

describe('response schemas', () => {
  it('accept every answer of the mock when responses are checked', async () => {
    const checked = new ForecastingClient({ apiKey: 'pre_owner', baseURL, maxRetries: 0, logLevel: 'off', validateResponses: true });
    const created = await checked.webhooks.create({ url: HOOK });
    await checked.webhooks.retrieve(created.id);
    await checked.webhooks.update(created.id, { description: 'checked' });
    await checked.webhooks.rotate(created.id);
    const delivery = await checked.webhooks.test(created.id);
    await strict.webhooks.idle();
    await checked.webhooks.deliveries.retrieve(delivery.id);
    expect((await checked.webhooks.deliveries.listAttempts(delivery.id)).data).toHaveLength(1);
    expect((await checked.webhooks.deliveries.list()).data).toHaveLength(1);
    expect((await checked.webhooks.list()).data).toHaveLength(1);
  });

  it('refuse a webhook answer missing a known field', async () => {
    server.use(http.get(`${baseURL}/webhooks/:id`, () => HttpResponse.json({ id: 'w1', type: 'webhook', url: HOOK })));
    const checked = new ForecastingClient({ apiKey: 'pre_owner', baseURL, maxRetries: 0, logLevel: 'off', validateResponses: true });
    const err = await errorOf(checked.webhooks.retrieve('w1'));
    expect(err).toBeInstanceOf(ValidationError);
    expect((err as ValidationError).message).toMatch(/response\.enabled/);
  });
});

describe('address rules', () => {
  const refused: [string, RegExp][] = [
    ['http://hooks.example.com/x', /https/],
    ['https://user:pass@hooks.example.com/x', /user name or password/],
    ['https://hooks.example.com/x#frag', /fragment/],
    ['https://hooks.example.com/x#', /fragment/],
    [`https://hooks.example.com/${'a'.repeat(480)}`, /at most 500 characters/],
    ['https://10.1.2.3/x', /private/],
    ['https://172.20.0.1/x', /private/],
    ['https://192.168.1.10/x', /private/],
    ['https://127.0.0.1/x', /loopback/],
    ['https://localhost/x', /loopback/],
    ['https://[::1]/x', /loopback/],
    ['https://169.254.169.254/latest/meta-data', /link-local/],
    ['https://[fe80::1]/x', /link-local/],
    ['https://[fd00::1]/x', /private/],
    ['https://[::ffff:192.168.0.1]/x', /private/],
    ['https://0.0.0.0/x', /unspecified/],
    ['https://2130706433/x', /loopback/], // 127.0.0.1 written as one number
    ['https://localhost./x', /loopback/], // a trailing dot names the same host
    ['https://foo.localhost./x', /loopback/],
    ['https://[::127.0.0.1]/x', /loopback/], // IPv4-compatible
    ['https://[64:ff9b::10.0.0.1]/x', /private/], // NAT64
    ['https://[fec0::1]/x', /private/], // site-local
    ['not a url', /absolute https/],
  ];

  it.each(refused)('refuses %s before sending', async (url, reason) => {
    const err = await errorOf(client.webhooks.create({ url }));
    expect(err).toBeInstanceOf(ValidationError);
    expect((err as ValidationError).message).toMatch(reason);
    expect((err as ValidationError).message).toMatch(/url/);
    const created = await client.webhooks.create({ url: HOOK });
    expect(await errorOf(client.webhooks.update(created.id, { url }))).toBeInstanceOf(ValidationError);
    expect(strict.requests.list({ operation: 'webhooks.update' })).toEqual([]);
  });

  it('accepts public https addresses, IPv4 and IPv6 literals included', async () => {
    for (const url of ['https://93.184.216.34/h', 'https://[2606:2800:220:1::1]:8443/h?x=1', 'https://172.32.0.1/h']) {
      expect((await client.webhooks.create({ url })).url).toBe(url);
    }
  });

  it('refuses eventKinds outside the subscribable ones, webhook.test included', async () => {
    const err = await errorOf(client.webhooks.create({ url: HOOK, eventKinds: ['webhook.test' as 'forecast.completed'] }));
    expect(err).toBeInstanceOf(ValidationError);
    expect((err as ValidationError).message).toMatch(/eventKinds/);
  });

  it('refuses a plain-http loopback receiver unless the mock runs in test mode', async () => {
    const local = 'http://127.0.0.1:9/hooks';
    const err = await errorOf(client.webhooks.create({ url: local }));
    expect(err).toBeInstanceOf(BadRequestError);
    expect((err as BadRequestError).message).toMatch(/allowLoopbackReceivers/);
    expect((await connect('pre_local', localBase).webhooks.create({ url: local })).url).toBe(local);
  });
});

describe('deliveries to a public address', () => {
  it('records a test delivery and its attempts without calling the address', async () => {
    const created = await client.webhooks.create({ url: HOOK });
    const delivery = await client.webhooks.test(created.id);
    expect(delivery).toMatchObject({ webhookId: created.id, endpointUrl: HOOK, eventKind: 'webhook.test', status: 'pending', isTest: true, attemptCount: 0 });
    await strict.webhooks.idle();

    const [call] = strict.webhooks.calls(delivery.id);
    expect(call).toMatchObject({ url: HOOK, sent: false });
    const after = await client.webhooks.deliveries.retrieve(delivery.id);
    expect(after).toMatchObject({ status: 'retrying', attemptCount: 1, retriesRemaining: 4, responseStatus: null });
    expect(after.errorMessage).toMatch(/not sent/);
    const attempts = await client.webhooks.deliveries.listAttempts(delivery.id);
    expect(attempts.data).toHaveLength(1);
    expect(attempts.data[0]).toMatchObject({ deliveryId: delivery.id, attemptNumber: 1, responseStatus: null });
  });

  it('lists deliveries newest first, filtered by webhook and by one or several statuses', async () => {
    const a = await client.webhooks.create({ url: `${HOOK}/a` });
    const b = await client.webhooks.create({ url: `${HOOK}/b` });
    const first = await client.webhooks.test(a.id);
    const second = await client.webhooks.test(b.id);
    const third = await client.webhooks.test(a.id);
    await strict.webhooks.idle();
    await client.webhooks.delete(b.id); // cancels `second`

    expect((await client.webhooks.deliveries.list()).data.map((d) => d.id)).toEqual([third.id, second.id, first.id]);
    expect((await client.webhooks.deliveries.list({ webhookId: a.id })).data.map((d) => d.id)).toEqual([third.id, first.id]);
    expect((await client.webhooks.deliveries.list({ status: 'cancelled' })).data.map((d) => d.id)).toEqual([second.id]);
    const both = await client.webhooks.deliveries.list({ status: ['cancelled', 'retrying'] });
    expect(both.data).toHaveLength(3);
    expect(strict.requests.last()?.path).toBe('/webhook-deliveries?status=cancelled&status=retrying');
  });

  it('replays only failed or cancelled deliveries, of an existing enabled webhook', async () => {
    const created = await client.webhooks.create({ url: HOOK });
    const delivery = await client.webhooks.test(created.id);
    await strict.webhooks.idle();
    const waiting = await errorOf(client.webhooks.deliveries.replay(delivery.id));
    expect(waiting).toBeInstanceOf(ConflictError);
    expect((waiting as ConflictError).message).toMatch(/failed or cancelled/);

    await client.webhooks.update(created.id, { url: `${HOOK}/new` }); // cancels it
    expect((await client.webhooks.deliveries.retrieve(delivery.id)).status).toBe('cancelled');
    await client.webhooks.update(created.id, { enabled: false });
    expect((await errorOf(client.webhooks.deliveries.replay(delivery.id)) as ConflictError).message).toMatch(/paused/);
    await client.webhooks.update(created.id, { enabled: true });
    const replayed = await client.webhooks.deliveries.replay(delivery.id);
    expect(replayed).toMatchObject({ id: delivery.id, status: 'pending', endpointUrl: `${HOOK}/new`, retriesRemaining: 5 });
    await strict.webhooks.idle();
    const calls = strict.webhooks.calls(delivery.id);
    expect(calls.map((c) => c.url)).toEqual([HOOK, `${HOOK}/new`]);
    expect(calls[1]!.body).toBe(calls[0]!.body);

    await client.webhooks.update(created.id, { url: HOOK });
    await client.webhooks.delete(created.id);
    expect((await errorOf(client.webhooks.deliveries.replay(delivery.id)) as ConflictError).message).toMatch(/deleted/);
  });

  it('limits tests and replays together to 20 a minute per user, across keys', async () => {
    const created = await client.webhooks.create({ url: HOOK });
    for (let i = 0; i < 10; i++) await client.webhooks.test(created.id);
    for (let i = 0; i < 10; i++) await connect('pre_owner_second_key').webhooks.test(created.id);
    const over = await errorOf(client.webhooks.test(created.id));
    expect(over).toBeInstanceOf(RateLimitError);
    expect((over as RateLimitError).headers.get('retry-after')).toBe('60');
    const [some] = (await client.webhooks.deliveries.list({ limit: 1 })).data;
    await client.webhooks.update(created.id, { url: `${HOOK}/2` }); // cancels all, so a replay is allowed
    expect(await errorOf(client.webhooks.deliveries.replay(some!.id))).toBeInstanceOf(RateLimitError);
    const other = connect('pre_other');
    await other.webhooks.test((await other.webhooks.create({ url: HOOK })).id); // another user has their own 20

    strict.clock.advance(60_000);
    expect((await client.webhooks.deliveries.replay(some!.id)).status).toBe('pending');
  });
});

describe('client.webhooks.retrieveTask', () => {
  it("reads the event's task on the client's base URL, never at the event's forecastUrl", async () => {
    const reached: string[] = [];
    server.use(
      http.get(`${baseURL}/forecasts/:taskId`, ({ request, params }) => {
        reached.push(request.headers.get('authorization') ?? '');
        return HttpResponse.json({ id: params['taskId'], type: 'forecast_task', status: 'completed' });
      }),
      http.all('https://evil.example/*', ({ request }) => {
        reached.push(`evil ${request.url}`);
        return HttpResponse.json({});
      }),
    );
    const event = {
      data: { taskId: 'task-1', forecastUrl: 'https://evil.example/api/v1/external/forecasts/task-1', questionId: 'q', forecastId: 'f' },
    };
    const task = await client.webhooks.retrieveTask(event);
    expect(task).toMatchObject({ id: 'task-1', status: 'completed' });
    expect(reached).toEqual(['Bearer pre_owner']);
  });

  it('refuses a task id that would change the path, before any request', async () => {
    expect(await errorOf(client.webhooks.retrieveTask({ data: { taskId: '../webhooks' } }))).toBeInstanceOf(ValidationError);
  });
});

