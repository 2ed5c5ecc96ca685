// The request pipeline: prepare once, then each attempt's steps in their declared order (budget,
// events, transport), retried by the retry policy, and decode when the data is awaited.
import { http, HttpResponse } from 'msw';
import { EventEmitter } from 'eventemitter3';
import { describe, expect, it } from 'vitest';
import { leveled } from '../../src/core/logger.js';
import { MAX_TIMER_MS, resolveOptions } from '../../src/core/options.js';
import { attemptTimeout, Call, chain, Pipeline, type AttemptStep, type PipelineEnv, type PipelineSteps } from '../../src/core/pipeline.js';
import { decodeStep, prepareStep, transportStep, type ClientEvents } from '../../src/core/pipeline-steps.js';
import { APIPromise } from '../../src/core/api-promise.js';
import { Transport, type Received } from '../../src/core/transport.js';
import { BASE, fakeClock, KEY, makeClient, question, useMswServer } from './helpers.js';

const { server, seen } = useMswServer();

function env(): PipelineEnv {
  const options = resolveOptions({ apiKey: KEY, baseURL: BASE, retryBackoff: { initialDelay: 0, maxDelay: 0 }, clock: fakeClock() });
  return { options, log: leveled(console, 'off'), events: new EventEmitter<ClientEvents>(), apiPathMissing: false };
}

/** A step that writes its name and the attempt into `log`, then hands the call on. */
function recording(name: string, log: string[]): AttemptStep {
  return (call, next) => {
    log.push(`${name} ${call.attempt}`);
    return next(call);
  };
}

function steps(log: string[], attempt: AttemptStep[], prepare = prepareStep({ accept: 'application/json' }, {})): PipelineSteps {
  const decode = decodeStep(undefined);
  return {
    prepare: (call) => {
      log.push('prepare');
      return prepare(call);
    },
    attempt,
    decode: (call, received) => {
      log.push('decode');
      return decode(call, received);
    },
  };
}

/** Runs a generic call of `method` to `path` and awaits its data, as a client method would. */
function perform(pipeline: Pipeline, call: Call): Promise<unknown> {
  return new APIPromise(pipeline.send(call), (r) => pipeline.decode(call, r));
}

const answered = (text: string): Received => ({ response: new Response(text, { status: 200 }), text, request: 'GET /x' });

describe('the request pipeline', () => {
  it('prepares once, runs the attempt steps in their declared order on every attempt, and decodes last', async () => {
    const log: string[] = [];
    let answers = 0;
    server.use(
      http.get(`${BASE}/x`, () => {
        log.push('transport');
        return ++answers === 1 ? new HttpResponse(null, { status: 503 }) : HttpResponse.json({ ok: true });
      }),
    );
    const transport = transportStep(new Transport(BASE, undefined));
    const pipeline = new Pipeline(env(), steps(log, [recording('budget', log), recording('events', log), transport]));
    const data = await perform(pipeline, new Call(undefined, 'GET', '/x', undefined, undefined, {}, undefined));
    expect(data).toEqual({ ok: true });
    expect(log).toEqual(['prepare', 'budget 1', 'events 1', 'transport', 'budget 2', 'events 2', 'transport', 'decode']);
  });

  it('lets a step answer by itself: the steps after it and the transport are skipped', async () => {
    const log: string[] = [];
    const answer: AttemptStep = async () => answered('{"from":"step"}');
    const never = recording('never', log);
    const pipeline = new Pipeline(env(), steps(log, [recording('first', log), answer, never, transportStep(new Transport(BASE, undefined))]));
    const data = await perform(pipeline, new Call(undefined, 'GET', '/x', undefined, undefined, {}, undefined));
    expect(data).toEqual({ from: 'step' });
    expect(log).toEqual(['prepare', 'first 1', 'decode']);
    expect(seen).toHaveLength(0);
  });

  it('ends the call, without a retry, on a step error that is not a failed attempt', async () => {
    const log: string[] = [];
    const refuse: AttemptStep = () => Promise.reject(new Error('no slot'));
    const pipeline = new Pipeline(env(), steps(log, [recording('first', log), refuse]));
    await expect(perform(pipeline, new Call(undefined, 'GET', '/x', undefined, undefined, {}, undefined))).rejects.toThrow('no slot');
    expect(log).toEqual(['prepare', 'first 1']);
  });

  it('rejects, never throws, when the prepare step refuses the call, and runs no attempt', async () => {
    const log: string[] = [];
    const pipeline = new Pipeline(env(), {
      ...steps(log, [recording('first', log)]),
      prepare: () => {
        throw new Error('bad body');
      },
    });
    const sent = pipeline.send(new Call(undefined, 'GET', '/x', undefined, undefined, {}, undefined));
    await expect(sent).rejects.toThrow('bad body');
    expect(log).toEqual([]);
  });

  it('judges a POST repeatable by the key the call carries, whatever the headers say, where the operation reads a key', async () => {
    let answers = 0;
    server.use(http.post(`${BASE}/x`, () => (++answers === 1 ? new HttpResponse(null, { status: 500 }) : HttpResponse.json({ ok: true }))));
    // A prepare step that does not send the key: the retry still follows the call's own key.
    const prepare = prepareStep({ accept: 'application/json' }, {});
    const keyless = (call: Call) => {
      const { 'idempotency-key': _key, ...headers } = prepare(call).headers;
      return { ...prepare(call), headers };
    };
    const declaredAt = (method: string, path: string) => (method === 'POST' && path === '/x' ? { idempotent: true } : undefined);
    const pipeline = new Pipeline({ ...env(), declaredAt }, steps([], [transportStep(new Transport(BASE, undefined))], keyless));
    const keyed = new Call(undefined, 'POST', '/x', undefined, { a: 1 }, {}, 'job-42');
    expect(await perform(pipeline, keyed)).toEqual({ ok: true });
    expect(seen.map((r) => r.headers.get('idempotency-key'))).toEqual([null, null]);

    answers = 0;
    const unkeyed = new Call(undefined, 'POST', '/x', undefined, { a: 1 }, {}, undefined);
    await expect(perform(pipeline, unkeyed)).rejects.toMatchObject({ status: 500 });
  });

  // The service ignores the header on all but four operations: a key there would not keep a retry
  // from creating a second question (`client.post('/questions', { idempotencyKey })` did).
  it('does not retry a sent POST whose key the operation ignores, or one at a path no operation declares', async () => {
    server.use(http.post(`${BASE}/:any`, () => new HttpResponse(null, { status: 500 })));
    const declaredAt = (_method: string, path: string) => (path === '/questions' ? {} : undefined);
    const pipeline = new Pipeline({ ...env(), declaredAt }, steps([], [transportStep(new Transport(BASE, undefined))]));
    for (const path of ['/questions', '/elsewhere']) {
      await expect(perform(pipeline, new Call(undefined, 'POST', path, undefined, { a: 1 }, {}, 'job-42'))).rejects.toMatchObject({ status: 500 });
    }
    expect(seen).toHaveLength(2);
  });

  it('retries a sent POST the spec says is safe to repeat (a cancel), with no key', async () => {
    let answers = 0;
    server.use(http.post(`${BASE}/c`, () => (++answers === 1 ? new HttpResponse(null, { status: 500 }) : HttpResponse.json({ ok: true }))));
    const pipeline = new Pipeline({ ...env(), declaredAt: () => ({ repeatable: true }) }, steps([], [transportStep(new Transport(BASE, undefined))]));
    expect(await perform(pipeline, new Call(undefined, 'POST', '/c', undefined, undefined, {}, undefined))).toEqual({ ok: true });
    expect(seen).toHaveLength(2);
  });

  it('complains when the last step hands the call on instead of answering', async () => {
    const pipeline = new Pipeline(env(), steps([], [(call, next) => next(call)]));
    await expect(perform(pipeline, new Call(undefined, 'GET', '/x', undefined, undefined, {}, undefined))).rejects.toThrow('the last step of an attempt must answer');
  });

  it('composes the steps once into one function that runs them in order', async () => {
    const log: string[] = [];
    const run = chain([recording('a', log), recording('b', log), async () => answered('')]);
    const call = new Call(undefined, 'GET', '/x', undefined, undefined, {}, undefined);
    call.attempt = 3;
    await run(call);
    expect(log).toEqual(['a 3', 'b 3']);
  });
});

