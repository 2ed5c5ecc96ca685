// The request log is bounded (`requestLogLimit`, default 10,000): a mock served for hours must not
// grow without end. Past the limit the oldest request is dropped and counted in `dropped`.
import { describe, expect, it } from 'vitest';
import { createMockService, ManualClock, startMockServer, type MockService } from '../../src/testing/index.js';
import { BASE } from './_helpers.js';

/** `n` cheap requests (no key: a 401 before any handler), numbered in their query from `from`. */
async function send(service: MockService, n: number, from = 0): Promise<void> {
  for (let i = from; i < from + n; i++) await service.handle(new Request(`${BASE}/questions?n=${i}`));
}

const numbers = (service: MockService) => service.requests.list().map((r) => Number(new URL(r.path, 'http://x').searchParams.get('n')));

describe('requestLogLimit', () => {
  it('keeps the latest 10,000 requests by default and drops the oldest', async () => {
    const service = createMockService();
    await send(service, 10_003);
    expect(service.requests.length).toBe(10_000);
    expect(service.requests.dropped).toBe(3);
    expect(service.requests.list()[0]?.path).toBe('/questions?n=3');
    expect(service.requests.last()?.path).toBe('/questions?n=10002');
    expect(service.requests.count({ status: 401 })).toBe(10_000);
  });

  it('keeps a custom number, oldest first after wrapping round, in list, iteration, count and last', async () => {
    const service = createMockService({ requestLogLimit: 3 });
    await send(service, 2);
    expect([numbers(service), service.requests.dropped]).toEqual([[0, 1], 0]);
    await send(service, 5, 2);
    expect([numbers(service), service.requests.dropped]).toEqual([[4, 5, 6], 4]);
    expect([...service.requests].map((r) => r.path)).toEqual(['/questions?n=4', '/questions?n=5', '/questions?n=6']);
    expect(service.requests.last()?.path).toBe('/questions?n=6');
    await service.handle(new Request(`${BASE}/nowhere`));
    expect(service.requests.last({ status: 401 })?.path).toBe('/questions?n=6');
    expect(service.requests.last()?.path).toBe('/nowhere');
    expect(service.requests.count({ status: 401 })).toBe(2);
    expect([numbers(service).slice(0, 2), service.requests.length, service.requests.dropped]).toEqual([[5, 6], 3, 5]);
  });

  it('keeps one request with a limit of 1', async () => {
    const service = createMockService({ requestLogLimit: 1 });
    await send(service, 4);
    expect([numbers(service), service.requests.dropped]).toEqual([[3], 3]);
  });

  it('keeps every request with Infinity', async () => {
    const service = createMockService({ requestLogLimit: Infinity });
    await send(service, 10_001);
    expect([service.requests.length, service.requests.dropped]).toEqual([10_001, 0]);
    expect(service.requests.list()[0]?.path).toBe('/questions?n=0');
  });

  it.each([0, -1, 1.5, NaN, -Infinity])('refuses %s, naming requestLogLimit', (value) => {
    expect(() => createMockService({ requestLogLimit: value })).toThrow(RangeError);
    expect(() => createMockService({ requestLogLimit: value })).toThrow(/^requestLogLimit must be a positive whole number or Infinity, got /);
  });

  it('refuses a value that is not a number, naming requestLogLimit', async () => {
    expect(() => createMockService({ requestLogLimit: '100' as unknown as number })).toThrow(new TypeError('requestLogLimit must be a positive whole number or Infinity, got "100"'));
    expect(() => createMockService({ requestLogLimit: null as unknown as number })).toThrow(new TypeError('requestLogLimit must be a positive whole number or Infinity, got object'));
    await expect(startMockServer({ requestLogLimit: 0 })).rejects.toThrow('requestLogLimit must be a positive whole number or Infinity, got 0');
  });

  it('sets dropped back to 0 on clear() and reset()', async () => {
    const service = createMockService({ requestLogLimit: 2 });
    await send(service, 5);
    service.requests.clear();
    expect([service.requests.length, service.requests.dropped, service.requests.last()]).toEqual([0, 0, undefined]);
    await send(service, 3, 10);
    expect([numbers(service), service.requests.dropped]).toEqual([[11, 12], 1]);
    service.reset();
    expect([service.requests.length, service.requests.dropped]).toEqual([0, 0]);
  });
});

