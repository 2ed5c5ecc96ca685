// Which receivers the mock calls (docs/webhooks.md, "Deliveries from the mock service" and "Where the
// spec is silent"; docs/cli.md, `--host`): loopback literals and `localhost` only. Other `*.localhost`
// names are accepted in test mode and their deliveries recorded, but never called; a public address
// is recorded, never called; and so whatever host the mock listens on. One server per host, a real
// receiver on 127.0.0.1, time on a manual clock.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ForecastingClient } from '../../src/index.js';
import { ManualClock, startMockServer, type MockServer } from '../../src/testing/index.js';

const HOUR = 60 * 60 * 1000;
const FIRST_RETRY_MS = 30_000;
const PUBLIC_URL = 'https://93.184.215.14/hook-public';

/** What the receiver got: the path and the delivery each call was for. */
interface ReceivedCall {
  path: string;
  deliveryId: string;
}

interface Receiver {
  port: number;
  calls: ReceivedCall[];
  close(): Promise<void>;
}

/** A receiver on 127.0.0.1 that records each call and answers 200. */
async function startReceiver(): Promise<Receiver> {
  const calls: ReceivedCall[] = [];
  const server: Server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      calls.push({ path: req.url ?? '', deliveryId: String(req.headers['x-service-delivery-id']) });
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    port,
    calls,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * The engine's Fetch (its documented `fetch` option), as a guard: it records every address the mock
 * tries, and sends nothing beyond this machine. It resolves `*.localhost` to 127.0.0.1 as RFC 6761
 * resolvers do, so a call the mock wrongly made to `app.localhost` would reach the receiver.
 */
function guardedFetch(attempted: string[]): typeof fetch {
  return (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    attempted.push(url.href);
    if (url.hostname.endsWith('.localhost')) url.hostname = '127.0.0.1';
    if (url.hostname !== '127.0.0.1' && url.hostname !== 'localhost') {
      return Promise.reject(new TypeError(`test guard: nothing is sent beyond this machine (${url.href})`));
    }
    return fetch(url, init);
  };
}

interface Hooks {
  literal: string;
  localhost: string;
  appLocalhost: string;
  publicAddress: string;
}

const hostCases: Array<{ name: string; host: string | undefined }> = [
  { name: 'the default host', host: undefined },
  { name: "host '0.0.0.0'", host: '0.0.0.0' },
];

describe.each(hostCases)('receivers the mock calls, listening on $name', ({ host }) => {
  let mock: MockServer;
  let clock: ManualClock;
  let client: ForecastingClient;
  let receiver: Receiver;
  const attempted: string[] = [];

  beforeAll(async () => {
    receiver = await startReceiver();
    clock = new ManualClock();
    mock = await startMockServer({ host, clock, webhooks: { allowLoopbackReceivers: true, fetch: guardedFetch(attempted) } });
    client = new ForecastingClient({ apiKey: mock.apiKey, baseURL: mock.baseURL, maxRetries: 0, logLevel: 'off' });
  });
  afterAll(async () => {
    await mock.service.webhooks.idle();
    await mock.close();
    await receiver.close();
  });

  /** Registers the four webhooks; each registration must succeed. Returns their ids by kind. */
  async function registerHooks(): Promise<Hooks> {
    const urls: Record<keyof Hooks, string> = {
      literal: `http://127.0.0.1:${receiver.port}/hook-literal`,
      localhost: `http://localhost:${receiver.port}/hook-localhost`,
      appLocalhost: `http://app.localhost:${receiver.port}/hook-app-localhost`,
      publicAddress: PUBLIC_URL,
    };
    const ids: Partial<Hooks> = {};
    for (const [kind, url] of Object.entries(urls) as Array<[keyof Hooks, string]>) {
      const hook = await client.webhooks.create({ url });
      expect(hook.url).toBe(url);
      ids[kind] = hook.id;
    }
    return ids as Hooks;
  }

  /** Completes one forecast on the mock clock, then waits until every call out has been answered. */
  async function completeForecast(): Promise<void> {
    const question = await client.questions.create({ type: 'binary', title: 'Will the harbour reopen in April?' });
    await client.forecasts.create({ questionId: question.id });
    clock.advance(HOUR);
    await mock.service.webhooks.idle();
  }

  const onlyDelivery = async (webhookId: string) => {
    const { data } = await client.webhooks.deliveries.list({ webhookId });
    expect(data).toHaveLength(1);
    return data[0]!;
  };

  /** Asserts the first attempts: two loopback calls received, the other two deliveries recorded, not sent. */
  async function expectFirstRound(hooks: Hooks): Promise<string[]> {
    const [literal, localhost, appLocalhost, publicAddress] = await Promise.all(
      [hooks.literal, hooks.localhost, hooks.appLocalhost, hooks.publicAddress].map(onlyDelivery),
    );
    // The two loopback receivers got their call, once each, and nothing else reached the receiver.
    expect(receiver.calls.map((c) => c.path).sort()).toEqual(['/hook-literal', '/hook-localhost']);
    expect(receiver.calls.find((c) => c.path === '/hook-literal')?.deliveryId).toBe(literal!.id);
    expect(receiver.calls.find((c) => c.path === '/hook-localhost')?.deliveryId).toBe(localhost!.id);
    // The mock never even tried the other two addresses.
    expect(attempted.filter((url) => !url.startsWith(`http://127.0.0.1:${receiver.port}/`) && !url.startsWith(`http://localhost:${receiver.port}/`))).toEqual([]);

    for (const called of [literal!, localhost!]) {
      expect(called).toMatchObject({ eventKind: 'forecast.completed', status: 'succeeded', attemptCount: 1, responseStatus: 200 });
      expect(mock.service.webhooks.calls(called.id).map((c) => c.sent)).toEqual([true]);
    }
    // Recorded as the service would: a delivery, an attempt, a retry to come; the call kept, not sent.
    for (const [recorded, url] of [
      [appLocalhost!, `http://app.localhost:${receiver.port}/hook-app-localhost`],
      [publicAddress!, PUBLIC_URL],
    ] as const) {
      expect(recorded).toMatchObject({ eventKind: 'forecast.completed', status: 'retrying', attemptCount: 1, responseStatus: null });
      expect(recorded.errorMessage).toMatch(/^not sent/);
      const attempts = (await client.webhooks.deliveries.listAttempts(recorded.id)).data;
      expect(attempts).toHaveLength(1);
      expect(attempts[0]).toMatchObject({ attemptNumber: 1, responseStatus: null });
      const calls = mock.service.webhooks.calls(recorded.id);
      expect(calls.map((c) => [c.url, c.sent])).toEqual([[url, false]]);
      expect(calls[0]!.headers['x-service-event-type']).toBe('forecast.completed');
      expect((JSON.parse(calls[0]!.body) as { type: string }).type).toBe('forecast.completed');
    }
    return [appLocalhost!.id, publicAddress!.id];
  }

  /** Asserts the first retry of the recorded deliveries: made on the mock clock, and again not sent. */
  async function expectRetryRound(recordedIds: string[]): Promise<void> {
    const before = receiver.calls.length;
    const waiting = (await client.webhooks.deliveries.list({ status: 'retrying' })).data;
    expect(waiting.map((d) => d.id).sort()).toEqual([...recordedIds].sort());

    clock.advance(FIRST_RETRY_MS);
    await mock.service.webhooks.idle();
    for (const id of recordedIds) {
      expect(await client.webhooks.deliveries.retrieve(id)).toMatchObject({ status: 'retrying', attemptCount: 2 });
      expect(mock.service.webhooks.calls(id).map((c) => c.sent)).toEqual([false, false]);
    }
    expect(receiver.calls.length).toBe(before);
    expect(attempted.some((url) => url.includes('app.localhost') || url === PUBLIC_URL)).toBe(false);
  }

  it('calls the loopback literal and localhost, records but never calls app.localhost or a public address, retries included', async () => {
    const hooks = await registerHooks();
    await completeForecast();
    const recordedIds = await expectFirstRound(hooks);
    await expectRetryRound(recordedIds);
  });
});
