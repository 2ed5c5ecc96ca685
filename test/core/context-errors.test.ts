// The errors of readiness waits and of decision conflicts, built the way the SDK builds them.
import { describe, expect, it } from 'vitest';
import { makeAPIError, type UnknownCodeRule } from '../../src/core/errors.js';
import { rulesBySegment, SPEC_ERRORS } from '../../src/api/error-rules.js';
import { defineOperations } from '../../src/core/operation.js';
import { decisionOperations } from '../../src/api/decisions.js';
import { questionOperations } from '../../src/api/questions.js';
import { ConflictError, ContextFileFailedError, ContextWaitTimeoutError, DecisionConflictError, WaitTimeoutError } from '../../src/index.js';

/** The error of a 409 answered to `request`, built as the client builds it, with the spec's rules and the operation's own rule if given. */
const conflict = (type: string | undefined, request?: string, unknownCode?: UnknownCodeRule) =>
  makeAPIError({ status: 409, type, message: 'busy', headers: new Headers(), body: null, ...(request === undefined ? {} : { request }) }, SPEC_ERRORS, unknownCode);

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
  const declared = decisionOperations.generate.unknownCode;

  it('is a rule every decision operation declares, and only those', () => {
    expect(declared).toMatchObject({ status: 409, error: DecisionConflictError });
    expect(Object.values(decisionOperations).every((op) => op.unknownCode === declared)).toBe(true);
    expect(questionOperations.update).not.toHaveProperty('unknownCode');
  });

  it('makes a 409 with an unknown code on a decision operation a DecisionConflictError', () => {
    expect(conflict('some_new_code', 'POST /decisions/d1/generate', declared)).toBeInstanceOf(DecisionConflictError);
  });

  it('finds the rule by path for a call that names no operation: /decisions itself or below it', () => {
    expect(conflict('some_new_code', 'POST /decisions')).toBeInstanceOf(DecisionConflictError);
    expect(conflict('some_new_code', 'POST /decisions/d1/generate')).toBeInstanceOf(DecisionConflictError);
  });

  it('keeps a plain ConflictError elsewhere, for invalid_request_error, with no code, or with no request', () => {
    for (const err of [
      conflict('some_new_code', 'POST /decisionsx'),
      conflict('some_new_code', 'POST /questions/decisions'),
      conflict('invalid_request_error', 'POST /decisions', declared),
      conflict(undefined, 'POST /decisions', declared),
      conflict('some_new_code'),
    ]) {
      expect(err).not.toBeInstanceOf(DecisionConflictError);
      expect(err.constructor).toBe(ConflictError);
    }
  });

  it('gives a path segment no rule when an operation under it declares none or another', () => {
    const rule = { status: 409, error: DecisionConflictError };
    const ruled = defineOperations('a', { x: { method: 'GET', path: '/a/{id}' }, y: { method: 'POST', path: '/b' } }, { scopes: { read: 'r', write: 'w' }, unknownCode: rule });
    const plain = defineOperations('b', { z: { method: 'GET', path: '/b/{id}' } }, { scopes: { read: 'r', write: 'w' } });
    expect([...rulesBySegment([...Object.values(ruled), ...Object.values(plain)])]).toEqual([['a', rule]]);
  });
});
