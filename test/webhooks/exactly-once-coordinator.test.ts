// What a receiver tells its coordinator of each event kind, and which of the handler's answers give
// the event's claim back (those the service retries).
import { describe, expect, it } from 'vitest';
import { claimKeyOf, eventNotice, isRetriedStatus } from '../../src/webhooks/exactly-once.js';
import type { WebhookEvent } from '../../src/webhooks/index.js';

const event = (type: string, data: Record<string, unknown> = { taskId: 't1' }): WebhookEvent => ({ id: `svc:${type}:t1`, type, createdAt: '2026-01-01T00:00:00Z', data });

describe('the notice a receiver publishes', () => {
  it.each([
    ['forecast.completed', 'completed'],
    ['forecast.failed', 'failed'],
    ['forecast.cancelled', 'cancelled'],
  ])('marks %s final, with the status %s', (type, status) => {
    expect(eventNotice(event(type))).toEqual({ id: `svc:${type}:t1`, type, taskId: 't1', status, final: true });
  });

  it('publishes a start, a report and an unknown kind as not final (no slot is freed, no waiter woken)', () => {
    expect(eventNotice(event('forecast.started'))).toEqual({ id: 'svc:forecast.started:t1', type: 'forecast.started', taskId: 't1', status: 'queued', final: false });
    expect(eventNotice(event('forecast.report.completed'))).toEqual({ id: 'svc:forecast.report.completed:t1', type: 'forecast.report.completed', taskId: 't1', final: false });
    expect(eventNotice(event('forecast.archived'))).toMatchObject({ final: false });
    expect(eventNotice(event('toString'))).toEqual({ id: 'svc:toString:t1', type: 'toString', taskId: 't1', final: false });
  });

  it('carries no task id for an event without one (webhook.test)', () => {
    expect(eventNotice(event('webhook.test', { test: true, webhookId: 'w1' }))).toEqual({ id: 'svc:webhook.test:t1', type: 'webhook.test', final: false });
  });
});

describe("the handler's answers that give the claim back", () => {
  it('are those the service retries: 408, 425, 429 and every 5xx', () => {
    const retried = [200, 204, 400, 404, 407, 408, 409, 425, 428, 429, 430, 499, 500, 503, 599].filter(isRetriedStatus);
    expect(retried).toEqual([408, 425, 429, 500, 503, 599]);
  });
});

describe('what an event is claimed by', () => {
  it('is its id, which a resent event keeps', () => {
    expect(claimKeyOf(event('forecast.completed'))).toBe('svc:forecast.completed:t1');
  });

  it("adds a report's status: a failed report written again comes under the same id with another outcome, and must reach the handler", () => {
    const failed = claimKeyOf(event('forecast.report.completed', { taskId: 't1', reportStatus: 'failed' }));
    const rewritten = claimKeyOf(event('forecast.report.completed', { taskId: 't1', reportStatus: 'completed' }));
    expect(failed).toBe('svc:forecast.report.completed:t1:failed');
    expect(rewritten).not.toBe(failed);
    expect(claimKeyOf(event('forecast.report.completed', { taskId: 't1', reportStatus: 'completed' }))).toBe(rewritten);
  });
});
