// The error a user catches: its class, its name (which the retry event reports), its message and fields.
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import {
  APIConnectionError,
  APIError,
  APITimeoutError,
  ContextNotReadyError,
  ForecastAlreadyRunningError,
  ForecastingError,
  InternalServerError,
  MethodNotAllowedError,
  ValidationError,
  WaitTimeoutError,
  WebhookVerificationError,
  type RetryEvent,
} from '../../src/index.js';
import { BASE, apiError, makeClient, question, useMswServer } from './helpers.js';

const { server } = useMswServer();

/** The error a PATCH (never retried) rejects with when the service answers `answer`. */
async function errorFor(answer: () => Response): Promise<APIError> {
  server.use(http.patch(`${BASE}/questions/:id`, answer));
  const err = await makeClient().questions.update('q1', { description: 'd' }).catch((e: unknown) => e);
  expect(err).toBeInstanceOf(APIError);
  return err as APIError;
}

describe('error classes', () => {
  it.each([
    [400, 'invalid_request_error', 'BadRequestError'],
    [401, 'invalid_api_key', 'AuthenticationError'],
    [403, 'permission_denied', 'PermissionDeniedError'],
    [403, 'uploads_disabled', 'UploadsDisabledError'],
    [404, 'not_found', 'NotFoundError'],
    [405, 'invalid_request_error', 'MethodNotAllowedError'],
    [409, 'forecast_already_running', 'ForecastAlreadyRunningError'],
    [409, 'context_not_ready', 'ContextNotReadyError'],
    [409, 'idempotency_in_progress', 'IdempotencyInProgressError'],
    [409, 'generation_in_progress', 'DecisionConflictError'],
    [409, 'decision_archived', 'DecisionConflictError'],
    [409, 'invalid_request_error', 'ConflictError'],
    [429, 'rate_limit_error', 'RateLimitError'],
    [429, 'too_many_active_forecasts', 'TooManyActiveForecastsError'],
    [500, 'api_error', 'InternalServerError'],
    [503, 'overloaded_error', 'OverloadedError'],
  ])('names the error of %i %s %s', async (status, type, name) => {
    const err = await errorFor(() => apiError(status, type));
    expect(err.name).toBe(name);
    expect(err.constructor.name).toBe(name);
  });

  it.each([
    [403, 'PermissionDeniedError'],
    [404, 'NotFoundError'],
    [409, 'ConflictError'],
    [429, 'RateLimitError'],
    [503, 'OverloadedError'],
  ])('picks the class of %i by status when the error type is one it does not know', async (status, name) => {
    expect((await errorFor(() => apiError(status, 'something_new'))).name).toBe(name);
  });

  it.each([408, 410, 418, 422, 451])('throws a plain APIError, not InternalServerError, for the unmapped %i', async (status) => {
    const err = await errorFor(() => apiError(status, 'something_else'));
    expect(err.constructor).toBe(APIError);
    expect(err.name).toBe('APIError');
    expect(err).not.toBeInstanceOf(InternalServerError);
    expect(err.status).toBe(status);
  });

  it.each([500, 502, 504, 599])('throws InternalServerError for %i', async (status) => {
    const err = await errorFor(() => new HttpResponse(null, { status }));
    expect(err.constructor).toBe(InternalServerError);
    expect(err.name).toBe('InternalServerError');
  });

  it('names the errors that are not HTTP answers after their classes', () => {
    const errors: Array<[Error, string]> = [
      [new ForecastingError('x'), 'ForecastingError'],
      [new APIConnectionError(), 'APIConnectionError'],
      [new APITimeoutError(), 'APITimeoutError'],
      [new ValidationError('bad', 'title'), 'ValidationError'],
      [new WebhookVerificationError('missing_header', 'no header'), 'WebhookVerificationError'],
      [new WaitTimeoutError('late', ['t1']), 'WaitTimeoutError'],
    ];
    for (const [err, name] of errors) {
      expect(err.name).toBe(name);
      expect(err).toBeInstanceOf(ForecastingError);
    }
    expect(new APIConnectionError().message).toBe('Connection error.');
    expect(new APITimeoutError().message).toBe('Request timed out.');
    expect(new APITimeoutError()).toBeInstanceOf(APIConnectionError);
  });

  it('names InvalidResponseError on an answer that is not JSON', async () => {
    server.use(http.get(`${BASE}/questions/:id`, () => new HttpResponse('<html>', { status: 200 })));
    const err = await makeClient().questions.retrieve('q1').catch((e: unknown) => e);
    expect((err as Error).name).toBe('InvalidResponseError');
  });

  it('reports the error class of each failed attempt on the retry event', async () => {
    const answers = [() => apiError(500, 'api_error'), () => apiError(429, 'rate_limit_error'), () => new HttpResponse(null, { status: 408 }), () => HttpResponse.error()];
    let i = 0;
    server.use(http.get(`${BASE}/questions/:id`, () => (i < answers.length ? answers[i++]!() : HttpResponse.json(question('q1')))));
    const client = makeClient({ maxRetries: 4 });
    const retries: RetryEvent[] = [];
    client.on('retry', (e) => retries.push(e));
    await client.questions.retrieve('q1');
    expect(retries.map((e) => [e.status, e.error])).toEqual([
      [500, 'InternalServerError'],
      [429, 'RateLimitError'],
      [408, 'APIError'],
      [undefined, 'APIConnectionError'],
    ]);
  });
});

