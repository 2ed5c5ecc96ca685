// Long waits against a mock server that goes down (its port closed, connections refused) and comes
// back on the same port: every wait rides it out without hammering, and is back within 30 s of the
// service. The mock runs on a manual clock that the client's waits move, so a 10-minute outage takes
// milliseconds.
import { afterEach, describe, expect, it } from 'vitest';
import { APIConnectionError, WaitTimeoutError, type ForecastCreateParams } from '../../src/index.js';
import { firstAnswerAfter, startOutageMock, watch, type OutageMock } from './_outage.js';

const binary = (n: number | string) => ({ type: 'binary', title: `Will the service come back, part ${n}?` }) as const;
const SECOND = 1000;
const MINUTE = 60 * SECOND;

let h: OutageMock;
afterEach(() => h?.close());

/** The checks every wait meets: it retried on the retry event, kept its attempts few, and was back within 30 s. */
function expectRodeOut(w: ReturnType<typeof watch>, from: number, ms: number) {
  expect(w.retries.length).toBeGreaterThan(0);
  expect(w.retries.every((e) => e.status === undefined && e.error === 'APIConnectionError')).toBe(true);
  // The backoff doubles from 1 s to 30 s: 6 to 9 attempts in an outage's first minute, at most 4 a minute after.
  expect(w.between(from, from + ms)).toBeLessThanOrEqual(9 + 4 * Math.ceil((ms - MINUTE) / MINUTE));
  const back = firstAnswerAfter(h.service, from + ms);
  expect(back! - (from + ms)).toBeLessThanOrEqual(30 * SECOND);
}

describe('a wait through an outage of the service', () => {
  it('forecasts.wait rides out a minute of refused connections and resolves with the completed task', async () => {
    h = await startOutageMock();
    const client = h.client();
    const q = await client.questions.create(binary(1));
    const task = await client.forecasts.create({ questionId: q.id, runMode: 'light' });
    const from = h.clock.now() + 10 * SECOND; // the read after the queued 15 s falls in it
    h.outage(from, MINUTE);
    const w = watch(client, h.clock);
    const done = await client.forecasts.wait(task.id);
    expect(done.status).toBe('completed');
    expect(w.between(from, from + MINUTE)).toBeGreaterThanOrEqual(5);
    expectRodeOut(w, from, MINUTE);
  });

  it('forecasts.wait rides out ten minutes down, through the forecast’s end, in few attempts', async () => {
    h = await startOutageMock();
    const client = h.client();
    const q = await client.questions.create(binary(2));
    const task = await client.forecasts.create({ questionId: q.id, runMode: 'light' });
    const from = h.clock.now() + 10 * SECOND;
    h.outage(from, 10 * MINUTE);
    const w = watch(client, h.clock);
    await expect(client.forecasts.wait(task.id, { waitForReport: true })).resolves.toMatchObject({ status: 'completed', forecast: { report: { status: 'completed' } } });
    expectRodeOut(w, from, 10 * MINUTE);
    expect(w.between(from, from + 10 * MINUTE)).toBeLessThanOrEqual(45);
  });

  it('a wait whose timeout comes during the outage ends there, with the task id and the connection error as cause', async () => {
    h = await startOutageMock();
    const client = h.client();
    const q = await client.questions.create(binary(3));
    const task = await client.forecasts.create({ questionId: q.id, runMode: 'light' });
    const start = h.clock.now();
    h.outage(start + 10 * SECOND, 10 * MINUTE);
    const err = (await client.forecasts.wait(task.id, { timeout: 2 * MINUTE }).catch((e: unknown) => e)) as WaitTimeoutError;
    expect(err).toBeInstanceOf(WaitTimeoutError);
    expect(err.taskId).toBe(task.id);
    expect(err.cause).toBeInstanceOf(APIConnectionError);
    expect(h.clock.now() - start).toBe(2 * MINUTE);
  });

  it('waitMany rides out a minute down, one list request a round once back', async () => {
    h = await startOutageMock();
    const client = h.client();
    const questions = await Promise.all(Array.from({ length: 20 }, (_, i) => client.questions.create(binary(`many ${i}`))));
    const started = await client.forecasts.createMany(questions.map((q) => ({ questionId: q.id, runMode: 'light' })));
    const from = h.clock.now() + 10 * SECOND;
    h.outage(from, MINUTE);
    const w = watch(client, h.clock);
    const tasks = await client.forecasts.waitMany(started.map((r) => r.taskId!), { full: false });
    expect(tasks.every((t) => t.status === 'completed')).toBe(true);
    expectRodeOut(w, from, MINUTE);
  });

  it('createAndWait starts through the outage with one key, so the forecast starts once', async () => {
    h = await startOutageMock();
    const client = h.client();
    const q = await client.questions.create(binary(4));
    const from = h.clock.now();
    h.outage(from, MINUTE);
    const w = watch(client, h.clock);
    const created: string[] = [];
    const waiting = client.forecasts.createAndWait({ questionId: q.id, runMode: 'light' }, { onCreated: (t) => created.push(t.id) });
    await expect(waiting).resolves.toMatchObject({ status: 'completed' });
    expect(h.service.store.forecasts.list().map((f) => f.id)).toEqual(created);
    expectRodeOut(w, from, MINUTE);
  });

  it('runMany rides out a minute down mid-run: every item completes, none starts twice, never over 50 running', async () => {
    h = await startOutageMock();
    const setup = h.client();
    const ids: string[] = [];
    for (let i = 0; i < 120; i += 40) ids.push(...(await Promise.all(Array.from({ length: 40 }, (_, k) => setup.questions.create(binary(`run ${i + k}`))))).map((q) => q.id));
    const items: ForecastCreateParams[] = ids.map((questionId) => ({ questionId, runMode: 'light' }));
    const client = h.client();
    // The first batches start at once, their first poll comes 15 s later and the next 120 s after that: in the outage.
    const from = h.clock.now() + 130 * SECOND;
    h.outage(from, MINUTE);
    const w = watch(client, h.clock);
    const results = [];
    for await (const r of client.forecasts.runMany(items)) results.push(r);
    expect(results.filter((r) => r.status === 'completed')).toHaveLength(120);
    const perQuestion = new Map<string, number>();
    for (const f of h.service.store.forecasts.list()) perQuestion.set(f.questionId, (perQuestion.get(f.questionId) ?? 0) + 1);
    expect([...perQuestion.values()].every((n) => n === 1)).toBe(true);
    expect(h.service.forecastControls.activity().maxActive).toBeLessThanOrEqual(50);
    expectRodeOut(w, from, MINUTE);
  });

  it('questions.files.waitUntilReady rides out a minute down', async () => {
    h = await startOutageMock();
    const client = h.client();
    const q = await client.questions.create(binary(5));
    await client.questions.files.upload(q.id, { file: Buffer.from('notes'), filename: 'notes.txt' });
    const from = h.clock.now() + 500;
    h.outage(from, MINUTE);
    const w = watch(client, h.clock);
    const files = await client.questions.files.waitUntilReady(q.id);
    expect(files.map((f) => f.status)).toEqual(['ready']);
    expectRodeOut(w, from, MINUTE);
  });
});
