// Values of open sets (statuses, kinds) the SDK does not know yet still parse: their types are closed for
// comparisons (see test/types/open-unions.check.ts), never the parsing.
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../src/index.js';
import { BASE, makeClient, useMswServer } from './helpers.js';

const { server } = useMswServer();

const batch = (items: unknown[]) => ({ counts: { total: items.length, accepted: 1, rejected: 1 }, items });

describe('a value newer than the SDK', () => {
  it('parses a batch item of an unknown status, beside the known ones, with validateResponses on', async () => {
    server.use(
      http.post(`${BASE}/forecasts/batch`, () =>
        HttpResponse.json(
          batch([
            { index: 0, status: 'accepted', taskId: 't1' },
            { index: 1, status: 'rejected', error: { type: 'invalid_request_error', message: 'questionId: no such question' } },
            { index: 2, status: 'deferred', taskId: 't3' },
          ]),
        ),
      ),
    );
    const client = makeClient({ validateResponses: true });
    const { items } = await client.forecasts.createBatch({ items: [{ questionId: 'a' }, { questionId: 'b' }, { questionId: 'c' }] });
    expect(items.map((r) => r.status)).toEqual(['accepted', 'rejected', 'deferred']);
    const started = items.flatMap((r) => (r.status === 'accepted' ? [r.taskId] : []));
    expect(started).toEqual(['t1']);
  });

  it('parses a list item of an unknown task status', async () => {
    server.use(
      http.get(`${BASE}/forecasts`, () =>
        HttpResponse.json({ type: 'list', data: [{ taskId: 't1', status: 'paused', forecastData: null }], hasMore: false, nextCursor: null }),
      ),
    );
    const page = await makeClient({ validateResponses: true }).forecasts.list();
    expect(page.data[0]?.status).toBe('paused');
  });

  it('still refuses a known status without its field: an accepted item needs its taskId', async () => {
    server.use(http.post(`${BASE}/forecasts/batch`, () => HttpResponse.json(batch([{ index: 0, status: 'accepted' }]))));
    const err = await makeClient({ validateResponses: true })
      .forecasts.createBatch({ items: [{ questionId: 'a' }] })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ValidationError);
    expect((err as ValidationError).field).toBe('response.items.0.taskId');
  });
});
