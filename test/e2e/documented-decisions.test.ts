// What docs/decisions.md promises and no other test pins down, checked claim by claim: the SDK
// against the mock service over real HTTP on 127.0.0.1, on the mock's manual clock.
import { describe, expect, it } from 'vitest';
import {
  ConflictError,
  DecisionConflictError,
  NotFoundError,
  RateLimitError,
} from '../../src/index.js';
import { GENERATION_MS, LINK_DRAFT_MS, forecastDataFor } from '../../src/testing/index.js';
import { DECISIONS } from '../../src/testing/models/decision.js';
import { KEYS, binary, date, discrete, numeric, useForecastMock } from './_forecasts.js';
import { decisionWithQuestions, office } from './_decisions.js';

const h = useForecastMock();

const rejection = (promise: PromiseLike<unknown>) => Promise.resolve(promise).then(() => undefined, (e: unknown) => e);

describe('the mock drafts on its clock (decisions.md, Testing with the mock)', () => {
  it('writes three binary drafts, one per option in turn, only once GENERATION_MS has passed', async () => {
    const three = await h.client.decisions.create({ title: 'Which supplier?', options: ['Acme', 'Globex', 'Initech'] });
    const two = await h.client.decisions.create(office);
    h.mock.clock.advance(GENERATION_MS - 1);
    for (const id of [three.id, two.id]) {
      const early = await h.client.decisions.retrieve(id);
      expect(early.generation?.status).toBe('running');
      expect(early.drafts).toEqual([]);
    }
    h.mock.clock.advance(1);
    const a = await h.client.decisions.retrieve(three.id);
    expect(a.generation?.status).toBe('completed');
    expect(a.drafts.map((d) => [d.option, d.question.type])).toEqual([['Acme', 'binary'], ['Globex', 'binary'], ['Initech', 'binary']]);
    expect((await h.client.decisions.retrieve(two.id)).drafts.map((d) => d.option)).toEqual(['Lisbon', 'Berlin', 'Lisbon']);
  });

  it('writes a conditional link only once LINK_DRAFT_MS has passed', async () => {
    const { decision } = await decisionWithQuestions(h.client, 2);
    const [a, b] = decision.nodes;
    const link = await h.client.decisions.links.create(decision.id, { fromNodeId: a!.id, toNodeId: b!.id, kind: 'conditional' });
    h.mock.clock.advance(LINK_DRAFT_MS - 1);
    expect((await h.client.decisions.retrieve(decision.id)).links.find((l) => l.id === link.id)?.status).toBe('drafting');
    h.mock.clock.advance(1);
    expect((await h.client.decisions.retrieve(decision.id)).links.find((l) => l.id === link.id)).toMatchObject({ status: 'ready', statement: expect.any(String) });
  });

  it('keeps every draft when draftIds is left out', async () => {
    const d = await h.client.decisions.create(office);
    h.mock.clock.advance(GENERATION_MS);
    const drafts = (await h.client.decisions.retrieve(d.id)).drafts;
    const kept = await h.client.decisions.drafts.keep(d.id);
    expect(kept.drafts).toEqual([]);
    expect(kept.nodes.map((n) => n.option)).toEqual(drafts.map((x) => x.option));
    const titles = await Promise.all(kept.nodes.map(async (n) => (await h.client.questions.retrieve(n.questionId)).title));
    expect(titles).toEqual(drafts.map((x) => x.question.title));
  });
});

describe('setPrice is read everywhere (decisions.md, Testing with the mock)', () => {
  it('changes what GET /run-modes shows and what a plain forecast is charged', async () => {
    h.mock.service.decisionControls.setPrice('forecast.light', 3);
    const modes = await h.client.runModes.list().toArray();
    expect(modes.find((m) => m.key === 'light')?.credits).toBe(3);
    const before = (await h.client.credits.retrieve()).balance;
    const q = await h.client.questions.create(binary);
    const task = await h.client.forecasts.create({ questionId: q.id, runMode: 'light' });
    expect(task.creditsCharged).toBe(3);
    expect((await h.client.credits.retrieve()).balance).toBe(before - 3);
  });
});

describe('the limit on model calls (decisions.md, Limits and conflicts)', () => {
  it('counts links.update (a failed conditional link written again) among the 10 calls a minute', async () => {
    const client = h.connect({ maxRetries: 0 });
    const { decision } = await decisionWithQuestions(client, 2); // 1 (create)
    const [a, b] = decision.nodes;
    h.mock.service.decisionControls.setLinkOutcome('failed', 'No causal path found');
    const link = await client.decisions.links.create(decision.id, { fromNodeId: a!.id, toNodeId: b!.id, kind: 'conditional' }); // 2
    h.mock.clock.advance(LINK_DRAFT_MS);
    await client.decisions.links.update(decision.id, link.id, { fromNodeId: b!.id, toNodeId: a!.id }); // 3
    for (let i = 0; i < 7; i++) await client.decisions.summary.refresh(decision.id); // 10
    const err = await rejection(client.decisions.summary.refresh(decision.id));
    expect(err).toBeInstanceOf(RateLimitError);
    expect(err).toMatchObject({ status: 429, type: 'rate_limit_error' });
  });

  it('throws RateLimitError at once, without waiting, when the Retry-After is longer than maxRetryAfter', async () => {
    const client = h.connect({ maxRetryAfter: 30_000 });
    for (let i = 0; i < 10; i++) await client.decisions.create({ ...office, title: `D${i}` });
    const started = h.mock.clock.now();
    const err = await rejection(client.decisions.create({ ...office, title: 'D10' }));
    expect(err).toBeInstanceOf(RateLimitError);
    expect((err as RateLimitError).retryAfterMs).toBe(60_000);
    expect(h.mock.clock.now()).toBe(started);
    expect(h.count('decisions.create')).toBe(11);
  });
});

