// The mock's idempotency rules on raw requests: the header on keyed operations only, per API key.
import { describe, expect, it } from 'vitest';
import { createMockService } from '../../src/testing/index.js';
import { call, createQuestion, binary, expectError } from './_helpers.js';

const keys = [
  { key: 'pre_idem_a', userId: 'u1', organizationId: 'o1' },
  { key: 'pre_idem_b', userId: 'u1', organizationId: 'o1' },
];

describe('idempotency keys in the mock', () => {
  it('keeps keys per API key: the same key from another API key starts its own request', async () => {
    const service = createMockService({ apiKeys: keys });
    const [q1, q2] = [await createQuestion(service, binary('A'), 'pre_idem_a'), await createQuestion(service, binary('B'), 'pre_idem_a')];
    const headers = { 'idempotency-key': 'same' };
    const a = await call<{ id: string }>(service, 'POST', '/forecasts', { body: { questionId: q1.id }, key: 'pre_idem_a', headers });
    const b = await call<{ id: string }>(service, 'POST', '/forecasts', { body: { questionId: q2.id }, key: 'pre_idem_b', headers });
    expect([a.status, b.status]).toEqual([202, 202]);
    expect(b.body.id).not.toBe(a.body.id);
  });

  it('refuses a key longer than 128 characters with 400', async () => {
    const service = createMockService();
    const q = await createQuestion(service, binary());
    const res = await call(service, 'POST', '/forecasts', { body: { questionId: q.id }, headers: { 'idempotency-key': 'k'.repeat(129) } });
    expectError(res, 400, 'invalid_request_error', /Idempotency-Key/);
  });

  it('answers 401 to a revoked key, never a replay of what it started before', async () => {
    const service = createMockService({ apiKeys: keys });
    const q = await createQuestion(service, binary(), 'pre_idem_a');
    const send = () => call(service, 'POST', '/forecasts', { body: { questionId: q.id }, key: 'pre_idem_a', headers: { 'idempotency-key': 'before-revoke' } });
    expect((await send()).status).toBe(202);
    service.revokeApiKey('pre_idem_a');
    expectError(await send(), 401, 'invalid_api_key', /revoked/);
  });

  it('answers 401, not 400, to a call without a live key, whatever its Idempotency-Key', async () => {
    const service = createMockService({ apiKeys: keys });
    const q = await createQuestion(service, binary(), 'pre_idem_a');
    const res = await call(service, 'POST', '/forecasts', { body: { questionId: q.id }, key: 'pre_not_a_key', headers: { 'idempotency-key': 'k'.repeat(129) } });
    expectError(res, 401, 'invalid_api_key', /wrong, revoked or expired/);
  });

  it('replays the stored answer with its status and Idempotent-Replayed: true, and logs the replay', async () => {
    const service = createMockService();
    const q = await createQuestion(service, binary());
    const send = () => call<{ id: string }>(service, 'POST', '/forecasts', { body: { questionId: q.id }, headers: { 'idempotency-key': 'r1' } });
    const first = await send();
    const second = await send();
    expect(second.status).toBe(202);
    expect(second.body).toEqual(first.body);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    expect(service.requests.list({ operation: 'forecasts.create' }).map((r) => r.status)).toEqual([202, 202]);
    expect(service.store.forecasts.size).toBe(1);
  });
});
