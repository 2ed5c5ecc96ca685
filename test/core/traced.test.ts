// The operation trace a driver ends itself (`traceCall` with `inline`): the events come in the
// order `tracingChannel.tracePromise` gives them, even when the driver ends before `end` is published.
import diagnostics from 'node:diagnostics_channel';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { OperationMessage, Tracing } from '../../src/core/channels.js';
import { Call } from '../../src/core/pipeline.js';
import { traceCall } from '../../src/core/traced.js';
import type { Received } from '../../src/core/transport.js';

const name = 'forecasting-sdk-test:traced';
const channel = diagnostics.tracingChannel(name) as unknown as Tracing;
const events: Array<[string, Partial<OperationMessage>]> = [];
const record = (event: string) => (message: unknown) => {
  const m = message as OperationMessage;
  events.push([event, { attempts: m.attempts, status: m.status, error: m.error }]);
};
const handlers = { start: record('start'), end: record('end'), asyncStart: record('asyncStart'), asyncEnd: record('asyncEnd'), error: record('error') };
diagnostics.tracingChannel(name).subscribe(handlers);
afterEach(() => void events.splice(0));

const call = (): Call => {
  const c = new Call(undefined, 'GET', '/x', undefined, undefined, {}, undefined);
  c.request = { method: 'GET', path: '/x', query: undefined, body: undefined, headers: Object.freeze({ accept: 'application/json' }) };
  return c;
};
const answer = { response: new Response('{}', { status: 200 }), text: '{}' } as unknown as Received;
/** The pipeline's decode, as the traced call is given it: here the answer's text, parsed. */
const read = (_: Call, received: Received): unknown => JSON.parse(received.text);
/** An attempts' driver that answers `received` after a tick, in one attempt, ending the trace as the pipeline's does. */
const answering =
  (received: Received) =>
  async (x: Call): Promise<Received> => {
    await Promise.resolve();
    x.attempt = 1;
    x.settled?.(received, undefined);
    return received;
  };

