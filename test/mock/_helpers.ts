/** Shared helpers of the mock's own tests: build Fetch requests, read answers, check envelopes. */
import { expect } from 'vitest';
import type { MockService } from '../../src/testing/index.js';
import type { Question } from '../../src/schemas/records/questions.js';

export const BASE = 'http://mock.test/api/v1/external';

export interface CallOptions {
  body?: unknown;
  /** Raw body text (for bad JSON). */
  rawBody?: string;
  /** API key to send; `null` sends none. Default: the service's key. */
  key?: string | null;
  /** How to send the key. */
  via?: 'bearer' | 'x-api-key';
  headers?: Record<string, string>;
}

export interface Answer<T> {
  status: number;
  headers: Headers;
  /** The parsed JSON body (or the text when it was not JSON), read as `T`. */
  body: T;
}

export interface ErrorBody {
  type: 'error';
  error: { type: string; message: string; [extra: string]: unknown };
}

export interface ListBody<T> {
  type: 'list';
  data: T[];
  hasMore: boolean;
  nextCursor: string | null;
}

export type { Question };

/** Sends one request to the service and reads the answer. */
export async function call<T = unknown>(
  service: MockService,
  method: string,
  path: string,
  options: CallOptions = {},
): Promise<Answer<T>> {
  const response = await service.handle(request(service, method, path, options));
  return read<T>(response);
}

export async function read<T>(response: Response): Promise<Answer<T>> {
  const text = await response.text();
  let body: unknown = text;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    // keep the text
  }
  return { status: response.status, headers: response.headers, body: body as T };
}

export function request(service: MockService, method: string, path: string, options: CallOptions = {}): Request {
  const headers = new Headers(options.headers);
  const key = options.key === undefined ? service.apiKey : options.key;
  if (key !== null) {
    if (options.via === 'x-api-key') headers.set('x-api-key', key);
    else headers.set('authorization', `Bearer ${key}`);
  }
  let body: string | undefined = options.rawBody;
  if (options.body !== undefined) body = JSON.stringify(options.body);
  if (body !== undefined) headers.set('content-type', 'application/json');
  return new Request(`${BASE}${path}`, { method, headers, body });
}

/** Asserts the error envelope: status, `error.type`, and a message matching `message`. */
export function expectError(res: Answer<unknown>, status: number, type: string, message?: RegExp | string): ErrorBody['error'] {
  expect(res.status).toBe(status);
  expect(res.headers.get('content-type')).toBe('application/json');
  const body = res.body as ErrorBody;
  expect(body.type).toBe('error');
  expect(body.error.type).toBe(type);
  if (message !== undefined) expect(body.error.message).toMatch(message);
  return body.error;
}

/** Creates a question and returns it (throws unless 201). */
export async function createQuestion(service: MockService, body: Record<string, unknown>, key?: string): Promise<Question> {
  const res = await call<Question>(service, 'POST', '/questions', { body, key });
  if (res.status !== 201) throw new Error(`create answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body;
}

export const binary = (title = 'Will it rain in Paris tomorrow?', extra: Record<string, unknown> = {}) => ({
  type: 'binary',
  title,
  ...extra,
});
