// What the e2e harnesses share: a mock server on 127.0.0.1 with a manual clock for a suite, clients
// whose waits move that clock, and raw requests that bypass the SDK so the mock's own checks answer.
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { ForecastingClient, type ClientOptions } from '../../src/index.js';
import { ManualClock, mockClientOptions, startMockServer, type MockApiKey, type MockServer } from '../../src/testing/index.js';

/** What a raw request got back: the status and the parsed JSON body (`{}` when empty). */
export interface RawAnswer {
  status: number;
  body: { error?: { type: string; message: string; [k: string]: unknown } } & Record<string, unknown>;
}

/** A client on `apiKey` against `mock`, quiet and retrying at once. */
export function mockClient(mock: MockServer, apiKey: string, options: ClientOptions = {}): ForecastingClient {
  return new ForecastingClient({ ...mockClientOptions(mock), apiKey, logLevel: 'off', retryBackoff: { initialDelay: 0, maxDelay: 0 }, ...options });
}

/** A request that bypasses the SDK: JSON `body`, or a `FormData` as multipart. */
export async function rawRequest(mock: MockServer, method: string, path: string, body: unknown, key: string): Promise<RawAnswer> {
  const headers: Record<string, string> = { authorization: `Bearer ${key}` };
  let sent: BodyInit | undefined;
  if (body instanceof FormData) sent = body;
  else if (body !== undefined) {
    sent = JSON.stringify(body);
    headers['content-type'] = 'application/json';
  }
  const res = await fetch(`${mock.baseURL}${path}`, { method, headers, body: sent });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : {} };
}

/**
 * Registers a suite's hooks: the mock starts once with `apiKeys` (its clock moves only through the
 * clients' waits and the tests), `setup` fills the harness once it runs, the store is emptied before
 * each test and `reset` runs after that.
 */
export function useSuiteMock<H extends { mock: MockServer }>(apiKeys: MockApiKey[], setup: (h: H) => void, reset: (h: H) => void): H {
  const h = {} as H;
  beforeAll(async () => {
    h.mock = await startMockServer({ clock: new ManualClock(), apiKeys });
    setup(h);
  });
  afterAll(() => h.mock.close());
  beforeEach(() => {
    h.mock.service.reset();
    reset(h);
  });
  return h;
}