describe('an operation trace ended by its driver', () => {
  it('publishes start, end, then asyncStart and asyncEnd with the outcome, once, with no promise of its own', async () => {
    const c = call();
    const running = traceCall(c, channel, 'http://127.0.0.1:1/api/v1/external', answering(answer), read, true);
    expect(events.map(([e]) => e)).toEqual(['start', 'end']);
    await expect(running).resolves.toBe(answer);
    expect(events).toEqual([
      ['start', { attempts: undefined, status: undefined, error: undefined }],
      ['end', { attempts: undefined, status: undefined, error: undefined }],
      ['asyncStart', { attempts: 1, status: 200, error: undefined }],
      ['asyncEnd', { attempts: 1, status: 200, error: undefined }],
    ]);
    expect(c.settled).toBeUndefined();
  });

  it('fails the trace when the answer cannot be decoded, the caller still getting the answer and its decode the same error, once', async () => {
    const broken = { response: new Response('{', { status: 200 }), text: '{' } as unknown as Received;
    let decodes = 0;
    const decode = (c: Call, r: Received) => (decodes++, read(c, r));
    for (const inline of [true, false]) {
      events.length = 0;
      const c = call();
      await expect(traceCall(c, channel, 'http://127.0.0.1:1/api/v1/external', answering(broken), decode, inline)).resolves.toBe(broken);
      await vi.waitFor(() => expect(events.map(([e]) => e)).toEqual(['start', 'end', 'error', 'asyncStart', 'asyncEnd']));
      expect(events.at(-1)![1].error).toBeInstanceOf(SyntaxError);
    }
    // Once per call: the caller's own decode (the pipeline's) reads the answer again.
    expect(decodes).toBe(2);
  });

  it('keeps that order when the driver fails before end is published, and publishes error with it', async () => {
    const c = call();
    const failure = Object.assign(new Error('refused'), { status: 503 });
    const run = (x: Call): Promise<Received> => {
      x.attempt = 1;
      x.settled?.(undefined, failure);
      // A second end is ignored: the trace ends once.
      x.settled?.(answer, undefined);
      return Promise.reject(failure);
    };
    const running = traceCall(c, channel, 'http://127.0.0.1:1/api/v1/external', run, read, true);
    await expect(running).rejects.toBe(failure);
    expect(events.map(([e, m]) => [e, m.status, m.error])).toEqual([
      ['start', undefined, undefined],
      ['end', undefined, undefined],
      ['error', 503, failure],
      ['asyncStart', 503, failure],
      ['asyncEnd', 503, failure],
    ]);
  });

  it('ends the trace once even when the run throws before it could (not an async driver)', async () => {
    const failure = new Error('thrown at once');
    const running = traceCall(call(), channel, 'http://127.0.0.1:1/api/v1/external', () => {
      throw failure;
    }, read, true);
    await expect(running).rejects.toBe(failure);
    expect(events.map(([e, m]) => [e, m.error])).toEqual([
      ['start', undefined],
      ['end', undefined],
      ['error', failure],
      ['asyncStart', failure],
      ['asyncEnd', failure],
    ]);
  });

  it('sends the call as it is when a subscriber made the headers a getter that throws', async () => {
    const trap = (message: unknown) =>
      void Object.defineProperty(message, 'headers', {
        get() {
          throw new Error('no headers for you');
        },
      });
    diagnostics.tracingChannel(name).subscribe({ start: trap } as never);
    try {
      const c = call();
      const before = c.request;
      const running = traceCall(c, channel, 'http://127.0.0.1:1/api/v1/external', async (x) => {
        expect(x.request).toBe(before);
        x.settled?.(answer, undefined);
        return answer;
      }, read, true);
      await expect(running).resolves.toBe(answer);
      expect(events.map(([e]) => e)).toEqual(['start', 'end', 'asyncStart', 'asyncEnd']);
    } finally {
      diagnostics.tracingChannel(name).unsubscribe({ start: trap } as never);
    }
  });

  it('sends what a subscriber added in start under the client’s own headers, the request keeping its fields', async () => {
    const c = call();
    const add = (message: unknown) => void ((message as OperationMessage).headers['traceparent'] = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01');
    diagnostics.tracingChannel(name).subscribe({ start: add } as never);
    try {
      let sent: Call['request'] | undefined;
      await traceCall(c, channel, 'http://127.0.0.1:1/api/v1/external', async (x) => {
        sent = x.request;
        x.settled?.(answer, undefined);
        return answer;
      }, read, true);
      expect(sent).toEqual({ method: 'GET', path: '/x', query: undefined, body: undefined, headers: { traceparent: '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01', accept: 'application/json' } });
      expect(Object.keys(sent!.headers)).toEqual(['traceparent', 'accept']);
    } finally {
      diagnostics.tracingChannel(name).unsubscribe({ start: add } as never);
    }
  });
});

describe('a traced call’s answer, read ahead', () => {
  it('is parsed once: the caller gets what the trace read, with or without validateResponses', async () => {
    const { makeClient, question } = await import('./helpers.js');
    const text = JSON.stringify(question('q1'));
    const subscriber = { start() {}, end() {}, asyncStart() {}, asyncEnd() {}, error() {} };
    diagnostics.tracingChannel('forecasting-sdk:operation').subscribe(subscriber);
    const parse = vi.spyOn(JSON, 'parse');
    try {
      for (const validateResponses of [false, true]) {
        parse.mockClear();
        const client = makeClient({ validateResponses, fetch: async () => new Response(text, { headers: { 'content-type': 'application/json' } }) });
        const got = await client.questions.retrieve('q1');
        expect(got.id).toBe('q1');
        expect(parse.mock.calls.filter(([t]) => t === text)).toHaveLength(1);
      }
    } finally {
      parse.mockRestore();
      diagnostics.tracingChannel('forecasting-sdk:operation').unsubscribe(subscriber);
    }
  });
});
