// The small pure pieces of the core, tested directly: validation messages, files for uploads, the
// real-time sleep, the request budget's window, and reading bodies.
import * as z from 'zod/mini';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { RequestBudget } from '../../src/core/request-budget.js';
import { testClock } from '../redis/_clock.js';
import { sleep } from '../../src/core/clock.js';
import { decodeBody, parseBody, type Received } from '../../src/core/transport.js';
import { toMultipart } from '../../src/core/uploads.js';
import { parseOrThrow } from '../../src/core/validate.js';
import { InvalidResponseError, toFile, ValidationError, type ClientClock } from '../../src/index.js';

/** The multipart body `toMultipart` builds, read back as a form (a refusal becomes a rejection). */
async function toFormData(params: Record<string, unknown>): Promise<FormData> {
  const { body, type } = toMultipart(params);
  return new Response(body, { headers: { 'content-type': type } }).formData();
}

afterEach(() => {
  vi.useRealTimers();
});

/** The issues parseOrThrow reports for `value`, as `field: message`. */
function issues(schema: z.ZodMiniType, value: unknown, prefix?: string): string[] {
  try {
    parseOrThrow(schema, value, prefix);
  } catch (err) {
    expect(err).toBeInstanceOf(ValidationError);
    return (err as ValidationError).issues.map((i) => `${i.field}: ${i.message}`);
  }
  throw new Error('expected a ValidationError');
}

