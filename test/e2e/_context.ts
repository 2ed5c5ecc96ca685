// Shared setup of the context and preset suites: a mock server on 127.0.0.1 with a manual clock,
// keys for an organization admin, a member, a colleague, an outsider and a reader, and raw requests
// that bypass the SDK.
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { ForecastingClient, type ClientOptions } from '../../src/index.js';
import { ManualClock, mockClientOptions, startMockServer, type MockServer } from '../../src/testing/index.js';

export const KEYS = {
  /** u1 of org1, an organization admin. */
  admin: 'pre_ctx_admin',
  /** u2 of org1, not an admin: the default client's key. */
  member: 'pre_ctx_member',
  /** u3 of org1. */
  colleague: 'pre_ctx_colleague',
  /** u9 of org9. */
  other: 'pre_ctx_other',
  /** u2 again, with read scopes only. */
  reader: 'pre_ctx_reader',
} as const;

export interface Harness {
  mock: MockServer;
  /** A client on the `member` key whose waits move the mock clock. */
  client: ForecastingClient;
  connect(options?: ClientOptions): ForecastingClient;
  /** Requests that reached the server for an operation. */
  count(operation: string): number;
  /** A request that bypasses the SDK: JSON `body`, or a `FormData` as multipart. */
  raw(method: string, path: string, init?: { body?: unknown; key?: string }): Promise<{ status: number; body: { error?: { type: string; message: string; [k: string]: unknown } } & Record<string, unknown> }>;
}

export function useContextMock(): Harness {
  const h = {} as Harness;
  beforeAll(async () => {
    h.mock = await startMockServer({
      clock: new ManualClock(),
      apiKeys: [
        { key: KEYS.member, userId: 'u2', organizationId: 'org1' },
        { key: KEYS.admin, userId: 'u1', organizationId: 'org1', organizationAdmin: true },
        { key: KEYS.colleague, userId: 'u3', organizationId: 'org1' },
        { key: KEYS.other, userId: 'u9', organizationId: 'org9' },
        { key: KEYS.reader, scopes: ['questions:read', 'forecasts:read'], userId: 'u2', organizationId: 'org1' },
      ],
    });
    h.connect = (options = {}) =>
      new ForecastingClient({ ...mockClientOptions(h.mock), apiKey: KEYS.member, logLevel: 'off', retryBackoff: { initialDelay: 0, maxDelay: 0 }, ...options });
    h.count = (operation) => h.mock.service.requests.count({ operation });
    h.raw = async (method, path, init = {}) => {
      const headers: Record<string, string> = { authorization: `Bearer ${init.key ?? KEYS.member}` };
      let body: BodyInit | undefined;
      if (init.body instanceof FormData) body = init.body;
      else if (init.body !== undefined) {
        body = JSON.stringify(init.body);
        headers['content-type'] = 'application/json';
      }
      const res = await fetch(`${h.mock.baseURL}${path}`, { method, headers, body });
      const text = await res.text();
      return { status: res.status, body: text ? JSON.parse(text) : {} };
    };
  });
  afterAll(() => h.mock.close());
  beforeEach(() => {
    h.mock.service.reset();
    h.mock.service.contextControls.setUploadsDisabled(false);
    h.client = h.connect();
  });
  return h;
}

/** A form for a raw upload: `file` as a File, the other fields as text. */
export function form(fields: Record<string, string | Blob>): FormData {
  const f = new FormData();
  for (const [k, v] of Object.entries(fields)) f.append(k, v);
  return f;
}

export const binary = { type: 'binary', title: 'Will the bridge open by June 2027?' } as const;
export const MiB = 1024 * 1024;
export const SECOND = 1000;
