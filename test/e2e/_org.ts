// Shared setup of the templates, connections and sharing suites: a mock server on 127.0.0.1 with a
// manual clock, keys for an organization admin, a member, a reader and someone of another organization.
import { expect } from 'vitest';
import { ValidationError, type ClientOptions, type ForecastingClient, type OperationName } from '../../src/index.js';
import type { MockServer } from '../../src/testing/index.js';
import { mockClient, rawRequest, useSuiteMock, type RawAnswer } from './_mock.js';

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
  count(operation: OperationName): number;
  /** A request that bypasses the SDK: the mock's own checks answer. */
  raw(method: string, path: string, body?: unknown, key?: string): Promise<RawAnswer>;
  /** The SDK refuses the call before sending: `ValidationError` naming `field`, and nothing reaches the server. */
  refused(call: Promise<unknown>, field: string, message?: RegExp): Promise<ValidationError>;
}

/** Registers the hooks of a suite and returns a harness filled in before each test. */
export function useOrgMock(): OrgHarness {
  return useSuiteMock<OrgHarness>(
    [
      { key: KEYS.admin, userId: 'u1', organizationId: 'org1', organizationAdmin: true },
      { key: KEYS.member, userId: 'u2', organizationId: 'org1' },
      { key: KEYS.reader, scopes: ['questions:read', 'forecasts:read', 'connections:read'], userId: 'u1', organizationId: 'org1', organizationAdmin: true },
      { key: KEYS.other, userId: 'u9', organizationId: 'org9', organizationAdmin: true },
    ],
    (h) => {
      h.connect = (key = KEYS.admin, options = {}) => mockClient(h.mock, key, options);
      h.count = (operation) => h.mock.service.requests.count({ operation });
      h.raw = (method, path, body, key = KEYS.admin) => rawRequest(h.mock, method, path, body, key);
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
    },
    (h) => {
      h.client = h.connect();
    },
  );
}

export const binary = { type: 'binary', title: 'Will it rain in Paris on 1 June 2027?' } as const;