describe('validation messages', () => {
  it('words each kind of issue for a reader', () => {
    const schema = z.strictObject({
      title: z.string(),
      kind: z.enum(['binary', 'numeric']),
      url: z.url(),
      step: z.number().check(z.multipleOf(5)),
      count: z.int(),
      items: z.array(z.string()).check(z.maxLength(1)),
      name: z.string().check(z.minLength(3)),
      tags: z.array(z.string()).check(z.minLength(1)),
      limit: z.number().check(z.maximum(10)),
      id: z.string(),
      list: z.array(z.number()),
      nested: z.object({ a: z.string() }),
    });
    expect(
      issues(schema, {
        kind: 'other',
        url: 'not a url',
        step: 7,
        count: 1.5,
        items: ['a', 'b'],
        name: 'ab',
        tags: [],
        limit: 11,
        id: null,
        list: {},
        nested: [],
        extra: 1,
      }),
    ).toEqual([
      'title: is required',
      'kind: must be one of "binary", "numeric"',
      'url: must be a valid url',
      'step: must be a multiple of 5',
      'count: must be a whole number, got 1.5',
      'items: must hold at most 1',
      'name: must be at least 3 characters',
      'tags: must hold at least 1',
      'limit: must be at most 10',
      'id: must be a string, got null',
      'list: must be an array, got object',
      'nested: must be an object, got an array',
      ': unknown key(s) extra',
    ]);
  });

  it('says a field left out is required first, then what it takes (its own words, or the values)', () => {
    const schema = z.object({
      scale: z.enum(['linear', 'logarithmic'], { error: 'numeric questions need linear or logarithmic' }),
      bound: z.number({ error: 'must be a number' }),
      kind: z.enum(['a', 'b']),
      title: z.string(),
    });
    expect(issues(schema, {})).toEqual(['scale: is required (numeric questions need linear or logarithmic)', 'bound: is required (a number)', 'kind: is required (one of "a", "b")', 'title: is required']);
    // Given, and wrong: the schema's own words, as before.
    expect(issues(schema, { scale: 'cubic', bound: 'x', kind: 'c', title: 't' })).toEqual(['scale: numeric questions need linear or logarithmic', 'bound: must be a number', 'kind: must be one of "a", "b"']);
  });

  it('keeps a message the schema words itself, and says "is invalid" otherwise', () => {
    expect(issues(z.string().check(z.refine((s) => s.length > 2, 'too short to read')), 'ab')).toEqual([': too short to read']);
    // An empty string is named as such, not "at least 1 characters".
    expect(issues(z.object({ questionId: z.string().check(z.minLength(1)) }), { questionId: '' })).toEqual(['questionId: must not be empty']);
    expect(issues(z.string().check(z.refine(() => false)), 'ab')).toEqual([': is invalid']);
  });

  it('prefixes every field, and names the input as a whole by the prefix alone', () => {
    expect(issues(z.object({ a: z.string() }), { a: 1 }, 'response')).toEqual(['response.a: must be a string, got number']);
    expect(issues(z.string(), 1, 'response')).toEqual(['response: must be a string, got number']);
  });

  it('reports the branch of a union the input was meant for: the one missing fewest fields', () => {
    const schema = z.union([z.object({ kind: z.literal('a'), x: z.string() }), z.object({ kind: z.literal('b'), y: z.number(), z: z.number() })]);
    expect(issues(schema, { kind: 'b', y: 'one', z: 2 })).toEqual(['y: must be a number, got string']);
    expect(issues(schema, { kind: 'a', x: 1 })).toEqual(['x: must be a string, got number']);
    expect(issues(schema, { kind: 'a' })).toEqual(['x: is required']);
    // The discriminator left out is any branch's: every branch's values are named.
    expect(issues(z.object({ v: schema }), { v: { y: 1 } }, 'body')).toEqual(['body.v.kind: is required (one of "a", "b")', 'body.v.x: is required']);
  });

  it('breaks a tie on missing fields by the fewest issues', () => {
    const schema = z.union([z.object({ a: z.string(), b: z.string() }), z.object({ c: z.number() })]);
    expect(issues(schema, { a: 1 })).toEqual(['c: is required']);
  });

  it('reads the value at a path that crosses a non-object as absent', () => {
    expect(issues(z.object({ a: z.object({ b: z.string() }) }), { a: 5 })).toEqual(['a: must be an object, got number']);
    expect(issues(z.object({ a: z.object({ b: z.string() }) }), { a: null })).toEqual(['a: must be an object, got null']);
  });

  it('writes "an" before a vowel', () => {
    expect(issues(z.object({ n: z.array(z.string()), o: z.object({}) }), { n: 1, o: 1 })).toEqual(['n: must be an array, got number', 'o: must be an object, got number']);
  });

  it('returns the parsed value when it is valid', () => {
    expect(parseOrThrow(z.object({ a: z.string() }), { a: 'x', b: 1 })).toEqual({ a: 'x' });
  });

  it('joins the issues in the message, with the first one on the error', () => {
    const err = new ValidationError([
      { field: 'a', message: 'is required' },
      { field: '', message: 'is invalid' },
    ]);
    expect(err.message).toBe('a: is required; is invalid');
    expect(err.field).toBe('a');
    expect(new ValidationError([]).field).toBe('');
    expect(new ValidationError('bad').issues).toEqual([{ field: '', message: 'bad' }]);
  });
});