describe("the client's pipeline", () => {
  it('takes a budget slot before the request event, and emits the response event after the server answered', async () => {
    const log: string[] = [];
    const clock = fakeClock(1_000_000);
    const sleep = clock.sleep;
    clock.sleep = (ms, signal) => {
      log.push(`budget waits ${ms} ms`);
      return sleep(ms, signal);
    };
    server.use(
      http.get(`${BASE}/questions/q1`, () => {
        log.push('server');
        return HttpResponse.json(question('q1'));
      }),
    );
    const client = makeClient({ clock, rateLimit: { requestsPerMinute: 1 } });
    client.on('request', (e) => log.push(`request ${e.operation} ${e.attempt}`));
    client.on('response', (e) => log.push(`response ${e.status}`));
    await client.questions.retrieve('q1');
    await client.questions.retrieve('q1');
    expect(log).toEqual([
      'request questions.retrieve 1',
      'server',
      'response 200',
      'budget waits 60250 ms',
      'request questions.retrieve 1',
      'server',
      'response 200',
    ]);
  });

  it('names a generic request by its verb, and sends the key the call carries', async () => {
    server.use(http.post(`${BASE}/anything`, () => HttpResponse.json({ ok: true })));
    const client = makeClient();
    const events: unknown[] = [];
    client.on('request', (e) => events.push(e));
    await client.post('/anything', { body: {}, idempotencyKey: 'job-7' });
    expect(events).toEqual([{ operation: 'post', method: 'POST', path: '/anything', attempt: 1, idempotencyKey: 'job-7' }]);
    expect(seen[0]!.headers.get('idempotency-key')).toBe('job-7');
  });
});

describe("a long wait's attempt timeout", () => {
  it('is the timeout as is without a deadline', () => {
    expect(attemptTimeout(60_000, undefined, 0)).toBe(60_000);
    expect(attemptTimeout(0, undefined, 0)).toBe(0);
  });

  it('is at most the time left before the deadline, and at least a second', () => {
    expect(attemptTimeout(60_000, 5_000, 0)).toBe(5_000);
    expect(attemptTimeout(3_000, 5_000, 0)).toBe(3_000);
    expect(attemptTimeout(60_000, 500, 0)).toBe(1_000);
    expect(attemptTimeout(60_000, 1_000, 5_000)).toBe(1_000);
  });

  it('is the time left when the timeout is off (0), within what one timer holds', () => {
    expect(attemptTimeout(0, 5_000, 0)).toBe(5_000);
    expect(attemptTimeout(0, 1e12, 0)).toBe(MAX_TIMER_MS);
  });
});

describe('a new call', () => {
  it('has made no attempt, sent nothing, and reads no list unless told', () => {
    const call = new Call(undefined, 'GET', '/questions', undefined, undefined, {}, undefined);
    expect([call.attempt, call.timeout, call.sent, call.list]).toEqual([0, 0, false, false]);
    expect(new Call(undefined, 'GET', '/questions', undefined, undefined, {}, undefined, true).list).toBe(true);
  });
});
