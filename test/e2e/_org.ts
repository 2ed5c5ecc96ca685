// Shared setup of the templates, connections and sharing suites: a mock server on 127.0.0.1 with a
// manual clock, keys for an organization admin, a member, a reader and someone of another organization.
import { afterAll, beforeAll, beforeEach, expect } from 'vitest';
import { ForecastingClient, ValidationError, type ClientOptions } from '../../src/index.js';
import { ManualClock, mockClientOptions, startMockServer, type MockServer } from '../../src/testing/index.js';

export const KEYS = {
  admin: 'pre_org_admin',
  member: 'pre_org_member',
  reader: 'pre_org_reader',
  other: 'pre_org_other',
} as const;

export interface OrgHarness {
  mock: MockServer;
  /** A client on the admin's key; its waits move the mock clock. */
  client: ForecastingClient;
  connect(key?: string, options?: ClientOptions): ForecastingClient;
  /** Requests that reached the server for an operation. */
  count(operation: string): number;
  /** A request that bypasses the SDK: the mock's own checks answer. */
  raw(method: string, path: string, body?: unknown, key?: string): Promise<{ status: number; body: { error?: { type: string; message: string } } & Record<string, unknown> }>;
  /** The SDK refuses the call before sending: `ValidationError` naming `field`, and nothing reaches the server. */
  refused(call: Promise<unknown>, field: string, message?: RegExp): Promise<ValidationError>;
}

/** Registers the hooks of a suite and returns a harness filled in before each test. */
export function useOrgMock(): OrgHarness {
  const h = {} as OrgHarness;
  beforeAll(async () => {
    h.mock = await startMockServer({
      clock: new ManualClock(),
      apiKeys: [
        { key: KEYS.admin, userId: 'u1', organizationId: 'org1', organizationAdmin: true },
        { key: KEYS.member, userId: 'u2', organizationId: 'org1' },
        { key: KEYS.reader, scopes: ['questions:read', 'forecasts:read', 'connections:read'], userId: 'u1', organizationId: 'org1', organizationAdmin: true },
        { key: KEYS.other, userId: 'u9', organizationId: 'org9', organizationAdmin: true },
      ],
    });
    h.connect = (key = KEYS.admin, options = {}) =>
      new ForecastingClient({ ...mockClientOptions(h.mock), apiKey: key, logLevel: 'off', retryBackoff: { initialDelay: 0, maxDelay: 0 }, ...options });
    h.count = (operation) => h.mock.service.requests.count({ operation });
    h.raw = async (method, path, body, key = KEYS.admin) => {
      const res = await fetch(`${h.mock.baseURL}${path}`, {
        method,
        headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      const text = await res.text();
      return { status: res.status, body: text ? JSON.parse(text) : {} };
    };
    h.refused = async (call, field, message) => {
      const before = h.mock.service.requests.length;
      const err = await call.then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(ValidationError);
      expect((err as ValidationError).field).toBe(field);
      if (message) expect((err as ValidationError).message).toMatch(message);
      expect(h.mock.service.requests.length, 'nothing is sent').toBe(before);
      return err as ValidationError;
    };
  });
  afterAll(() => h.mock.close());
  beforeEach(() => {
    h.mock.service.reset();
    h.client = h.connect();
  });
  return h;
}

export const binary = { type: 'binary', title: 'Will it rain in Paris on 1 June 2027?' } as const;
