// Documented behaviours of the mock (docs/testing.md, docs/cli.md) that no other test pinned down:
// Retry-After on forecast list pages, what reset() keeps, the log of a multipart body, the fault
// listing over HTTP, and a colleague editing a shared question. One server, real HTTP on 127.0.0.1,
// a manual clock: nothing here sleeps.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock, startMockServer, type MockServer } from '../../src/testing/index.js';
import type { ErrorBody, ListBody, Question } from './_helpers.js';

const OWNER = 'pre_doc_owner';
const COLLEAGUE = 'pre_doc_colleague';
const OUTSIDER = 'pre_doc_outsider';
const LISTER = 'pre_doc_lister';
const LIMITED = 'pre_doc_limited';
const MINUTE = 60_000;

let mock: MockServer;
beforeAll(async () => {
  mock = await startMockServer({
    clock: new ManualClock(),
    httpControls: true,
    apiKeys: [
      { key: OWNER, userId: 'u_owner', organizationId: 'org_a' },
      { key: COLLEAGUE, userId: 'u_colleague', organizationId: 'org_a' },
      { key: OUTSIDER, userId: 'u_outsider', organizationId: 'org_b' },
      { key: LISTER, userId: 'u_lister', organizationId: 'org_c' },
      { key: LIMITED, userId: 'u_limited', organizationId: 'org_d' },
    ],
  });
});
afterAll(() => mock.close());

interface Reply<T> {
  status: number;
  headers: Headers;
  body: T;
}

/** One call to the service (below the base URL) or, with a path starting `/__mock`, to its control routes. */
async function api<T = unknown>(key: string, method: string, path: string, body?: unknown): Promise<Reply<T>> {
  const url = path.startsWith('/__mock') ? `${new URL(mock.baseURL).origin}${path}` : `${mock.baseURL}${path}`;
  const headers: Record<string, string> = { authorization: `Bearer ${key}` };
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(url, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: (text ? JSON.parse(text) : undefined) as T };
}

async function question(key: string, title: string, extra: Record<string, unknown> = {}): Promise<Question> {
  const res = await api<Question>(key, 'POST', '/questions', { type: 'binary', title, ...extra });
  expect(res.status).toBe(201);
  return res.body;
}

async function startForecast(key: string, questionId: string): Promise<string> {
  const res = await api<{ id: string; status: string }>(key, 'POST', '/forecasts', { questionId, runMode: 'standard' });
  expect([res.status, res.body.status]).toEqual([202, 'queued']);
  return res.body.id;
}

interface ListItem {
  taskId: string;
  status: string;
}

describe('Retry-After on forecast list pages (docs/testing.md, "Where the spec is silent")', () => {
  const lists = (questionId: string) => [`/forecasts`, `/questions/${questionId}/forecasts`];

  it('is 120 while a listed task runs, 15 while queued, the longest of the page, and absent once all are settled', async () => {
    const a = await question(LISTER, 'Will the Seine flood in June?');
    const taskA = await startForecast(LISTER, a.id);
    for (const path of lists(a.id)) {
      const res = await api<ListBody<ListItem>>(LISTER, 'GET', path);
      expect(res.body.data.map((t) => [t.taskId, t.status])).toEqual([[taskA, 'queued']]);
      expect(res.headers.get('retry-after')).toBe('15');
    }

    // A standard forecast is queued for 1.5 mock minutes, then runs its subforecasts.
    mock.clock.advance(2 * MINUTE);
    const b = await question(LISTER, 'Will the Loire flood in June?');
    const taskB = await startForecast(LISTER, b.id);
    for (const path of lists(a.id)) {
      const res = await api<ListBody<ListItem>>(LISTER, 'GET', path);
      expect(res.status).toBe(200);
      expect(res.body.data.find((t) => t.taskId === taskA)?.status).toBe('running_subforecasts');
      expect(res.headers.get('retry-after')).toBe('120');
    }
    // Task B (queued, 15) and task A (running, 120) on one page: the longest wait.
    const both = await api<ListBody<ListItem>>(LISTER, 'GET', '/forecasts');
    expect(both.body.data.map((t) => t.taskId).sort()).toEqual([taskA, taskB].sort());
    expect(both.headers.get('retry-after')).toBe('120');
    // B's own list shows B alone, still queued.
    expect((await api(LISTER, 'GET', `/questions/${b.id}/forecasts`)).headers.get('retry-after')).toBe('15');

    // Both done, reports written (30 mock minutes, then 2 for the report): nothing to wait for.
    mock.clock.advance(60 * MINUTE);
    for (const path of [...lists(a.id), `/questions/${b.id}/forecasts`]) {
      const res = await api<ListBody<ListItem>>(LISTER, 'GET', path);
      expect(res.body.data.every((t) => t.status === 'completed')).toBe(true);
      expect(res.headers.get('retry-after')).toBeNull();
    }
  });
});