describe('GET /__mock/requests', () => {
  it('answers the kept requests with dropped, which POST /__mock/reset sets back to 0', async () => {
    const mock = await startMockServer({ clock: new ManualClock(), httpControls: true, requestLogLimit: 2 });
    try {
      const origin = new URL(mock.baseURL).origin;
      const headers = { authorization: `Bearer ${mock.apiKey}` };
      for (let i = 0; i < 5; i++) await fetch(`${mock.baseURL}/questions?n=${i}`, { headers });
      const logged = (await (await fetch(`${origin}/__mock/requests`, { headers })).json()) as { requests: Array<{ path: string }>; dropped: number };
      expect([logged.requests.map((r) => r.path), logged.dropped]).toEqual([['/questions?n=3', '/questions?n=4'], 3]);
      expect((await fetch(`${origin}/__mock/reset`, { method: 'POST', headers })).status).toBe(204);
      const after = await (await fetch(`${origin}/__mock/requests`, { headers })).json();
      expect(after).toEqual({ requests: [], dropped: 0, next: 0 });
    } finally {
      await mock.close();
    }
  });

  it('pages with since and limit, counting from the start so a page stays put while older requests drop', async () => {
    const mock = await startMockServer({ clock: new ManualClock(), httpControls: true, requestLogLimit: 4 });
    try {
      const origin = new URL(mock.baseURL).origin;
      const headers = { authorization: `Bearer ${mock.apiKey}` };
      const page = async (query: string) => {
        const res = await fetch(`${origin}/__mock/requests${query}`, { headers });
        const body = (await res.json()) as { requests?: Array<{ path: string }>; dropped: number; next: number; error?: { message: string } };
        return { status: res.status, paths: body.requests?.map((r) => r.path), dropped: body.dropped, next: body.next, error: body.error?.message };
      };
      for (let i = 0; i < 3; i++) await fetch(`${mock.baseURL}/questions?n=${i}`, { headers });
      expect(await page('?limit=2')).toMatchObject({ status: 200, paths: ['/questions?n=0', '/questions?n=1'], dropped: 0, next: 2 });
      expect(await page('?since=2&limit=2')).toMatchObject({ paths: ['/questions?n=2'], next: 3 });
      expect(await page('?since=3')).toMatchObject({ paths: [], next: 3 });
      // Three more: the log keeps the latest 4 (n=2..5), having dropped n=0 and n=1.
      for (let i = 3; i < 6; i++) await fetch(`${mock.baseURL}/questions?n=${i}`, { headers });
      expect(await page('?since=3')).toMatchObject({ paths: ['/questions?n=3', '/questions?n=4', '/questions?n=5'], dropped: 2, next: 6 });
      // A since below dropped starts at the oldest kept: the gap (1 to 2) is what was dropped.
      expect(await page('?since=1&limit=1')).toMatchObject({ paths: ['/questions?n=2'], next: 3 });
      expect(await page('?since=7')).toMatchObject({ status: 400, error: 'since: must be at most 6, the requests so far (a reset counts from 0 again)' });
      // Checked as an operation's query is, with the same messages; a parameter it does not read is ignored.
      expect(await page('?limit=0')).toMatchObject({ status: 400, error: 'limit: must be at least 1' });
      for (const query of ['?since=-1', '?limit=1.5', '?since=x', '?limit=', '?since=1e2']) {
        expect(await page(query), query).toMatchObject({ status: 400, error: expect.stringMatching(/^(since|limit): /) });
      }
      expect(await page('?limit=1&other=x')).toMatchObject({ status: 200, paths: ['/questions?n=2'] });
    } finally {
      await mock.close();
    }
  });
});