describe('files for uploads', () => {
  it('returns a File as it is when its name is kept and no type is given', async () => {
    const file = new File(['x'], 'a.txt', { type: 'text/plain' });
    expect(await toFile(file, 'a.txt')).toBe(file);
    const renamed = await toFile(file, 'b.txt');
    expect([renamed.name, renamed.type, await renamed.text()]).toEqual(['b.txt', 'text/plain', 'x']);
    const retyped = await toFile(file, 'a.txt', { type: 'text/markdown' });
    expect(retyped).not.toBe(file);
    expect(retyped.type).toBe('text/markdown');
  });

  it('makes a File of bytes, an ArrayBuffer, a Blob or a stream, with no type unless given', async () => {
    const bytes = new TextEncoder().encode('hello');
    const cases: Array<[Parameters<typeof toFile>[0], string]> = [
      [bytes, ''],
      [bytes.buffer, ''],
      [new Blob(['hello'], { type: 'text/plain' }), 'text/plain'],
      [new Blob(['hello']).stream(), ''],
      [(async function* () { yield bytes.subarray(0, 2); yield bytes.subarray(2); })(), ''],
    ];
    for (const [data, type] of cases) {
      const file = await toFile(data, 'h.txt');
      expect([file.name, file.type, await file.text()]).toEqual(['h.txt', type, 'hello']);
    }
    expect((await toFile(bytes, 'h.pdf', { type: 'application/pdf' })).type).toBe('application/pdf');
  });

  it('builds the form: the file, text fields, objects as JSON, nothing for undefined', async () => {
    const form = await toFormData({ file: new File(['x'], 'a.txt'), filename: 'named.txt', treatment: 'consider', n: 3, meta: { a: 1 }, none: null, skip: undefined });
    expect((form.get('file') as File).name).toBe('named.txt');
    expect([...form.keys()]).toEqual(['treatment', 'n', 'meta', 'none', 'file']);
    expect([form.get('treatment'), form.get('n'), form.get('meta'), form.get('none')]).toEqual(['consider', '3', '{"a":1}', 'null']);
    expect(((await toFormData({ file: new File(['x'], 'own.txt') })).get('file') as File).name).toBe('own.txt');
  });

  it.each([['text', 'just text'], ['a number', 42], ['null', null], ['a plain object', { name: 'x' }]])('refuses %s as the file', async (_, file) => {
    await expect(toFormData({ file, filename: 'a.txt' })).rejects.toThrow(new ValidationError('must be a File, Blob, Buffer/Uint8Array or stream', 'file'));
    await expect(toFormData({ file, filename: 'a.txt' })).rejects.toMatchObject({ field: 'file' });
  });

  it('refuses bytes with an empty or missing filename', async () => {
    for (const filename of ['', undefined, 7]) {
      await expect(toFormData({ file: new Uint8Array([1]), filename })).rejects.toMatchObject({
        field: 'filename',
        message: 'filename: a file given as bytes, a Blob or a stream needs a `filename` (or pass a File)',
      });
    }
  });
});

