// Keys a client chooses are data everywhere in the mock: a name that is also a member of
// Object.prototype (`constructor`, `toString`, `__proto__`) never reads or sets the prototype.
import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ForecastData } from '../../src/schemas/records/forecasts.js';
import { createMockService, ManualClock, startMockServer, type MockServer } from '../../src/testing/index.js';
import { priceOf } from '../../src/testing/models/credits.js';
import { forecastValue } from '../../src/testing/models/decision.js';
import { canonicalJson } from '../../src/testing/webhooks/body.js';

describe('over HTTP', () => {
  let mock: MockServer;
  beforeAll(async () => {
    mock = await startMockServer({ clock: new ManualClock() });
  });
  afterAll(() => mock.close());

  it('keeps a request header named __proto__ in the request log', async () => {
    // fetch drops the header on the way: node:http sends it as written.
    await new Promise<void>((resolve, reject) => {
      const req = httpRequest(`${mock.baseURL}/questions`, { headers: { authorization: `Bearer ${mock.apiKey}` } });
      req.setHeader('__proto__', 'kept');
      req.on('response', (res) => res.resume().on('end', resolve)).on('error', reject).end();
    });
    const { headers } = mock.service.requests.last()!;
    expect(Object.hasOwn(headers, '__proto__')).toBe(true);
    expect(headers['__proto__']).toBe('kept');
    expect(Object.getPrototypeOf(headers)).toBe(Object.prototype);
  });
});

describe('lookups by a chosen key', () => {
  it('priceOf knows no price named like a member', () => {
    const { store } = createMockService();
    for (const key of ['constructor', 'toString', '__proto__']) expect(priceOf(store, key)).toBe(0);
  });

  it('a condition option named like a member gives no number', () => {
    const data = { questionType: 'multiple_choice', format: 'option_probabilities', payload: { probabilities: { A: 0.6, B: 0.4 } } } as unknown as ForecastData;
    expect(forecastValue(data, 'A')).toBe(0.6);
    expect(forecastValue(data, 'toString')).toBeUndefined();
  });

  it('the canonical JSON of an event keeps a __proto__ key as a key', () => {
    expect(canonicalJson(JSON.parse('{"b":1,"__proto__":{"x":1},"a":[{"d":2,"c":3}]}'))).toBe('{"__proto__":{"x":1},"a":[{"c":3,"d":2}],"b":1}');
  });
});
