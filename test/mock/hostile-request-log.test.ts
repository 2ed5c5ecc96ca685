// Hostile review of the mock's bounded request log: what a client (any, before any key check) can
// make it hold, and the queue's bookkeeping under wrap-around, clear() mid-run, iteration while
// adding, filters and a limit of 1, checked against a plain array.
import { describe, expect, it } from 'vitest';
import { createMockService } from '../../src/testing/index.js';
import { MAX_REQUEST_LOG_BYTES, RequestLog, type RecordedRequest, type RequestFilter } from '../../src/testing/request-log.js';
import { BASE } from './_helpers.js';

const entry = (n: number, extra: Partial<RecordedRequest> = {}): RecordedRequest => ({
  method: n % 3 === 0 ? 'POST' : 'GET',
  path: `/questions/q_${n}?page=${n % 2}`,
  operation: n % 5 === 0 ? undefined : n % 2 ? 'questions.retrieve' : 'questions.create',
  status: n % 7 === 0 ? null : n % 4 === 0 ? 404 : 200,
  dropped: false,
  idempotencyKey: undefined,
  headers: {},
  body: undefined,
  at: n,
  requestId: `req_${n}`,
  ...extra,
});

describe('the memory the log holds (held a defect)', () => {
  // A body up to 64 KiB is kept parsed: `[{},{},…]` of that size is some 1.3 MB of heap, so the
  // default 10,000 of them were about 13 GB, sent without a key (the log records every request).
  it('drops the oldest once the kept requests would take over MAX_REQUEST_LOG_BYTES, the newest kept', async () => {
    const service = createMockService();
    const body = `[${Array.from({ length: 21_000 }, () => '{}').join(',')}]`;
    const sent = 120;
    for (let i = 0; i < sent; i++) {
      await service.handle(new Request(`${BASE}/questions?n=${i}`, { method: 'POST', body, headers: { 'content-type': 'application/json' } }));
    }
    const { length, dropped } = service.requests;
    expect(length + dropped).toBe(sent);
    expect(length).toBeLessThan(sent);
    expect(length).toBeGreaterThan(40);
    expect(service.requests.last()?.path).toBe(`/questions?n=${sent - 1}`);
    expect(service.requests.list()[0]?.path).toBe(`/questions?n=${dropped}`);
  });

  it('bounds bodies kept as text (up to 64 KiB each) the same way', () => {
    const log = new RequestLog();
    const text = 'x'.repeat(64 * 1024);
    for (let i = 0; i < 10_000; i++) log.add(entry(i, { body: text }));
    expect(log.length).toBeLessThanOrEqual(MAX_REQUEST_LOG_BYTES / (2 * text.length));
    expect(log.length + log.dropped).toBe(10_000);
    expect(log.last()?.requestId).toBe('req_9999');
  });

  it('keeps every request with Infinity, as asked, and the newest one however heavy', () => {
    const all = new RequestLog(Infinity);
    const text = 'x'.repeat(64 * 1024);
    for (let i = 0; i < 3_000; i++) all.add(entry(i, { body: text }));
    expect([all.length, all.dropped]).toEqual([3_000, 0]);
    const small = new RequestLog(10, 1_000);
    for (let i = 0; i < 3; i++) small.add(entry(i, { body: text }));
    expect([small.length, small.dropped, small.last()?.requestId]).toEqual([1, 2, 'req_2']);
  });
});

/** RequestFilter's rule, written out: every given field matches (the method in any case, the path without its query). */
const picks = (e: RecordedRequest, f: RequestFilter): boolean =>
  (f.operation === undefined || e.operation === f.operation) &&
  (f.method === undefined || e.method === f.method.toUpperCase()) &&
  (f.path === undefined || e.path.split('?')[0] === f.path) &&
  (f.status === undefined || e.status === f.status);

describe('the queue against a plain array', () => {
  const filters: RequestFilter[] = [{}, { operation: 'questions.create' }, { method: 'post' }, { path: '/questions/q_3' }, { status: null }, { status: 404, operation: 'questions.retrieve' }];

  it.each([1, 2, 3, 7, 1500])('agrees on list, count, last, length, dropped and iteration with a limit of %i, clear() mid-run included', (limit) => {
    const log = new RequestLog(limit);
    let model: RecordedRequest[] = [];
    let dropped = 0;
    let seed = limit;
    const random = () => ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31);
    for (let step = 0; step < 6_000; step++) {
      if (random() < 0.003) {
        log.clear();
        model = [];
        dropped = 0;
      } else {
        const e = entry(step);
        log.add(e);
        model.push(e);
        if (model.length > limit) (model.shift(), dropped++);
      }
      if (step % 97 !== 0 && step < 5_990) continue;
      expect([log.length, log.dropped]).toEqual([model.length, dropped]);
      expect([...log]).toEqual(model);
      for (const f of filters) {
        const matching = model.filter((e) => picks(e, f));
        expect(log.list(f)).toEqual(matching);
        expect(log.count(f)).toBe(matching.length);
        expect(log.last(f)).toBe(matching.at(-1));
      }
    }
  });

  it('iterates a snapshot: adding, or clearing, while iterating ends, and changes nothing seen', () => {
    const log = new RequestLog(3);
    for (let i = 0; i < 5; i++) log.add(entry(i));
    const seen: string[] = [];
    for (const e of log) {
      seen.push(e.requestId);
      log.add(entry(100 + seen.length));
      if (seen.length === 2) log.clear();
    }
    expect(seen).toEqual(['req_2', 'req_3', 'req_4']);
    expect([...log].map((e) => e.requestId)).toEqual(['req_103']);
  });
});