describe('error messages and fields', () => {
  it('writes status, type, message and request in the message, and keeps the request id', async () => {
    const err = await errorFor(() => apiError(404, 'not_found', 'no such question', { headers: { 'x-request-id': 'req_7' } }));
    expect(err.message).toBe('404 not_found: no such question (PATCH /questions/q1)');
    expect(err.requestId).toBe('req_7');
    expect(err.extras).toEqual({});
  });

  it('has no request id when the service sent none', async () => {
    expect((await errorFor(() => apiError(404, 'not_found'))).requestId).toBeUndefined();
  });

  it('writes the status and the body text when the body is not the error envelope', async () => {
    expect((await errorFor(() => new HttpResponse('upstream down', { status: 502 }))).message).toBe('502: HTTP 502: upstream down (PATCH /questions/q1)');
    expect((await errorFor(() => new HttpResponse(null, { status: 502 }))).message).toBe('502: HTTP 502 (PATCH /questions/q1)');
    const notEnvelope = await errorFor(() => HttpResponse.json({ error: 'flat string' }, { status: 400 }));
    expect(notEnvelope.type).toBeUndefined();
    expect(notEnvelope.message).toBe('400: HTTP 400: {"error":"flat string"} (PATCH /questions/q1)');
  });

  it('clips a long error type to 64 characters in the message', async () => {
    const err = await errorFor(() => apiError(400, 't'.repeat(100), 'm'));
    expect(err.type).toBe('t'.repeat(100));
    expect(err.message).toBe(`400 ${'t'.repeat(64)}… (36 more characters): m (PATCH /questions/q1)`);
  });

  it('keeps the members of the envelope beyond type and message on extras', async () => {
    const err = await errorFor(() => apiError(409, 'forecast_already_running', 'busy', { extra: { activeTaskId: 't9', hint: 'wait' } }));
    expect(err.extras).toEqual({ activeTaskId: 't9', hint: 'wait' });
  });

  it('gives no activeTaskId or files when the service sent them in another shape', async () => {
    const running = (await errorFor(() => apiError(409, 'forecast_already_running', 'busy', { extra: { activeTaskId: 9 } }))) as ForecastAlreadyRunningError;
    expect(running.activeTaskId).toBeUndefined();
    const notReady = (await errorFor(() => apiError(409, 'context_not_ready', 'wait', { extra: { files: 'f1' } }))) as ContextNotReadyError;
    expect(notReady.files).toEqual([]);
  });

  it('reads the allowed methods of a 405 however they are spaced or cased, and none without Allow', async () => {
    const spaced = (await errorFor(() => apiError(405, 'invalid_request_error', 'no', { headers: { Allow: ' get ,, post,' } }))) as MethodNotAllowedError;
    expect(spaced.allow).toEqual(['GET', 'POST']);
    const bare = (await errorFor(() => apiError(405, 'invalid_request_error', 'no'))) as MethodNotAllowedError;
    expect(bare.allow).toEqual([]);
  });
});
