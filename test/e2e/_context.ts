// Shared setup of the context and preset suites: a mock server on 127.0.0.1 with a manual clock,
// keys for an organization admin, a member, a colleague, an outsider and a reader, and raw requests
// that bypass the SDK.
import type { ClientOptions, ForecastingClient, OperationName } from '../../src/index.js';
import type { MockServer } from '../../src/testing/index.js';
import { mockClient, rawRequest, useSuiteMock, type RawAnswer } from './_mock.js';

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
  count(operation: OperationName): number;
  /** A request that bypasses the SDK: JSON `body`, or a `FormData` as multipart. */
  raw(method: string, path: string, init?: { body?: unknown; key?: string }): Promise<RawAnswer>;
}

export function useContextMock(): Harness {
  return useSuiteMock<Harness>(
    [
      { key: KEYS.member, userId: 'u2', organizationId: 'org1' },
      { key: KEYS.admin, userId: 'u1', organizationId: 'org1', organizationAdmin: true },
      { key: KEYS.colleague, userId: 'u3', organizationId: 'org1' },
      { key: KEYS.other, userId: 'u9', organizationId: 'org9' },
      { key: KEYS.reader, scopes: ['questions:read', 'forecasts:read'], userId: 'u2', organizationId: 'org1' },
    ],
    (h) => {
      h.connect = (options = {}) => mockClient(h.mock, KEYS.member, options);
      h.count = (operation) => h.mock.service.requests.count({ operation });
      h.raw = (method, path, init = {}) => rawRequest(h.mock, method, path, init.body, init.key ?? KEYS.member);
    },
    (h) => {
      h.mock.service.contextControls.setUploadsDisabled(false);
      h.client = h.connect();
    },
  );
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
