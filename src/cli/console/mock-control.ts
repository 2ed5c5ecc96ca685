/**
 * The mock service's control routes (`/__mock` at its root), when the console talks to the mock:
 * its clock, and how a question's later forecasts end. Found once at start by reading the clock, on
 * a loopback service only; the real service has no such route, and the console then shows no panel.
 * @module
 */

/** The mock's clock as its control route shows it. */
export interface MockClock {
  now: number;
  iso: string;
  kind: string;
  timeScale: number | null;
}

/** What the console asks of the mock. */
export interface MockControl {
  clock(): Promise<MockClock>;
  advance(ms: number): Promise<MockClock>;
  setOutcome(questionId: string, outcome: { task?: string; report?: string; message?: string }): Promise<void>;
}

/** A control call that does not answer 2xx with JSON: its status and the mock's message. */
export class MockControlError extends Error {
  override name = 'MockControlError';
}

const isClock = (x: unknown): x is MockClock =>
  typeof x === 'object' && x !== null && typeof (x as MockClock).now === 'number' && typeof (x as MockClock).iso === 'string' && typeof (x as MockClock).kind === 'string';

/** The most of a control answer read: the clock and the fault list are a few hundred bytes. */
const MAX_CONTROL_ANSWER = 64 * 1024;

/** The answer's text, reading no further than `cap` bytes (the rest is cancelled, not read). @internal */
export async function cappedText(res: Response, cap: number): Promise<string> {
  if (!res.body) return '';
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let bytes = 0;
  try {
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
      chunks.push(chunk.value);
      bytes += chunk.value.byteLength;
      if (bytes >= cap) break;
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
  return new TextDecoder().decode(Buffer.concat(chunks).subarray(0, cap));
}

/** A service on this machine: the only place the console looks for a mock (the key goes nowhere else than the service it was given for). */
const isLoopback = (url: URL) => /^(127\.\d+\.\d+\.\d+|\[::1\]|localhost)$/.test(url.hostname);

/**
 * The mock's control at the root of `baseURL`'s origin, or `undefined` when no mock answers there.
 * Only a service on loopback is asked: on a shared gateway the root may be another application's.
 */
export async function mockControlFor(baseURL: string, apiKey: string): Promise<MockControl | undefined> {
  const base = new URL(baseURL);
  if (!isLoopback(base)) return undefined;
  const root = new URL('/__mock', base).href;
  const call = async (method: string, path: string, body?: unknown): Promise<unknown> => {
    const res = await fetch(`${root}${path}`, {
      method,
      headers: { authorization: `Bearer ${apiKey}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      redirect: 'error',
      signal: AbortSignal.timeout(10_000),
    });
    const text = await cappedText(res, MAX_CONTROL_ANSWER);
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    if (!res.ok) {
      const message = (json as { error?: { message?: unknown } } | undefined)?.error?.message;
      throw new MockControlError(`${res.status}: ${typeof message === 'string' ? message : 'the mock refused the call'}`);
    }
    return json;
  };
  const clock = async () => {
    const answer = await call('GET', '/clock');
    if (!isClock(answer)) throw new MockControlError('the mock answered its clock in an unexpected shape');
    return answer;
  };
  try {
    await clock();
  } catch {
    return undefined;
  }
  return {
    clock,
    advance: async (ms) => {
      const answer = await call('POST', '/clock/advance', { ms });
      if (!isClock(answer)) throw new MockControlError('the mock answered its clock in an unexpected shape');
      return answer;
    },
    setOutcome: async (questionId, outcome) => void (await call('PUT', `/questions/${encodeURIComponent(questionId)}/outcome`, outcome)),
  };
}
