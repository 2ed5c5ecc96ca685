// Hostile answers to the check of held slots (finalOfHeld), each of which freed the slot of a task the
// same answer, or the service, shows running (each held a defect, found by an attacker's review).
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { finalOfHeld } from '../../src/api/held-tasks.js';
import { BASE, makeClient, useMswServer } from '../core/helpers.js';

const { server } = useMswServer();
const check = (ids: string[]) => finalOfHeld(makeClient())(ids, new AbortController().signal);
const reply = (body: unknown) => () => HttpResponse.json(body as never);

describe('finalOfHeld against hostile answers', () => {
  it('frees no unlisted id when the page says there is more (hasMore "true" as a string, with a cursor)', async () => {
    server.use(http.get(`${BASE}/forecasts`, reply({ type: 'list', data: [{ taskId: 't_1', status: 'running' }], hasMore: 'true', nextCursor: 'c_2' })));
    expect(await check(['t_1', 't_2'])).toEqual([]);
  });

  it('does not free an id the same page shows both final and running', async () => {
    server.use(
      http.get(`${BASE}/forecasts`, reply({ type: 'list', data: [{ taskId: 't_1', status: 'completed' }, { taskId: 't_1', status: 'running' }], hasMore: false, nextCursor: null })),
    );
    expect(await check(['t_1'])).toEqual([]);
  });

  it('does not free, as unknown, a held id the comma-separated filter cannot express ("a,b")', async () => {
    // The task "a,b" runs; the server splits the filter on commas, finds no task "a" or "b", and answers nothing.
    const running = new Map([['a,b', 'running']]);
    server.use(
      http.get(`${BASE}/forecasts`, ({ request }) => {
        const asked = (new URL(request.url).searchParams.get('taskId') ?? '').split(',').map((s) => s.trim());
        const data = [...running].filter(([id]) => asked.includes(id)).map(([taskId, status]) => ({ taskId, status }));
        return HttpResponse.json({ type: 'list', data, hasMore: false, nextCursor: null });
      }),
    );
    expect(await check(['a,b'])).toEqual([]);
  });
});
