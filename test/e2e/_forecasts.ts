// Shared setup of the forecast suites: a mock server on 127.0.0.1 with a manual clock, and clients
// whose waits move that clock instead of sleeping.
import type { ClientOptions, ForecastingClient, OperationName } from '../../src/index.js';
import type { MockServer } from '../../src/testing/index.js';
import { mockClient, useSuiteMock } from './_mock.js';

export const KEYS = {
  all: 'pre_fc_all',
  forecaster: 'pre_fc_forecaster',
  reader: 'pre_fc_reader',
  other: 'pre_fc_other',
  colleague: 'pre_fc_colleague',
} as const;

export interface Harness {
  mock: MockServer;
  /** A client on the `all` key whose waits move the mock clock. */
  client: ForecastingClient;
  connect(options?: ClientOptions): ForecastingClient;
  /** Requests that reached the server for an operation. */
  count(operation: OperationName): number;
}

/** Registers the hooks of a suite and returns a harness filled in before each test. */
export function useForecastMock(): Harness {
  return useSuiteMock<Harness>(
    [
      { key: KEYS.all, userId: 'u1', organizationId: 'org1' },
      { key: KEYS.forecaster, scopes: ['questions:read', 'forecasts:read', 'forecasts:write'], userId: 'u1', organizationId: 'org1' },
      { key: KEYS.reader, scopes: ['questions:read', 'forecasts:read'], userId: 'u1', organizationId: 'org1' },
      { key: KEYS.other, userId: 'u9', organizationId: 'org9' },
      { key: KEYS.colleague, userId: 'u2', organizationId: 'org1' },
    ],
    (h) => {
      h.connect = (options = {}) => mockClient(h.mock, KEYS.all, options);
      h.count = (operation) => h.mock.service.requests.count({ operation });
    },
    (h) => {
      h.mock.service.setRateLimit(false);
      h.client = h.connect();
    },
  );
}

export const binary = { type: 'binary', title: 'Will it rain in Paris on 1 June 2027?' } as const;
export const numeric = { type: 'numeric', title: 'Brent price on 1 June 2027?', lowerBound: 40, upperBound: 140, scaleType: 'linear' } as const;
export const logNumeric = { type: 'numeric', title: 'Bitcoin price on 1 June 2027?', lowerBound: 1000, upperBound: 1_000_000, scaleType: 'logarithmic', openUpperBound: true } as const;
export const multipleChoice = { type: 'multiple_choice', title: 'Which party wins?', options: ['Red', 'Blue', 'Green'] } as const;
export const discrete = { type: 'discrete', title: 'Goals in the final?', lowerBound: 0, upperBound: 12 } as const;
export const date = { type: 'date', title: 'When will the bridge open?', lowerBound: 1_767_225_600, upperBound: 1_893_456_000 } as const;

export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;