describe('service.reset() (docs/testing.md, "Options")', () => {
  it('clears the rate-limit counts and keeps the clock where it was', async () => {
    mock.service.setRateLimit({ requestsPerMinute: 2 });
    try {
      mock.clock.advance(12_345);
      const before = mock.clock.now();
      expect((await api(LIMITED, 'GET', '/questions')).status).toBe(200);
      expect((await api(LIMITED, 'GET', '/questions')).status).toBe(200);
      const refused = await api<ErrorBody>(LIMITED, 'GET', '/questions');
      expect([refused.status, refused.body.error.type]).toEqual([429, 'rate_limit_error']);
      // The clock has not moved: without the reset the key would stay refused.
      expect((await api(LIMITED, 'GET', '/questions')).status).toBe(429);

      mock.service.reset();
      expect(mock.clock.now()).toBe(before);
      expect((await api(LIMITED, 'GET', '/questions')).status).toBe(200);
      expect(mock.service.requests.length).toBe(1);
    } finally {
      mock.service.setRateLimit(false);
    }
  });
});

describe('the request log of a multipart body (docs/testing.md, "The request log")', () => {
  it('logs an upload as [multipart/form-data, <n> bytes], n the bytes sent', async () => {
    const q = await question(OWNER, 'Will the survey show a majority?');
    const form = new FormData();
    form.append('file', new File(['answer,count\nyes,412\nno,388\n'], 'survey.csv', { type: 'text/csv' }));
    form.append('userNote', 'Raw answers, March wave.');
    // Encode the form once, so the test knows the exact bytes that go over the wire.
    const encoded = new Request('http://encode.invalid/', { method: 'POST', body: form });
    const contentType = encoded.headers.get('content-type')!;
    const bytes = new Uint8Array(await encoded.arrayBuffer());
    expect(contentType).toMatch(/^multipart\/form-data; boundary=/);

    const res = await fetch(`${mock.baseURL}/questions/${q.id}/files`, {
      method: 'POST',
      headers: { authorization: `Bearer ${OWNER}`, 'content-type': contentType },
      body: bytes,
    });
    expect(res.status).toBe(201);
    expect(((await res.json()) as { filename: string }).filename).toBe('survey.csv');

    const entry = mock.service.requests.last({ operation: 'questions.files.upload' });
    expect(entry).toMatchObject({ method: 'POST', status: 201, path: `/questions/${q.id}/files` });
    expect(entry?.body).toBe(`[multipart/form-data, ${bytes.byteLength} bytes]`);
    // The same entry over the control route.
    const logged = await api<{ requests: Array<{ operation?: string; body: unknown }> }>(OWNER, 'GET', '/__mock/requests');
    expect(logged.body.requests.filter((r) => r.operation === 'questions.files.upload').at(-1)?.body).toBe(`[multipart/form-data, ${bytes.byteLength} bytes]`);
  });
});

interface FaultView {
  rule: Record<string, unknown>;
  remaining: number | null;
  hits: number;
}

