// The answer to a coordinator's "which of these held tasks are final?" (finalOfHeld), against an
// msw service: which held ids it frees from a list that kept to the taskId filter, and which it
// keeps from one that did not (a broken or hostile server must not free slots of running tasks).
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { finalOfHeld } from '../../src/api/held-tasks.js';
import { BASE, makeClient, useMswServer } from '../core/helpers.js';

const { server, seen } = useMswServer();

const item = (taskId: string, status: string) => ({ taskId, status, questionId: 'q_1', createdAt: '2026-11-30T00:00:00Z' });
const answer = (data: unknown[], hasMore = false) => () => HttpResponse.json({ type: 'list', data, hasMore, nextCursor: hasMore ? 'c_2' : null });
const check = (ids: string[]) => finalOfHeld(makeClient())(ids, new AbortController().signal);

describe('finalOfHeld', () => {
  it('frees the final tasks and the held ids a list that kept to the filter does not show', async () => {
    server.use(http.get(`${BASE}/forecasts`, answer([item('t_1', 'completed'), item('t_2', 'running')])));
    expect([...(await check(['t_1', 't_2', 't_gone']))].sort()).toEqual(['t_1', 't_gone']);
    expect(new URL(seen[0]!.url).searchParams.get('taskId')).toBe('t_1,t_2,t_gone');
  });

  it('frees no unlisted id when the answer shows a task it was not asked about (the filter ignored)', async () => {
    server.use(http.get(`${BASE}/forecasts`, answer([item('t_other', 'running'), item('t_1', 'failed')])));
    expect(await check(['t_1', 't_2'])).toEqual(['t_1']);
  });

  it('frees no unlisted id when the answer shows an item with no task id (it cannot be told apart)', async () => {
    server.use(http.get(`${BASE}/forecasts`, answer([item('t_1', 'completed'), { status: 'running' }])));
    expect(await check(['t_1', 't_2'])).toEqual(['t_1']);
  });

  it('frees no unlisted id when the answer says it has more pages', async () => {
    server.use(http.get(`${BASE}/forecasts`, answer([item('t_1', 'cancelled')], true)));
    expect(await check(['t_1', 't_2'])).toEqual(['t_1']);
  });

  it('judges each request of 100 ids apart', async () => {
    const ids = Array.from({ length: 150 }, (_, i) => `t_${i}`);
    // The first request's answer ignores the filter; the second keeps to it and shows nothing.
    server.use(
      http.get(`${BASE}/forecasts`, ({ request }) => {
        const asked = new URL(request.url).searchParams.get('taskId')!.split(',');
        return HttpResponse.json({ type: 'list', data: asked.length === 100 ? [item('t_other', 'running')] : [], hasMore: false, nextCursor: null });
      }),
    );
    expect(await check(ids)).toEqual(ids.slice(100));
    expect(seen).toHaveLength(2);
  });
});
