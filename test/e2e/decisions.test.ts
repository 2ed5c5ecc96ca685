// The Decisions group end to end: the SDK against the mock service over real HTTP on 127.0.0.1.
import { afterEach, describe, expect, it, type RunnerTask } from 'vitest';
import {
  BadRequestError,
  ConflictError,
  DecisionConflictError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
  ValidationError,
  operations,
} from '../../src/index.js';
import { GENERATION_MS, LINK_DRAFT_MS, PRICES, forecastDataFor } from '../../src/testing/index.js';
import { KEYS, MINUTE, binary, multipleChoice, useForecastMock } from './_forecasts.js';
import { decisionWithQuestions, office } from './_decisions.js';

const h = useForecastMock();

// Every decision operation must answer 2xx over HTTP somewhere in this suite (checked last).
const succeeded = new Set<string>();
afterEach(() => {
  for (const r of h.mock.service.requests.list()) if (r.operation?.startsWith('decisions') && r.status !== null && r.status < 300) succeeded.add(r.operation);
});

/** A raw request to the mock with the `all` key. */
const raw = (method: string, path: string, body?: unknown) =>
  fetch(`${h.mock.baseURL}${path}`, {
    method,
    headers: { authorization: `Bearer ${KEYS.all}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });

const rejection = (promise: PromiseLike<unknown>) => Promise.resolve(promise).then(() => undefined, (e: unknown) => e);

describe('decisions: create, read, edit, list', () => {
  it('creates a decision among its options (201), drafting questions at once, and reads it back', async () => {
    const { data: decision, response } = await h.client.decisions.create({ ...office, description: 'Twelve people, 2027' }).withResponse();
    expect(response.status).toBe(201);
    expect(decision).toMatchObject({
      title: office.title,
      description: 'Twelve people, 2027',
      options: ['Lisbon', 'Berlin'],
      status: 'active',
      live: false,
      following: false,
      generation: { status: 'running', finishedAt: null },
      nodes: [],
      links: [],
      notes: [],
      drafts: [],
    });
    expect(await h.client.decisions.retrieve(decision.id)).toEqual(decision);
    expect(h.mock.service.requests.last({ operation: 'decisions.create' })?.idempotencyKey).toMatch(/^sdk-/);
  });

  it('refuses fewer than 2, more than 4 or repeated options with ValidationError on options, sending nothing', async () => {
    const d = await h.client.decisions.create(office);
    for (const options of [['Lisbon'], [], ['a', 'b', 'c', 'd', 'e'], ['Lisbon', 'Lisbon']]) {
      for (const send of [() => h.client.decisions.create({ ...office, options }), () => h.client.decisions.update(d.id, { options })]) {
        const err = await rejection(send());
        expect(err, JSON.stringify(options)).toBeInstanceOf(ValidationError);
        expect((err as ValidationError).field).toBe('options');
      }
    }
    expect(await rejection(h.client.decisions.create({ title: '', options: ['a', 'b'] }))).toMatchObject({ field: 'title' });
    expect(h.count('decisions.create')).toBe(1);
    expect(h.count('decisions.update')).toBe(0);
    // Four options are fine.
    expect((await h.client.decisions.update(d.id, { options: ['a', 'b', 'c', 'd'] })).options).toHaveLength(4);
  });

  it('the mock refuses the same options from a raw request with 400 naming options', async () => {
    const d = await h.client.decisions.create(office);
    for (const [method, path] of [['POST', '/decisions'], ['PATCH', `/decisions/${d.id}`]] as const) {
      for (const options of [['only'], ['a', 'b', 'c', 'd', 'e'], ['a', 'a']]) {
        const res = await raw(method, path, { ...office, options });
        expect(res.status, `${method} ${JSON.stringify(options)}`).toBe(400);
        const body = (await res.json()) as { error: { type: string; message: string } };
        expect(body.error.type).toBe('invalid_request_error');
        expect(body.error.message).toMatch(/^options: must (hold 2 to 4|be distinct)/);
      }
    }
    expect((await h.client.decisions.retrieve(d.id)).options).toEqual(office.options);
  });

  it('pages GET /decisions by limit and offset; the iterator walks every page, newest first', async () => {
    for (let i = 0; i < 5; i++) await h.client.decisions.create({ ...office, title: `Decision ${i}` });
    const first = await h.client.decisions.list({ limit: 2 });
    expect(first.data.map((d) => d.title)).toEqual(['Decision 4', 'Decision 3']);
    expect(first.hasMore).toBe(true);
    const second = await first.getNextPage();
    expect(second.data.map((d) => d.title)).toEqual(['Decision 2', 'Decision 1']);
    const all: string[] = [];
    for await (const d of h.client.decisions.list({ limit: 2 })) all.push(d.title);
    expect(all).toEqual(['Decision 4', 'Decision 3', 'Decision 2', 'Decision 1', 'Decision 0']);
    const paths = h.mock.service.requests.list({ operation: 'decisions.list' }).map((r) => r.path);
    expect(paths.slice(-3)).toEqual(['/decisions?limit=2', '/decisions?limit=2&offset=2', '/decisions?limit=2&offset=4']);
    // Without a limit, every page asks for the spec's default of 50.
    expect((await h.client.decisions.list()).data).toHaveLength(5);
    expect(h.mock.service.requests.last({ operation: 'decisions.list' })?.path).toBe('/decisions?limit=50');
    expect(await rejection(h.client.decisions.list({ limit: 201 }))).toMatchObject({ field: 'limit' });
  });

  it('filters the list by status', async () => {
    const kept = await h.client.decisions.create({ ...office, title: 'Kept' });
    const shelved = await h.client.decisions.create({ ...office, title: 'Shelved' });
    await h.client.decisions.archive(shelved.id);
    expect((await h.client.decisions.list({ status: 'archived' }).toArray()).map((d) => d.id)).toEqual([shelved.id]);
    expect((await h.client.decisions.list({ status: 'active' }).toArray()).map((d) => d.id)).toEqual([kept.id]);
  });

  it('edits only the fields sent; a question on a removed option keeps no option', async () => {
    const { decision } = await decisionWithQuestions(h.client, 2);
    const edited = await h.client.decisions.update(decision.id, { options: ['Berlin', 'Stay put'], description: 'Budget 2 M€' });
    expect(edited).toMatchObject({ title: office.title, options: ['Berlin', 'Stay put'], description: 'Budget 2 M€' });
    expect(edited.nodes.map((n) => n.option)).toEqual([null, 'Berlin']);
    expect(Date.parse(edited.updatedAt)).toBeGreaterThanOrEqual(Date.parse(decision.updatedAt));
  });

  it('shows a decision to its organization and answers 404 to another', async () => {
    const d = await h.client.decisions.create(office);
    expect((await h.connect({ apiKey: KEYS.colleague }).decisions.retrieve(d.id)).id).toBe(d.id);
    const outsider = h.connect({ apiKey: KEYS.other });
    expect(await rejection(outsider.decisions.retrieve(d.id))).toBeInstanceOf(NotFoundError);
    expect((await outsider.decisions.list()).data).toEqual([]);
    expect(await rejection(h.connect({ apiKey: KEYS.reader }).decisions.create(office))).toBeInstanceOf(PermissionDeniedError);
  });
});

describe('idempotency', () => {
  it('replays POST /decisions with the same Idempotency-Key: one decision, Idempotent-Replayed: true', async () => {
    const first = await h.client.decisions.create(office, { idempotencyKey: 'decision-42' }).withResponse();
    const again = await h.client.decisions.create(office, { idempotencyKey: 'decision-42' }).withResponse();
    expect(again.data.id).toBe(first.data.id);
    expect(again.response.headers.get('idempotent-replayed')).toBe('true');
    expect(first.response.headers.get('idempotent-replayed')).toBeNull();
    expect((await h.client.decisions.list()).data).toHaveLength(1);
    // The same key with another body is refused.
    expect(await rejection(h.client.decisions.create({ ...office, title: 'Other' }, { idempotencyKey: 'decision-42' }))).toBeInstanceOf(BadRequestError);
  });

  it('reuses its generated key when a dropped connection is retried, so one decision is created', async () => {
    h.mock.service.faults.add({ operation: 'decisions.create', drop: true, afterHandling: true });
    const decision = await h.client.decisions.create(office);
    const sent = h.mock.service.requests.list({ operation: 'decisions.create' });
    expect(sent).toHaveLength(2);
    expect(sent[1]!.idempotencyKey).toBe(sent[0]!.idempotencyKey);
    expect((await h.client.decisions.list()).data.map((d) => d.id)).toEqual([decision.id]);
  });

  it('replays POST /decisions/{decision_id}/forecasts: the forecasts start and are charged once', async () => {
    const { decision } = await decisionWithQuestions(h.client, 2);
    const before = (await h.client.credits.retrieve()).balance;
    const body = { runMode: 'light', maxTotalCredits: 2 } as const;
    const first = await h.client.decisions.forecasts.create(decision.id, body, { idempotencyKey: 'run-1' }).withResponse();
    const again = await h.client.decisions.forecasts.create(decision.id, body, { idempotencyKey: 'run-1' }).withResponse();
    expect(first.response.status).toBe(202);
    expect(again.response.headers.get('idempotent-replayed')).toBe('true');
    expect(again.data).toEqual(first.data);
    expect((await h.client.credits.retrieve()).balance).toBe(before - 2);
    expect((await h.client.forecasts.list()).data).toHaveLength(2);
  });
});

describe('drafting questions', () => {
  it('drafts three questions over a minute of mock time; a second generate meanwhile answers 409 generation_in_progress', async () => {
    const d = await h.client.decisions.create(office);
    const busy = await rejection(h.client.decisions.generate(d.id));
    expect(busy).toBeInstanceOf(DecisionConflictError);
    expect(busy).toMatchObject({ status: 409, type: 'generation_in_progress' });

    h.mock.clock.advance(GENERATION_MS);
    const drafted = await h.client.decisions.retrieve(d.id);
    expect(drafted.generation).toMatchObject({ status: 'completed', finishedAt: expect.any(String) });
    expect(drafted.drafts).toHaveLength(3);
    expect(drafted.drafts[0]).toMatchObject({ question: { type: 'binary', title: expect.stringContaining('Lisbon') }, option: 'Lisbon', rationale: expect.any(String) });

    const { data: again, response } = await h.client.decisions.generate(d.id, { guidance: 'Costs over five years' }).withResponse();
    expect(response.status).toBe(202);
    expect(again.generation?.status).toBe('running');
    h.mock.clock.advance(GENERATION_MS);
    const more = await h.client.decisions.retrieve(d.id);
    expect(more.drafts).toHaveLength(6);
    expect(more.drafts[5]!.question.description).toContain('Costs over five years');
    expect(new Set(more.drafts.map((x) => x.question.title)).size).toBe(6);
  });

  it('edits a draft one by one; the question type rules hold on the result', async () => {
    const d = await h.client.decisions.create(office);
    h.mock.clock.advance(GENERATION_MS);
    const [draft] = (await h.client.decisions.retrieve(d.id)).drafts;
    const edited = await h.client.decisions.drafts.update(d.id, draft!.id, { title: 'Will Lisbon office rents fall in 2027?' });
    expect(edited).toMatchObject({ id: draft!.id, question: { type: 'binary', title: 'Will Lisbon office rents fall in 2027?' } });
    const err = await rejection(h.client.decisions.drafts.update(d.id, draft!.id, { options: ['Yes', 'No'] }));
    expect(err).toBeInstanceOf(BadRequestError);
    expect((err as BadRequestError).message).toMatch(/options/);
    expect(await rejection(h.client.decisions.drafts.update(d.id, 'no-such-draft', { title: 'x' }))).toBeInstanceOf(NotFoundError);
  });

  it('keeps drafts as questions put on the decision, and discards the rest', async () => {
    const d = await h.client.decisions.create(office);
    h.mock.clock.advance(GENERATION_MS);
    const [a, b] = (await h.client.decisions.retrieve(d.id)).drafts;
    const kept = await h.client.decisions.drafts.keep(d.id, { draftIds: [a!.id] });
    expect(kept.nodes).toHaveLength(1);
    expect(kept.nodes[0]).toMatchObject({ option: a!.option });
    expect((await h.client.questions.retrieve(kept.nodes[0]!.questionId)).title).toBe(a!.question.title);
    expect(kept.drafts.map((x) => x.id)).not.toContain(a!.id);

    const missing = await rejection(h.client.decisions.drafts.keep(d.id, { draftIds: ['nope'] }));
    expect(missing).toBeInstanceOf(NotFoundError);
    expect((missing as NotFoundError).message).toMatch(/draftIds\.0/);

    const discarded = await h.client.decisions.drafts.discard(d.id, { draftIds: [b!.id] });
    expect(discarded.drafts).toHaveLength(1);
    expect((await h.client.decisions.drafts.discard(d.id)).drafts).toEqual([]);
    expect((await h.client.decisions.retrieve(d.id)).nodes).toHaveLength(1);
  });
});

describe('nodes and links', () => {
  it('puts questions on the decision, refuses a second time, an unknown option or question, and takes one off with its links and conditions', async () => {
    const { decision, questions } = await decisionWithQuestions(h.client, 2);
    const [a, b] = decision.nodes;
    expect(a).toMatchObject({ questionId: questions[0]!.id, option: 'Lisbon' });

    const twice = await rejection(h.client.decisions.nodes.create(decision.id, { questionId: questions[0]!.id }));
    expect(twice).toBeInstanceOf(ConflictError);
    expect(twice).not.toBeInstanceOf(DecisionConflictError);
    const q3 = await h.client.questions.create({ ...binary, title: 'Third?' });
    expect(await rejection(h.client.decisions.nodes.create(decision.id, { questionId: q3.id, option: 'Paris' }))).toMatchObject({ status: 400, message: expect.stringMatching(/option: must be one of/) });
    expect(await rejection(h.client.decisions.nodes.create(decision.id, { questionId: 'no-such-question' }))).toBeInstanceOf(NotFoundError);
    const { data: third, response } = await h.client.decisions.nodes.create(decision.id, { questionId: q3.id }).withResponse();
    expect(response.status).toBe(201);
    expect(third.option).toBeNull();

    await h.client.decisions.links.create(decision.id, { fromNodeId: a!.id, toNodeId: b!.id });
    await h.client.decisions.links.create(decision.id, { fromNodeId: b!.id, toNodeId: third.id });
    await h.client.decisions.conditions.create(decision.id, { nodeId: a!.id, operator: 'above', threshold: 0.5 });
    const { response: gone } = await h.client.decisions.nodes.delete(decision.id, a!.id).withResponse();
    expect(gone.status).toBe(204);
    const after = await h.client.decisions.retrieve(decision.id);
    expect(after.nodes.map((n) => n.id)).toEqual([b!.id, third.id]);
    expect(after.links.map((l) => [l.fromNodeId, l.toNodeId])).toEqual([[b!.id, third.id]]);
    expect((await h.client.decisions.conditions.list(decision.id)).data).toEqual([]);
    expect(await rejection(h.client.decisions.nodes.delete(decision.id, a!.id))).toBeInstanceOf(NotFoundError);
  });

  it('links two questions (a related link is ready at once), refuses a link to itself before sending, and removes a link', async () => {
    const { decision } = await decisionWithQuestions(h.client, 2);
    const [a, b] = decision.nodes;
    const link = await h.client.decisions.links.create(decision.id, { fromNodeId: a!.id, toNodeId: b!.id, label: 'drives' });
    expect(link).toMatchObject({ kind: 'related', status: 'ready', label: 'drives', statement: null });
    expect(await rejection(h.client.decisions.links.create(decision.id, { fromNodeId: a!.id, toNodeId: a!.id }))).toMatchObject({ field: 'toNodeId' });
    expect(await rejection(h.client.decisions.links.create(decision.id, { fromNodeId: a!.id, toNodeId: 'nope' }))).toBeInstanceOf(NotFoundError);
    expect(h.count('decisions.links.create')).toBe(2);
    // Only a failed conditional link can be edited.
    expect(await rejection(h.client.decisions.links.update(decision.id, link.id, { label: 'x' }))).toMatchObject({ status: 409, type: 'invalid_request_error' });
    await h.client.decisions.links.delete(decision.id, link.id);
    expect((await h.client.decisions.retrieve(decision.id)).links).toEqual([]);
  });

  it('writes a conditional link over mock time; a failed one can be edited and is written again', async () => {
    const { decision, questions } = await decisionWithQuestions(h.client, 3);
    const [a, b, c] = decision.nodes;
    h.mock.service.decisionControls.setLinkOutcome('failed', 'No causal path found');
    const link = await h.client.decisions.links.create(decision.id, { fromNodeId: a!.id, toNodeId: b!.id, kind: 'conditional' });
    expect(link).toMatchObject({ kind: 'conditional', status: 'drafting', statement: null });
    h.mock.clock.advance(LINK_DRAFT_MS);
    const failed = (await h.client.decisions.retrieve(decision.id)).links[0];
    expect(failed).toMatchObject({ status: 'failed', error: { message: 'No causal path found' } });

    h.mock.service.decisionControls.setLinkOutcome('ready');
    const edited = await h.client.decisions.links.update(decision.id, link.id, { toNodeId: c!.id, label: 'if so' });
    expect(edited).toMatchObject({ status: 'drafting', toNodeId: c!.id, label: 'if so', error: null });
    h.mock.clock.advance(LINK_DRAFT_MS);
    const ready = (await h.client.decisions.retrieve(decision.id)).links[0];
    expect(ready).toMatchObject({ status: 'ready', statement: `If "${questions[0]!.title}" resolves YES: ${questions[2]!.title}` });
  });
});

describe('notes and comments', () => {
  it('adds, edits and removes notes, shown on the decision', async () => {
    const d = await h.client.decisions.create(office);
    const note = await h.client.decisions.notes.create(d.id, { text: 'Board meets on 3 March.' });
    const edited = await h.client.decisions.notes.update(d.id, note.id, { text: 'Board meets on 10 March.' });
    expect(edited).toMatchObject({ id: note.id, text: 'Board meets on 10 March.' });
    expect((await h.client.decisions.retrieve(d.id)).notes).toEqual([edited]);
    expect(await rejection(h.client.decisions.notes.update(d.id, note.id, { text: '' }))).toMatchObject({ field: 'text' });
    await h.client.decisions.notes.delete(d.id, note.id);
    expect((await h.client.decisions.retrieve(d.id)).notes).toEqual([]);
    expect(await rejection(h.client.decisions.notes.delete(d.id, note.id))).toBeInstanceOf(NotFoundError);
  });

  it('lists comments oldest first by cursor; only the author may edit or delete one', async () => {
    const d = await h.client.decisions.create(office);
    const colleague = h.connect({ apiKey: KEYS.colleague });
    const mine = await h.client.decisions.comments.create(d.id, { text: 'Lisbon looks cheaper.' });
    await colleague.decisions.comments.create(d.id, { text: 'Berlin has the talent.' });
    await h.client.decisions.comments.create(d.id, { text: 'Both have direct flights.' });
    const page = await h.client.decisions.comments.list(d.id, { limit: 2 });
    expect(page.data.map((c) => c.text)).toEqual(['Lisbon looks cheaper.', 'Berlin has the talent.']);
    expect(page.nextCursor).toEqual(expect.any(String));
    expect((await h.client.decisions.comments.list(d.id, { limit: 2 }).toArray()).map((c) => c.authorId)).toEqual(['u1', 'u2', 'u1']);

    expect(await rejection(colleague.decisions.comments.update(d.id, mine.id, { text: 'Hijacked' }))).toBeInstanceOf(PermissionDeniedError);
    expect(await rejection(colleague.decisions.comments.delete(d.id, mine.id))).toBeInstanceOf(PermissionDeniedError);
    expect((await h.client.decisions.comments.update(d.id, mine.id, { text: 'Lisbon looks cheaper, see the note.' })).text).toBe('Lisbon looks cheaper, see the note.');
    await h.client.decisions.comments.delete(d.id, mine.id);
    expect((await h.client.decisions.comments.list(d.id)).data).toHaveLength(2);
  });
});

describe('conditions', () => {
  it('triggers a condition when a forecast completed on its question crosses it, and arms it again', async () => {
    const { decision, questions } = await decisionWithQuestions(h.client, 1);
    const node = decision.nodes[0]!;
    const task = await h.client.forecasts.create({ questionId: questions[0]!.id, runMode: 'light' });
    const data = forecastDataFor(await h.client.questions.retrieve(questions[0]!.id), task.id);
    const p = data.questionType === 'binary' ? data.payload.probability : NaN;
    const crossed = await h.client.decisions.conditions.create(decision.id, { nodeId: node.id, operator: 'above', threshold: p - 0.01, label: 'Go' });
    const notYet = await h.client.decisions.conditions.create(decision.id, { nodeId: node.id, operator: 'above', threshold: p + 0.01 });
    const below = await h.client.decisions.conditions.create(decision.id, { nodeId: node.id, operator: 'below', threshold: p + 0.01 });
    expect(crossed).toMatchObject({ status: 'armed', triggeredAt: null, label: 'Go' });

    await h.client.forecasts.waitMany([task.id]);
    const byId = new Map((await h.client.decisions.conditions.list(decision.id).toArray()).map((c) => [c.id, c]));
    expect(byId.get(crossed.id)).toMatchObject({ status: 'triggered', triggeredAt: expect.any(String), triggeredBy: { taskId: task.id, value: p } });
    expect(byId.get(notYet.id)).toMatchObject({ status: 'armed', triggeredAt: null });
    expect(byId.get(below.id)).toMatchObject({ status: 'triggered' });

    const rearmed = await h.client.decisions.conditions.update(decision.id, crossed.id, { armed: true, threshold: 0.99 });
    expect(rearmed).toMatchObject({ status: 'armed', threshold: 0.99, triggeredAt: null, triggeredBy: null });
    expect((await h.client.decisions.conditions.update(decision.id, notYet.id, { armed: false })).status).toBe('disarmed');
    // A disarmed or unmet condition stays as it is when the next forecast completes.
    const next = await h.client.forecasts.create({ questionId: questions[0]!.id, runMode: 'light' });
    await h.client.forecasts.waitMany([next.id]);
    const later = new Map((await h.client.decisions.conditions.list(decision.id).toArray()).map((c) => [c.id, c.status]));
    expect(later.get(notYet.id)).toBe('disarmed');
    const value = (forecastDataFor(await h.client.questions.retrieve(questions[0]!.id), next.id).payload as { probability: number }).probability;
    expect(later.get(crossed.id)).toBe(value > 0.99 ? 'triggered' : 'armed');

    await h.client.decisions.conditions.delete(decision.id, notYet.id);
    expect((await h.client.decisions.conditions.list(decision.id)).data.map((c) => c.id)).not.toContain(notYet.id);
  });

  it('compares the probability of an option on a multiple choice question, which needs one', async () => {
    const d = await h.client.decisions.create(office);
    const q = await h.client.questions.create({ ...multipleChoice, options: [...multipleChoice.options] });
    const node = await h.client.decisions.nodes.create(d.id, { questionId: q.id });
    const err = await rejection(h.client.decisions.conditions.create(d.id, { nodeId: node.id, operator: 'above', threshold: 0.3 }));
    expect(err).toBeInstanceOf(BadRequestError);
    expect((err as BadRequestError).message).toMatch(/^400 invalid_request_error: option: must be one of the question's options: Red, Blue, Green/);
    const condition = await h.client.decisions.conditions.create(d.id, { nodeId: node.id, operator: 'above', threshold: 0, option: 'Blue' });
    const task = await h.client.forecasts.create({ questionId: q.id, runMode: 'light' });
    await h.client.forecasts.waitMany([task.id]);
    const [seen] = (await h.client.decisions.conditions.list(d.id)).data;
    expect(seen).toMatchObject({ id: condition.id, status: 'triggered', option: 'Blue' });
    expect(seen!.triggeredBy?.value).toBe((forecastDataFor(q, task.id).payload as { probabilities: Record<string, number> }).probabilities['Blue']);
    expect(await rejection(h.client.decisions.conditions.create(d.id, { nodeId: 'nope', operator: 'below', threshold: 1 }))).toBeInstanceOf(NotFoundError);
    expect(await rejection(h.client.decisions.conditions.create(d.id, { nodeId: node.id, operator: 'near' as never, threshold: 1 }))).toMatchObject({ field: 'operator' });
  });
});

describe('summary, live mode and following', () => {
  it('writes a new summary when refreshed after new forecasts, and says it is stale until then', async () => {
    const { decision, questions } = await decisionWithQuestions(h.client, 2);
    const initial = await h.client.decisions.summary.retrieve(decision.id);
    expect(initial).toMatchObject({ text: "No forecasts on this decision's questions yet.", recommendation: null, stale: false, forecasts: [] });

    const run = await h.client.decisions.forecasts.create(decision.id, { runMode: 'light', maxTotalCredits: 2 });
    await h.client.forecasts.waitMany(run.items.map((i) => i.taskId!));
    const stale = await h.client.decisions.summary.retrieve(decision.id);
    expect(stale).toMatchObject({ text: initial.text, stale: true });

    const fresh = await h.client.decisions.summary.refresh(decision.id);
    expect(fresh.stale).toBe(false);
    expect(fresh.text).not.toBe(initial.text);
    for (const q of questions) expect(fresh.text).toContain(q.title);
    expect(fresh.forecasts.map((f) => f.questionId).sort()).toEqual(questions.map((q) => q.id).sort());
    // Each option has one binary question on it: the likelier one is recommended.
    const [lisbon, berlin] = questions.map((q) => fresh.forecasts.find((f) => f.questionId === q.id)!.value);
    expect(fresh.recommendation).toBe(lisbon! >= berlin! ? 'Lisbon' : 'Berlin');
    expect(await h.client.decisions.summary.retrieve(decision.id)).toEqual(fresh);
  });

  it('in live mode, each forecast completed on its questions rewrites the summary', async () => {
    const { decision, questions } = await decisionWithQuestions(h.client, 1);
    expect(await rejection(h.connect({ apiKey: KEYS.reader }).decisions.setLive(decision.id, { enabled: true }))).toBeInstanceOf(PermissionDeniedError);
    expect((await h.client.decisions.setLive(decision.id, { enabled: true })).live).toBe(true);
    const task = await h.client.forecasts.create({ questionId: questions[0]!.id, runMode: 'light' });
    await h.client.forecasts.waitMany([task.id]);
    const summary = await h.client.decisions.summary.retrieve(decision.id);
    expect(summary).toMatchObject({ stale: false, forecasts: [{ questionId: questions[0]!.id, taskId: task.id }] });
    expect(summary.text).toContain(questions[0]!.title);
    expect(h.count('decisions.summary.refresh')).toBe(0);

    expect((await h.client.decisions.setLive(decision.id, { enabled: false })).live).toBe(false);
    const next = await h.client.forecasts.create({ questionId: questions[0]!.id, runMode: 'light' });
    await h.client.forecasts.waitMany([next.id]);
    expect(await h.client.decisions.summary.retrieve(decision.id)).toMatchObject({ stale: true, forecasts: [{ taskId: task.id }] });
  });

  it('follows and unfollows, for the caller only', async () => {
    const d = await h.client.decisions.create(office);
    expect((await h.client.decisions.setFollowing(d.id, { following: true })).following).toBe(true);
    const colleague = h.connect({ apiKey: KEYS.colleague });
    expect((await colleague.decisions.retrieve(d.id)).following).toBe(false);
    expect((await colleague.decisions.setFollowing(d.id, { following: true })).following).toBe(true);
    expect((await h.client.decisions.setFollowing(d.id, { following: false })).following).toBe(false);
    expect((await colleague.decisions.retrieve(d.id)).following).toBe(true);
  });
});

describe('archive', () => {
  it('answers 409 decision_archived to every write while archived, and takes writes again once unarchived', async () => {
    const { decision } = await decisionWithQuestions(h.client, 2);
    const id = decision.id;
    const [a, b] = decision.nodes;
    const link = await h.client.decisions.links.create(id, { fromNodeId: a!.id, toNodeId: b!.id });
    const note = await h.client.decisions.notes.create(id, { text: 'n' });
    const comment = await h.client.decisions.comments.create(id, { text: 'c' });
    const condition = await h.client.decisions.conditions.create(id, { nodeId: a!.id, operator: 'above', threshold: 0.5 });
    h.mock.clock.advance(GENERATION_MS);
    const draftId = (await h.client.decisions.retrieve(id)).drafts[0]!.id;

    const { data: archived } = await h.client.decisions.archive(id).withResponse();
    expect(archived).toMatchObject({ status: 'archived', archivedAt: expect.any(String) });
    expect((await h.client.decisions.archive(id)).status).toBe('archived'); // archiving again is harmless

    const d = h.client.decisions;
    const writes: Array<[string, () => PromiseLike<unknown>]> = [
      ['update', () => d.update(id, { title: 'x' })],
      ['generate', () => d.generate(id)],
      ['setLive', () => d.setLive(id, { enabled: true })],
      ['setFollowing', () => d.setFollowing(id, { following: true })],
      ['drafts.update', () => d.drafts.update(id, draftId, { title: 'x' })],
      ['drafts.discard', () => d.drafts.discard(id)],
      ['drafts.keep', () => d.drafts.keep(id)],
      ['forecasts.create', () => d.forecasts.create(id, { maxTotalCredits: 100 })],
      ['nodes.create', () => d.nodes.create(id, { questionId: 'q' })],
      ['nodes.delete', () => d.nodes.delete(id, a!.id)],
      ['links.create', () => d.links.create(id, { fromNodeId: a!.id, toNodeId: b!.id })],
      ['links.update', () => d.links.update(id, link.id, { label: 'x' })],
      ['links.delete', () => d.links.delete(id, link.id)],
      ['notes.create', () => d.notes.create(id, { text: 'x' })],
      ['notes.update', () => d.notes.update(id, note.id, { text: 'x' })],
      ['notes.delete', () => d.notes.delete(id, note.id)],
      ['comments.create', () => d.comments.create(id, { text: 'x' })],
      ['comments.update', () => d.comments.update(id, comment.id, { text: 'x' })],
      ['comments.delete', () => d.comments.delete(id, comment.id)],
      ['conditions.create', () => d.conditions.create(id, { nodeId: a!.id, operator: 'below', threshold: 0.1 })],
      ['conditions.update', () => d.conditions.update(id, condition.id, { armed: false })],
      ['conditions.delete', () => d.conditions.delete(id, condition.id)],
      ['summary.refresh', () => d.summary.refresh(id)],
    ];
    for (const [name, write] of writes) {
      const err = await rejection(write());
      expect(err, name).toBeInstanceOf(DecisionConflictError);
      expect(err, name).toMatchObject({ status: 409, type: 'decision_archived' });
    }
    // Nothing changed, and reads still answer.
    expect(await d.retrieve(id)).toEqual(archived);
    expect((await d.comments.list(id)).data).toHaveLength(1);
    expect((await d.conditions.list(id)).data).toHaveLength(1);
    await d.summary.retrieve(id);
    await d.forecasts.estimate(id);

    expect((await d.unarchive(id)).status).toBe('active');
    expect((await d.update(id, { title: 'Reopened' })).title).toBe('Reopened');
  });
});

describe('priced forecasts', () => {
  it('prices a batch and starts it with the approved total, charging exactly that', async () => {
    const { decision, questions } = await decisionWithQuestions(h.client, 2);
    const before = (await h.client.credits.retrieve()).balance;
    const estimate = await h.client.decisions.forecasts.estimate(decision.id, { runMode: 'standard' });
    expect(estimate).toEqual({
      totalCredits: 2 * PRICES['forecast.standard']!,
      runMode: 'standard',
      balance: before,
      items: questions.map((q) => ({ questionId: q.id, credits: PRICES['forecast.standard'] })),
    });
    // One question only, in the default run mode.
    expect((await h.client.decisions.forecasts.estimate(decision.id, { questionIds: [questions[1]!.id] })).items).toEqual([{ questionId: questions[1]!.id, credits: PRICES['forecast.standard'] }]);

    const { data: run, response } = await h.client.decisions.forecasts.create(decision.id, { runMode: 'standard', maxTotalCredits: estimate.totalCredits }).withResponse();
    expect(response.status).toBe(202);
    expect(run.creditsCharged).toBe(estimate.totalCredits);
    expect(run.items.map((i) => [i.questionId, i.status])).toEqual(questions.map((q) => [q.id, 'accepted']));
    expect((await h.client.credits.retrieve()).balance).toBe(before - estimate.totalCredits);
    const tasks = await h.client.forecasts.waitMany(run.items.map((i) => i.taskId!));
    expect(tasks.map((t) => [t.question.id, t.status, t.runMode])).toEqual(questions.map((q) => [q.id, 'completed', 'standard']));
  });

  it('refuses a start whose price rose above maxTotalCredits, charging nothing', async () => {
    const { decision } = await decisionWithQuestions(h.client, 2);
    const before = (await h.client.credits.retrieve()).balance;
    const err = await rejection(
      h.client.decisions.forecasts.estimateAndStart(decision.id, { runMode: 'light' }, {
        approve: (estimate) => {
          expect(estimate.totalCredits).toBe(2);
          h.mock.service.decisionControls.setPrice('forecast.light', 3); // the price rises before the start
          return true;
        },
      }),
    );
    expect(err).toBeInstanceOf(DecisionConflictError);
    expect(err).toMatchObject({ status: 409, type: 'max_total_credits_exceeded', extras: { totalCredits: 6, maxTotalCredits: 2 } });
    expect((err as DecisionConflictError).message).toMatch(/maxTotalCredits/);
    const credits = await h.client.credits.retrieve();
    expect(credits.balance).toBe(before);
    expect(credits.prices).toContainEqual({ key: 'forecast.light', credits: 3 });
    expect((await h.client.forecasts.list()).data).toEqual([]);
    // Approved again at the new price, it starts.
    const result = await h.client.decisions.forecasts.estimateAndStart(decision.id, { runMode: 'light' }, { approve: () => true });
    expect(result).toMatchObject({ approved: true, run: { creditsCharged: 6 } });
  });

  it('refuses a start when the credits are short with 409 invalid_request_error, charging nothing', async () => {
    const { decision } = await decisionWithQuestions(h.client, 2);
    h.mock.service.forecastControls.setCredits({ balance: PRICES['forecast.light']! });
    const err = await rejection(h.client.decisions.forecasts.create(decision.id, { runMode: 'light', maxTotalCredits: 2 }));
    expect(err).toBeInstanceOf(ConflictError);
    expect(err).not.toBeInstanceOf(DecisionConflictError);
    expect(err).toMatchObject({ status: 409, type: 'invalid_request_error', message: expect.stringMatching(/nothing was charged/) });
    expect((await h.client.credits.retrieve()).balance).toBe(PRICES['forecast.light']);
    expect((await h.client.forecasts.list()).data).toEqual([]);
  });

  it('estimateAndStart: declining starts nothing; approving resolves the run and its task ids for waitMany', async () => {
    const { decision } = await decisionWithQuestions(h.client, 2);
    for (const approve of [() => false, async () => false, () => 'yes' as never]) {
      const declined = await h.client.decisions.forecasts.estimateAndStart(decision.id, { runMode: 'light' }, { approve });
      expect(declined).toEqual({ approved: false, estimate: expect.objectContaining({ totalCredits: 2 }) });
    }
    expect(h.count('decisions.forecasts.create')).toBe(0);
    expect(await rejection(h.client.decisions.forecasts.estimateAndStart(decision.id, {}, {} as never))).toMatchObject({ field: 'approve' });
    expect(await rejection(h.client.decisions.forecasts.estimateAndStart(decision.id, { runMode: 'ultra' as never }, { approve: () => true }))).toMatchObject({ field: 'runMode' });

    const seen: number[] = [];
    const result = await h.client.decisions.forecasts.estimateAndStart(decision.id, { runMode: 'light' }, {
      approve: async (estimate) => {
        seen.push(estimate.totalCredits);
        return estimate.totalCredits <= estimate.balance;
      },
    });
    expect(seen).toEqual([2]);
    if (!result.approved) throw new Error('expected the start');
    expect(h.mock.service.requests.last({ operation: 'decisions.forecasts.create' })?.body).toMatchObject({ runMode: 'light', maxTotalCredits: 2 });
    expect(result.taskIds).toHaveLength(2);
    const tasks = await h.client.forecasts.waitMany(result.taskIds);
    expect(tasks.every((t) => t.status === 'completed')).toBe(true);
  });

  it('rejects alone, at no cost, a question that already has a forecast running; refuses a question not on the decision', async () => {
    const { decision, questions } = await decisionWithQuestions(h.client, 2);
    const running = await h.client.forecasts.create({ questionId: questions[0]!.id, runMode: 'light' });
    const before = (await h.client.credits.retrieve()).balance;
    const run = await h.client.decisions.forecasts.create(decision.id, { runMode: 'light', maxTotalCredits: 2 });
    expect(run.creditsCharged).toBe(1);
    expect(run.items[0]).toMatchObject({ questionId: questions[0]!.id, status: 'rejected', error: { type: 'forecast_already_running' } });
    expect(run.items[1]).toMatchObject({ status: 'accepted', taskId: expect.any(String) });
    expect((await h.client.credits.retrieve()).balance).toBe(before - 1);
    expect(running.status).toBe('queued');

    const stranger = await h.client.questions.create({ ...binary, title: 'Not on it?' });
    const err = await rejection(h.client.decisions.forecasts.estimate(decision.id, { questionIds: [stranger.id] }));
    expect(err).toBeInstanceOf(BadRequestError);
    expect((err as BadRequestError).message).toMatch(/questionIds\.0/);
    const empty = await h.client.decisions.create(office);
    expect(await rejection(h.client.decisions.forecasts.estimate(empty.id))).toMatchObject({ status: 400, message: expect.stringMatching(/questionIds/) });
  });
});

describe('the limit on model calls', () => {
  it('shares 10 calls a minute per key across create, generate, keep, conditional links and refresh; the 11th answers 429 with Retry-After', async () => {
    const client = h.connect({ maxRetries: 0 });
    const { decision } = await decisionWithQuestions(client, 2); // 1 call (create)
    const [a, b] = decision.nodes;
    h.mock.clock.advance(MINUTE); // a new window; the drafts are written
    const [draft] = (await client.decisions.retrieve(decision.id)).drafts;
    await client.decisions.drafts.keep(decision.id, { draftIds: [draft!.id] }); // 1
    await client.decisions.generate(decision.id); // 2
    for (let i = 0; i < 3; i++) await client.decisions.summary.refresh(decision.id); // 5
    await client.decisions.links.create(decision.id, { fromNodeId: a!.id, toNodeId: b!.id, kind: 'conditional' }); // 6
    await client.decisions.links.create(decision.id, { fromNodeId: b!.id, toNodeId: a!.id }); // a related link uses no model
    for (let i = 0; i < 4; i++) await client.decisions.create(office); // 10
    // Calls that use no model still pass.
    await client.decisions.notes.create(decision.id, { text: 'still fine' });
    const err = await rejection(client.decisions.summary.refresh(decision.id));
    expect(err).toBeInstanceOf(RateLimitError);
    expect(err).toMatchObject({ status: 429, type: 'rate_limit_error', retryAfterMs: 60_000 });
    expect((err as RateLimitError).message).toMatch(/10 decision model calls per minute/);
    expect(await rejection(client.decisions.create(office))).toBeInstanceOf(RateLimitError);
    // Per key: a colleague's own key is not limited.
    await h.connect({ apiKey: KEYS.colleague }).decisions.summary.refresh(decision.id);
  });

  it('the SDK waits out the Retry-After and the 11th call succeeds', async () => {
    for (let i = 0; i < 10; i++) await h.client.decisions.create({ ...office, title: `D${i}` });
    const retries: number[] = [];
    h.client.on('retry', (e) => retries.push(e.delayMs));
    const started = h.mock.clock.now();
    const eleventh = await h.client.decisions.create({ ...office, title: 'D10' });
    expect(eleventh.title).toBe('D10');
    expect(retries).toEqual([60_000]);
    expect(h.mock.clock.now() - started).toBeGreaterThanOrEqual(MINUTE);
    expect(h.mock.service.requests.list({ operation: 'decisions.create' }).map((r) => r.status)).toEqual([...Array(10).fill(201), 429, 201]);
  });
});

describe('record shapes', () => {
  it('every answer of the mock passes the record schemas (validateResponses)', async () => {
    const client = h.connect({ validateResponses: true });
    const { decision, questions } = await decisionWithQuestions(client, 2);
    const [a, b] = decision.nodes;
    h.mock.clock.advance(GENERATION_MS);
    const [draft] = (await client.decisions.list()).data[0]!.drafts;
    await client.decisions.drafts.update(decision.id, draft!.id, { description: 'Edited' });
    await client.decisions.drafts.keep(decision.id, { draftIds: [draft!.id] });
    await client.decisions.links.create(decision.id, { fromNodeId: a!.id, toNodeId: b!.id, kind: 'conditional', label: 'if' });
    h.mock.clock.advance(LINK_DRAFT_MS);
    await client.decisions.notes.create(decision.id, { text: 'n' });
    await client.decisions.comments.create(decision.id, { text: 'c' });
    await client.decisions.conditions.create(decision.id, { nodeId: a!.id, operator: 'below', threshold: 1 });
    const estimate = await client.decisions.forecasts.estimate(decision.id, { questionIds: [questions[0]!.id], runMode: 'light' });
    const run = await client.decisions.forecasts.create(decision.id, { questionIds: [questions[0]!.id], runMode: 'light', maxTotalCredits: estimate.totalCredits });
    await client.forecasts.waitMany(run.items.map((i) => i.taskId!));
    await client.decisions.summary.refresh(decision.id);
    await client.decisions.summary.retrieve(decision.id);
    const [condition] = (await client.decisions.conditions.list(decision.id)).data;
    expect(condition).toMatchObject({ status: 'triggered', triggeredBy: { taskId: run.items[0]!.taskId } });
    await client.decisions.comments.list(decision.id);
    const final = await client.decisions.retrieve(decision.id);
    expect(final.links[0]).toMatchObject({ status: 'ready', statement: expect.stringContaining('If ') });
    await client.decisions.archive(decision.id);
  });
});

describe('every decision operation', () => {
  it('is declared with the spec’s path and scope, and answered 2xx over HTTP in this suite', (ctx) => {
    const declared = operations.filter((o) => o.sdkMethod.startsWith('decisions'));
    expect(declared).toHaveLength(32);
    expect(declared.every((o) => o.path.startsWith('/decisions'))).toBe(true);
    // Only meaningful when the whole file ran (not under a -t filter).
    const tests = (t: RunnerTask): RunnerTask[] => ('tasks' in t ? t.tasks.flatMap(tests) : [t]);
    if (tests(ctx.task.file).some((t) => t !== ctx.task && t.mode !== 'run')) ctx.skip();
    expect(declared.map((o) => o.sdkMethod).filter((m) => !succeeded.has(m))).toEqual([]);
  });
});