describe('GET /__mock/faults (docs/cli.md, the control routes)', () => {
  it('lists each active rule as posted, with its hits and what remains', async () => {
    try {
      await listsRules();
    } finally {
      mock.service.faults.clear();
    }
  });

  async function listsRules(): Promise<void> {
    expect((await api<{ faults: FaultView[] }>(OWNER, 'GET', '/__mock/faults')).body).toEqual({ faults: [] });
    const q = await question(OWNER, 'Will the bridge reopen in May?');
    const posted = { operation: 'questions.retrieve', status: 503, retryAfter: 2, times: 3, message: 'bridge closed' };
    const added = await api<FaultView>(OWNER, 'POST', '/__mock/faults', posted);
    expect(added.status).toBe(201);
    expect(added.body).toEqual({ rule: posted, remaining: 3, hits: 0 });
    // `"times": null` over HTTP (JSON has no Infinity): every matching request until removed.
    const forever = await api<FaultView>(OWNER, 'POST', '/__mock/faults', { method: 'GET', path: '/tags', status: 500, times: null });
    expect(forever.body).toEqual({ rule: { method: 'GET', path: '/tags', status: 500, times: null }, remaining: null, hits: 0 });
    expect(mock.service.faults.list().at(-1)?.rule.times).toBe(Infinity);

    const hit = await api<ErrorBody>(OWNER, 'GET', `/questions/${q.id}`);
    expect([hit.status, hit.body.error.message, hit.headers.get('retry-after')]).toEqual([503, 'bridge closed', '2']);
    await api(OWNER, 'GET', '/tags');
    await api(OWNER, 'GET', '/tags');

    const listed = await api<{ faults: FaultView[] }>(OWNER, 'GET', '/__mock/faults');
    expect(listed.status).toBe(200);
    expect(listed.body).toEqual({
      faults: [
        { rule: posted, remaining: 2, hits: 1 },
        // `times: Infinity` has no count left to show: JSON writes it as null, as it was posted.
        { rule: { method: 'GET', path: '/tags', status: 500, times: null }, remaining: null, hits: 2 },
      ],
    });

    // Used up, a rule leaves the list.
    await api(OWNER, 'GET', `/questions/${q.id}`);
    await api(OWNER, 'GET', `/questions/${q.id}`);
    const after = await api<{ faults: FaultView[] }>(OWNER, 'GET', '/__mock/faults');
    expect(after.body.faults.map((f) => f.rule['path'] ?? f.rule['operation'])).toEqual(['/tags']);
    expect((await api(OWNER, 'GET', `/questions/${q.id}`)).status).toBe(200);
  }
});

describe('who may edit a question (docs/testing.md, "Where the spec is silent")', () => {
  it('lets a colleague of the same organization PATCH a question shared with it', async () => {
    const shared = await question(OWNER, 'Will the office move by autumn?', { visibility: 'organization' });
    const res = await api<Question>(COLLEAGUE, 'PATCH', `/questions/${shared.id}`, { description: 'Edited by a colleague.' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: shared.id, description: 'Edited by a colleague.', visibility: 'organization' });
    // The owner reads the colleague's edit.
    expect((await api<Question>(OWNER, 'GET', `/questions/${shared.id}`)).body.description).toBe('Edited by a colleague.');
    expect(mock.service.store.questions.get(shared.id)?.question.description).toBe('Edited by a colleague.');
  });

  it('answers 404 to the colleague for a private question, and to another organization for a shared one', async () => {
    const mine = await question(OWNER, 'Will the office keep its car park?');
    const shared = await question(OWNER, 'Will the office open on Saturdays?', { visibility: 'organization' });
    const colleague = await api<ErrorBody>(COLLEAGUE, 'PATCH', `/questions/${mine.id}`, { description: 'x' });
    expect([colleague.status, colleague.body.error.type]).toEqual([404, 'not_found']);
    const outsider = await api<ErrorBody>(OUTSIDER, 'PATCH', `/questions/${shared.id}`, { description: 'x' });
    expect([outsider.status, outsider.body.error.type]).toEqual([404, 'not_found']);
    expect(mock.service.store.questions.get(shared.id)?.question.description).not.toBe('x');
  });
});