describe('conflicts (decisions.md, Limits and conflicts)', () => {
  it('keeps a 409 invalid_request_error for editing a link that has not failed a plain ConflictError', async () => {
    const { decision } = await decisionWithQuestions(h.client, 2);
    const [a, b] = decision.nodes;
    const related = await h.client.decisions.links.create(decision.id, { fromNodeId: a!.id, toNodeId: b!.id });
    const drafting = await h.client.decisions.links.create(decision.id, { fromNodeId: b!.id, toNodeId: a!.id, kind: 'conditional' });
    for (const link of [related, drafting]) {
      const err = await rejection(h.client.decisions.links.update(decision.id, link.id, { label: 'x' }));
      expect(err, link.kind).toBeInstanceOf(ConflictError);
      expect(err, link.kind).not.toBeInstanceOf(DecisionConflictError);
      expect(err, link.kind).toMatchObject({ status: 409, type: 'invalid_request_error' });
    }
  });
});

describe('idempotent starts (decisions.md, Priced forecasts)', () => {
  it('reuses the generated Idempotency-Key when a start is retried: one batch, charged once, the answer replayed', async () => {
    const { decision } = await decisionWithQuestions(h.client, 2);
    const before = (await h.client.credits.retrieve()).balance;
    h.mock.service.faults.add({ operation: 'decisions.forecasts.create', drop: true, afterHandling: true });
    const { data: run, response } = await h.client.decisions.forecasts.create(decision.id, { runMode: 'light', maxTotalCredits: 2 }).withResponse();
    const sent = h.mock.service.requests.list({ operation: 'decisions.forecasts.create' });
    expect(sent).toHaveLength(2);
    expect(sent[0]!.idempotencyKey).toMatch(/^sdk-/);
    expect(sent[1]!.idempotencyKey).toBe(sent[0]!.idempotencyKey);
    expect(response.headers.get('idempotent-replayed')).toBe('true');
    expect(run.creditsCharged).toBe(2);
    expect((await h.client.credits.retrieve()).balance).toBe(before - 2);
    expect((await h.client.forecasts.list()).data).toHaveLength(2);
  });
});

describe('estimateAndStart (decisions.md, Priced forecasts)', () => {
  it('gives taskIds of the started forecasts only, so a rejected question does not break waitMany', async () => {
    const { decision, questions } = await decisionWithQuestions(h.client, 2);
    const running = await h.client.forecasts.create({ questionId: questions[0]!.id, runMode: 'light' });
    const result = await h.client.decisions.forecasts.estimateAndStart(decision.id, { runMode: 'light' }, { approve: () => true });
    if (!result.approved) throw new Error('expected the start');
    const accepted = result.run.items.filter((i) => i.status === 'accepted').map((i) => i.taskId);
    expect(result.run.items.map((i) => i.status)).toEqual(['rejected', 'accepted']);
    expect(result.taskIds).toEqual(accepted);
    expect(result.taskIds).not.toContain(running.id);
    const tasks = await h.client.forecasts.waitMany(result.taskIds);
    expect(tasks.map((t) => [t.question.id, t.status])).toEqual([[questions[1]!.id, 'completed']]);
  });
});

describe('paging (decisions.md, Paging)', () => {
  it('takes a limit of up to 200 on GET /decisions', async () => {
    await h.client.decisions.create(office);
    expect((await h.client.decisions.list({ limit: 200 })).data).toHaveLength(1);
    expect(h.mock.service.requests.last({ operation: 'decisions.list' })?.path).toBe('/decisions?limit=200');
  });

  it('pages the conditions by cursor', async () => {
    const { decision } = await decisionWithQuestions(h.client, 1);
    const nodeId = decision.nodes[0]!.id;
    const made = [];
    for (const threshold of [0.2, 0.5, 0.8]) made.push(await h.client.decisions.conditions.create(decision.id, { nodeId, operator: 'above', threshold }));
    const first = await h.client.decisions.conditions.list(decision.id, { limit: 2 });
    expect(first.data.map((c) => c.id)).toEqual(made.slice(0, 2).map((c) => c.id));
    expect(first.nextCursor).toEqual(expect.any(String));
    const second = await first.getNextPage();
    expect(second.data.map((c) => c.id)).toEqual([made[2]!.id]);
    expect(h.mock.service.requests.last({ operation: 'decisions.conditions.list' })?.path).toBe(`/decisions/${decision.id}/conditions?limit=2&cursor=${encodeURIComponent(first.nextCursor!)}`);
    expect((await h.client.decisions.conditions.list(decision.id, { limit: 1 }).toArray()).map((c) => c.id)).toEqual(made.map((c) => c.id));
  });
});