describe('sleep on real time', () => {
  it('resolves after the time given, and at once for 0 or less', async () => {
    vi.useFakeTimers();
    let done = false;
    void sleep(1000).then(() => (done = true));
    await vi.advanceTimersByTimeAsync(999);
    expect(done).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(done).toBe(true);
    await expect(sleep(0)).resolves.toBeUndefined();
    await expect(sleep(-5)).resolves.toBeUndefined();
    expect(vi.getTimerCount()).toBe(0);
  });

  it('rejects with the reason at once when aborted, before or during the wait, and leaves no timer', async () => {
    vi.useFakeTimers();
    const reason = new Error('stop');
    await expect(sleep(1000, AbortSignal.abort(reason))).rejects.toBe(reason);
    await expect(sleep(0, AbortSignal.abort(reason))).rejects.toBe(reason);
    const controller = new AbortController();
    const waiting = sleep(1000, controller.signal);
    controller.abort(reason);
    await expect(waiting).rejects.toBe(reason);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('lets go of the signal once the wait is over', async () => {
    vi.useFakeTimers();
    const controller = new AbortController();
    const add = vi.spyOn(controller.signal, 'addEventListener');
    const remove = vi.spyOn(controller.signal, 'removeEventListener');
    const waiting = sleep(10, controller.signal);
    await vi.advanceTimersByTimeAsync(10);
    await waiting;
    expect(add).toHaveBeenCalledWith('abort', expect.any(Function), { once: true });
    expect(remove).toHaveBeenCalledWith('abort', add.mock.calls[0]![1]);
  });
});

describe('the request budget window', () => {
  /** Settles queued callbacks: a served caller's promise resolves a few microtasks after its wake. */
  const settle = () => new Promise((r) => setTimeout(r, 0));

  /** A budget of `perMinute` on a clock the test moves, and a record of who was served when. */
  function budget(perMinute: number) {
    const clock = testClock(0);
    const b = new RequestBudget(perMinute, clock);
    const served: string[] = [];
    const call = (name: string, signal?: AbortSignal) =>
      b.acquire(signal).then(
        () => void served.push(`${name}@${clock.now()}`),
        (err: unknown) => void served.push(`${name} ${String((err as Error).message)}`),
      );
    return { clock, served, call };
  }

  it('lets perMinute requests go at once, then one each time a start leaves: a minute and a 250 ms margin after it', async () => {
    const { clock, served, call } = budget(2);
    void call('a');
    await settle();
    clock.advance(10_000);
    void call('b');
    void call('c');
    void call('d');
    await settle();
    clock.advance(50_249);
    await settle();
    expect(served).toEqual(['a@0', 'b@10000']);
    clock.advance(1);
    await settle();
    expect(served).toEqual(['a@0', 'b@10000', 'c@60250']);
    clock.advanceTo(70_250);
    await settle();
    expect(served).toEqual(['a@0', 'b@10000', 'c@60250', 'd@70250']);
  });

  it('serves those in line first, even a newcomer that comes as the window opens', async () => {
    const { clock, served, call } = budget(1);
    void call('a');
    void call('b');
    await settle();
    clock.advance(60_250);
    void call('late');
    await settle();
    expect(served).toEqual(['a@0', 'b@60250']);
    clock.advance(60_250);
    await settle();
    expect(served).toEqual(['a@0', 'b@60250', 'late@120500']);
  });

  it('takes a caller aborted while it waits out of the line: those behind it move up', async () => {
    const { clock, served, call } = budget(1);
    void call('a');
    const gone = new AbortController();
    void call('b', gone.signal);
    void call('c');
    gone.abort(new Error('stop'));
    await settle();
    clock.advance(60_250);
    await settle();
    expect(served).toEqual(['a@0', 'b stop', 'c@60250']);
  });

  it('ends its sleep when every waiter was aborted, and a later caller waits only for the window', async () => {
    const { clock, served, call } = budget(1);
    void call('a');
    const gone = new AbortController();
    void call('b', gone.signal);
    void call('c', gone.signal);
    await settle();
    expect(clock.sleepers).toBe(1);
    gone.abort(new Error('stop'));
    await settle();
    expect(clock.sleepers).toBe(0);
    clock.advance(100);
    void call('d');
    clock.advance(60_150);
    await settle();
    expect(served).toEqual(['a@0', 'b stop', 'c stop', 'd@60250']);
  });

  it('counts the margin for a call that finds no line too', async () => {
    const { clock, served, call } = budget(1);
    void call('a');
    await settle();
    clock.advanceTo(60_249);
    void call('b');
    await settle();
    expect(served).toEqual(['a@0']);
    clock.advance(1);
    await settle();
    clock.advance(60_250);
    void call('c');
    await settle();
    // The window was free: c went at once, without a sleep.
    expect(served).toEqual(['a@0', 'b@60250', 'c@120500']);
  });

  it('lets a served caller abort its signal later without touching the line', async () => {
    const { clock, served, call } = budget(1);
    void call('a');
    const b = new AbortController();
    void call('b', b.signal);
    void call('c');
    await settle();
    clock.advance(60_250);
    await settle();
    b.abort(new Error('too late'));
    clock.advance(60_250);
    await settle();
    expect(served).toEqual(['a@0', 'b@60250', 'c@120500']);
  });

  it('is not fooled by a signal of another make that calls a listener it was asked to remove', async () => {
    const { clock, served, call } = budget(1);
    void call('a');
    const listeners: Array<() => void> = [];
    const sloppy = { aborted: false, reason: new Error('late'), addEventListener: (_: string, l: () => void) => void listeners.push(l), removeEventListener() {} } as unknown as AbortSignal;
    void call('b', sloppy);
    void call('c');
    await settle();
    clock.advance(60_250);
    await settle();
    // b was served; its listener, called now, must not take c out of the line.
    for (const l of listeners) l();
    clock.advance(60_250);
    await settle();
    expect(served).toEqual(['a@0', 'b@60250', 'c@120500']);
  });

  it('counts the starts within the window', async () => {
    const clock = testClock(0);
    const b = new RequestBudget(2, clock);
    expect(b.inWindow).toBe(0);
    await b.acquire();
    await b.acquire();
    expect(b.inWindow).toBe(2);
    clock.advance(60_250);
    expect(b.inWindow).toBe(0);
  });

  it('refuses a caller whose signal is aborted already, and it takes no slot', async () => {
    const { served, call } = budget(1);
    await call('a', AbortSignal.abort(new Error('stop')));
    await call('b');
    expect(served).toEqual(['a stop', 'b@0']);
  });

  it('stays bounded when callers keep coming and giving up', async () => {
    const { clock, served, call } = budget(2);
    // One caller a second, each giving up after 10 s of waiting.
    const callers: AbortController[] = [];
    for (let second = 0; second < 600; second++) {
      callers.push(new AbortController());
      void call(`c${second}`, callers[second]!.signal);
      callers[second - 10]?.abort(new Error('gave up'));
      await settle();
      clock.advance(1_000);
    }
    for (const caller of callers.slice(-10)) caller.abort(new Error('gave up'));
    await settle();
    // Served whenever the window had room (2 a minute for 10 minutes), not starved by those who gave up.
    expect(served.filter((s) => s.includes('@'))).toHaveLength(20);
    expect(served.filter((s) => s.endsWith('gave up'))).toHaveLength(580);
    expect(clock.sleepers).toBe(0);
  });

  it('trusts its sleep on a clock that does not move (a test clock)', async () => {
    const sleeps: number[] = [];
    const still: ClientClock = { now: () => 0, sleep: async (ms) => void sleeps.push(ms) };
    const b = new RequestBudget(1, still);
    await b.acquire();
    await b.acquire();
    await b.acquire();
    expect(sleeps).toEqual([60_250, 60_250]);
  });
});

describe('reading answers', () => {
  const received = (text: string, status = 200): Received => ({ response: new Response(null, { status: status === 200 ? 200 : status }), text, request: 'GET /x' });
  const invalid = (text: string, expected: Parameters<typeof decodeBody>[1]) => {
    try {
      decodeBody(received(text), expected);
    } catch (err) {
      expect(err).toBeInstanceOf(InvalidResponseError);
      return (err as Error).message;
    }
    throw new Error('expected InvalidResponseError');
  };

  it('says what it expected and what it got', () => {
    expect(invalid('', 'record')).toBe('200: expected a JSON record, got an empty body (GET /x)');
    expect(invalid('', 'list')).toBe('200: expected a list envelope, got an empty body (GET /x)');
    expect(invalid('[1]', 'record')).toBe('200: expected a JSON record (an object), got: [1] (GET /x)');
    expect(invalid('null', 'list')).toBe('200: expected a list envelope (an object), got: null (GET /x)');
    expect(invalid('{"data":{}}', 'list')).toBe('200: expected a list envelope whose `data` is an array, got: {"data":{}} (GET /x)');
    expect(invalid('{"data":[1,{}]}', 'list')).toBe('200: expected list items that are objects (data.0 is not), got: {"data":[1,{}]} (GET /x)');
    expect(invalid('{"data":[{},[]]}', 'list')).toContain('(data.1 is not)');
    expect(invalid('<html>', 'json')).toBe('200: expected a JSON body, got: <html> (GET /x)');
  });

  it('reads an empty body as nothing where any JSON is expected, and anything where nothing is', () => {
    expect(decodeBody(received(''), 'json')).toBeUndefined();
    expect(decodeBody(received('not json'), 'nothing')).toBeUndefined();
    expect(decodeBody(received('[1]'), 'json')).toEqual([1]);
    expect(decodeBody(received('{"data":[]}'), 'list')).toEqual({ data: [] });
  });

  it('parses a body as JSON, keeping the text either way', () => {
    expect(parseBody('')).toEqual({ json: undefined, text: '', isJSON: false });
    expect(parseBody('{"a":1}')).toEqual({ json: { a: 1 }, text: '{"a":1}', isJSON: true });
    expect(parseBody('{"a":')).toEqual({ json: undefined, text: '{"a":', isJSON: false });
    expect(parseBody('null')).toEqual({ json: null, text: 'null', isJSON: true });
  });
});
