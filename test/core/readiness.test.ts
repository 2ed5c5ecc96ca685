// The readiness wait's policy (a pure function) and its loop over msw: Retry-After when the service
// gives one, else 1 s doubling to 15 s.
import { http, HttpResponse } from 'msw';
import { WaitTimeoutError } from '../../src/index.js';
import { describe, expect, it } from 'vitest';
import { readinessBackoff } from '../../src/resources/context/readiness.js';
import { BASE, fakeClock, makeClient, useMswServer } from './helpers.js';

const { server, seen } = useMswServer();

describe('readinessBackoff', () => {
  it('takes the service’s wait when given, else 1 s doubling up to 15 s', () => {
    expect([1, 2, 3, 4, 5, 6, 20].map((n) => readinessBackoff(n, undefined))).toEqual([1000, 2000, 4000, 8000, 15_000, 15_000, 15_000]);
    expect(readinessBackoff(7, 2000)).toBe(2000);
    expect(readinessBackoff(1, 0)).toBe(0);
  });
});

describe('questions.files.waitUntilReady', () => {
  it('backs off by the number of reads without Retry-After, honours it when present, and reads the file list each round', async () => {
    const answers: Array<Record<string, string>> = [{}, {}, { 'retry-after': '3' }, {}];
    let n = 0;
    server.use(
      http.get(`${BASE}/questions/q1/context/ready`, () => {
        const i = n++;
        return HttpResponse.json({ ready: i >= answers.length }, { headers: answers[i] ?? {} });
      }),
      http.get(`${BASE}/questions/q1/files`, () => HttpResponse.json({ type: 'list', data: [{ id: 'f1', status: n > answers.length ? 'ready' : 'processing' }], hasMore: false, nextCursor: null })),
    );
    const clock = fakeClock();
    const files = await makeClient({ clock }).questions.files.waitUntilReady('q1');
    expect(clock.sleeps).toEqual([1000, 2000, 3000, 8000]);
    expect(files).toEqual([{ id: 'f1', status: 'ready' }]);
    expect(seen.filter((r) => r.url.endsWith('/files?limit=100'))).toHaveLength(5);
  });
});

describe('a readiness answer that is not `true` (an attacker\'s review)', () => {
  // `{ready: "false"}` ended the wait, and createAndWait({waitForContext}) started on unready files.
  it.each([['false'], [1], ['true']])('keeps waiting on ready: %j, to the timeout', async (ready) => {
    server.use(
      http.get(`${BASE}/questions/q1/context/ready`, () => HttpResponse.json({ ready })),
      http.get(`${BASE}/questions/q1/files`, () => HttpResponse.json({ type: 'list', data: [{ id: 'f1', status: 'processing' }], hasMore: false, nextCursor: null })),
    );
    const err = await makeClient({ clock: fakeClock() }).questions.files.waitUntilReady('q1', { timeout: 60_000 }).then(() => undefined, (e: unknown) => e);
    expect(err).toBeInstanceOf(WaitTimeoutError);
  });
});