describe('conditions (decisions.md, What the records hold)', () => {
  it('triggers once: a later forecast that crosses it again changes nothing until it is armed again', async () => {
    const { decision, questions } = await decisionWithQuestions(h.client, 1);
    const questionId = questions[0]!.id;
    const condition = await h.client.decisions.conditions.create(decision.id, { nodeId: decision.nodes[0]!.id, operator: 'above', threshold: 0 });
    const read = async () => (await h.client.decisions.conditions.list(decision.id)).data.find((c) => c.id === condition.id)!;
    const run = async () => {
      const task = await h.client.forecasts.create({ questionId, runMode: 'light' });
      await h.client.forecasts.waitMany([task.id]);
      return task.id;
    };
    const first = await run();
    const triggered = await read();
    expect(triggered).toMatchObject({ status: 'triggered', triggeredBy: { taskId: first } });
    await run();
    expect(await read()).toEqual(triggered);
    await h.client.decisions.conditions.update(decision.id, condition.id, { armed: true });
    const third = await run();
    expect(await read()).toMatchObject({ status: 'triggered', triggeredBy: { taskId: third } });
  });

  it('compares the median of a numeric, discrete or date forecast', async () => {
    const d = await h.client.decisions.create(office);
    for (const shape of [numeric, discrete, date]) {
      const q = await h.client.questions.create({ ...shape });
      const node = await h.client.decisions.nodes.create(d.id, { questionId: q.id });
      const task = await h.client.forecasts.create({ questionId: q.id, runMode: 'light' });
      const data = forecastDataFor(q, task.id);
      const median = data.questionType === 'binary' || data.questionType === 'multiple_choice' ? NaN : data.payload.percentiles.p50;
      const under = await h.client.decisions.conditions.create(d.id, { nodeId: node.id, operator: 'above', threshold: median - 0.5 });
      const over = await h.client.decisions.conditions.create(d.id, { nodeId: node.id, operator: 'above', threshold: median + 0.5 });
      await h.client.forecasts.waitMany([task.id]);
      const seen = new Map((await h.client.decisions.conditions.list(d.id).toArray()).map((c) => [c.id, c]));
      expect(seen.get(under.id), shape.type).toMatchObject({ status: 'triggered', triggeredBy: { taskId: task.id, value: median } });
      expect(seen.get(over.id)?.status, shape.type).toBe('armed');
    }
  });
});

describe('who sees and edits a decision (decisions.md, What the records hold)', () => {
  it('lets the whole organization of the creating key edit it; another organization gets 404', async () => {
    const d = await h.client.decisions.create(office);
    const colleague = h.connect({ apiKey: KEYS.colleague });
    expect((await colleague.decisions.update(d.id, { title: 'Edited by a colleague' })).title).toBe('Edited by a colleague');
    const note = await colleague.decisions.notes.create(d.id, { text: 'From u2' });
    expect((await h.client.decisions.retrieve(d.id)).notes.map((n) => n.id)).toEqual([note.id]);
    const outsider = h.connect({ apiKey: KEYS.other });
    expect(await rejection(outsider.decisions.update(d.id, { title: 'Hijacked' }))).toBeInstanceOf(NotFoundError);
    expect(await rejection(outsider.decisions.notes.create(d.id, { text: 'x' }))).toBeInstanceOf(NotFoundError);
    expect((await h.client.decisions.retrieve(d.id)).title).toBe('Edited by a colleague');
  });
});

describe('reads are lenient (decisions.md, What the records hold)', () => {
  it('passes unknown fields through and reads unknown enum values, with validateResponses on', async () => {
    const { decision } = await decisionWithQuestions(h.client, 2);
    const [a, b] = decision.nodes;
    await h.client.decisions.links.create(decision.id, { fromNodeId: a!.id, toNodeId: b!.id });
    await h.client.decisions.conditions.create(decision.id, { nodeId: a!.id, operator: 'above', threshold: 0.5 });
    const record = h.mock.service.store.collection(DECISIONS).get(decision.id)!;
    Object.assign(record, { status: 'paused', priority: 'high', generation: { status: 'queued', startedAt: record.createdAt, finishedAt: null } });
    Object.assign(record.links[0]!, { kind: 'causal', status: 'reviewing', weight: 0.4 });
    Object.assign(record.conditions[0]!, { operator: 'near', status: 'snoozed' });
    const client = h.connect({ validateResponses: true });
    const read = await client.decisions.retrieve(decision.id);
    expect(read).toMatchObject({ status: 'paused', priority: 'high', generation: { status: 'queued' } });
    expect(read.links[0]).toMatchObject({ kind: 'causal', status: 'reviewing', weight: 0.4 });
    expect((await client.decisions.conditions.list(decision.id)).data[0]).toMatchObject({ operator: 'near', status: 'snoozed' });
    expect((await client.decisions.list()).data[0]).toMatchObject({ status: 'paused', priority: 'high' });
  });
});
