// The errors of readiness waits and of decision conflicts, built the way the SDK builds them.
import { describe, expect, it } from 'vitest';
import { makeAPIError } from '../../src/core/errors.js';
import { ConflictError, ContextFileFailedError, ContextWaitTimeoutError, DecisionConflictError, WaitTimeoutError } from '../../src/index.js';

const conflict = (type: string | undefined, request?: string) =>
  makeAPIError({ status: 409, type, message: 'busy', headers: new Headers(), body: null, ...(request === undefined ? {} : { request }) });

describe('readiness wait errors', () => {
  it('names a failed file error after its class and keeps the files', () => {
    const files = [{ id: 'f1', status: 'failed' }];
    const err = new ContextFileFailedError('a file failed', files);
    expect([err.name, err.message, err.files]).toEqual(['ContextFileFailedError', 'a file failed', files]);
  });

  it('names a readiness timeout after its class: a WaitTimeoutError with no task ids, the files as the last seen', () => {
    const files = [{ id: 'f2', status: 'processing' }];
    const err = new ContextWaitTimeoutError('still processing', files);
    expect(err).toBeInstanceOf(WaitTimeoutError);
    expect([err.name, err.taskIds, err.lastSeen, err.files]).toEqual(['ContextWaitTimeoutError', [], files, files]);
  });
});

describe('decision conflicts', () => {
  it('makes a 409 with an unknown code on /decisions itself or below it a DecisionConflictError', () => {
    expect(conflict('some_new_code', 'POST /decisions')).toBeInstanceOf(DecisionConflictError);
    expect(conflict('some_new_code', 'POST /decisions/d1/generate')).toBeInstanceOf(DecisionConflictError);
  });

  it('keeps a plain ConflictError elsewhere, for invalid_request_error, with no code, or with no request', () => {
    for (const err of [conflict('some_new_code', 'POST /decisionsx'), conflict('some_new_code', 'POST /questions/decisions'), conflict('invalid_request_error', 'POST /decisions'), conflict(undefined, 'POST /decisions'), conflict('some_new_code')]) {
      expect(err).not.toBeInstanceOf(DecisionConflictError);
      expect(err.constructor).toBe(ConflictError);
    }
  });
});
