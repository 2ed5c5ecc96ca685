// How long the mock keeps an Idempotency-Key (docs/testing.md, "Idempotency"; docs/errors.md,
// "Idempotency"): 24 hours of mock time, per API key. Raw requests on a manual clock: nothing sleeps.
import { describe, expect, it } from 'vitest';
import { createMockService, ManualClock, type MockService } from '../../src/testing/index.js';
import { binary, call, createQuestion, type Answer } from './_helpers.js';

const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;
// Two keys of one user: each sees the other's questions, so both can send the very same body.
const FIRST = 'pre_keep_first';
const SECOND = 'pre_keep_second';
const keys = [
  { key: FIRST, userId: 'u_keep', organizationId: 'org_keep' },
  { key: SECOND, userId: 'u_keep', organizationId: 'org_keep' },
];

interface Started {
  id: string;
  status: string;
}

/** A service on a manual clock at its default start, and a question of the first key's user. */
async function setUp(): Promise<{ service: MockService; clock: ManualClock; questionId: string }> {
  const clock = new ManualClock();
  const service = createMockService({ clock, apiKeys: keys });
  const question = await createQuestion(service, binary('Will the dam hold through the spring?'), FIRST);
  return { service, clock, questionId: question.id };
}

/** Starts a forecast with `idempotencyKey`, always the same body, as `apiKey`. */
function start(service: MockService, questionId: string, idempotencyKey: string, apiKey = FIRST): Promise<Answer<Started>> {
  return call<Started>(service, 'POST', '/forecasts', { body: { questionId }, key: apiKey, headers: { 'idempotency-key': idempotencyKey } });
}

describe('idempotency keys are kept 24 hours of mock time', () => {
  it('replays the first answer 1 ms before 24 h, and starts a new task once 24 h have passed', async () => {
    const { service, clock, questionId } = await setUp();
    const first = await start(service, questionId, 'nightly-run');
    expect([first.status, first.body.status]).toEqual([202, 'queued']);
    expect(first.headers.get('idempotent-replayed')).toBeNull();

    // The task completes long before the key expires; the replay still answers the first answer.
    clock.advance(DAY - 1);
    const replay = await start(service, questionId, 'nightly-run');
    expect(replay.status).toBe(202);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body).toEqual(first.body);
    expect(service.store.forecasts.size).toBe(1);

    // Past 24 h: the same key and body are a new request.
    clock.advance(2);
    const fresh = await start(service, questionId, 'nightly-run');
    expect([fresh.status, fresh.body.status]).toEqual([202, 'queued']);
    expect(fresh.headers.get('idempotent-replayed')).toBeNull();
    expect(fresh.body.id).not.toBe(first.body.id);
    expect(service.store.forecasts.size).toBe(2);

    // And the new answer is the one kept from now on.
    const again = await start(service, questionId, 'nightly-run');
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body.id).toBe(fresh.body.id);
  });

  it('counts the 24 h from the first request, not from the latest replay', async () => {
    const { service, clock, questionId } = await setUp();
    const first = await start(service, questionId, 'counted-from-first');
    clock.advance(12 * HOUR);
    expect((await start(service, questionId, 'counted-from-first')).headers.get('idempotent-replayed')).toBe('true');
    // 24 h after the first request (12 h after the replay): expired.
    clock.advance(12 * HOUR + 1);
    const fresh = await start(service, questionId, 'counted-from-first');
    expect(fresh.headers.get('idempotent-replayed')).toBeNull();
    expect(fresh.body.id).not.toBe(first.body.id);
  });

  it('keeps a body check for 24 h too: another body under a kept key is 400, under an expired one a new task', async () => {
    const { service, clock, questionId } = await setUp();
    const other = await createQuestion(service, binary('Will the ferry run in March?'), FIRST);
    await start(service, questionId, 'reused-key');
    clock.advance(DAY - 1);
    const refused = await start(service, other.id, 'reused-key');
    expect(refused.status).toBe(400);
    clock.advance(2);
    const accepted = await start(service, other.id, 'reused-key');
    expect([accepted.status, accepted.headers.get('idempotent-replayed')]).toEqual([202, null]);
  });
});

describe('idempotency keys are kept per API key', () => {
  it('starts a new task for the same key and the same body sent with a second API key of the same user', async () => {
    const { service, clock, questionId } = await setUp();
    const byFirst = await start(service, questionId, 'shared-key', FIRST);
    // Let the first task complete (a question runs one forecast at a time); the key is still kept.
    clock.advance(HOUR);
    const bySecond = await start(service, questionId, 'shared-key', SECOND);
    expect([byFirst.status, bySecond.status]).toEqual([202, 202]);
    expect(bySecond.headers.get('idempotent-replayed')).toBeNull();
    expect(bySecond.body.id).not.toBe(byFirst.body.id);
    expect(service.store.forecasts.size).toBe(2);

    // Each API key replays its own answer.
    const firstAgain = await start(service, questionId, 'shared-key', FIRST);
    const secondAgain = await start(service, questionId, 'shared-key', SECOND);
    expect([firstAgain.headers.get('idempotent-replayed'), secondAgain.headers.get('idempotent-replayed')]).toEqual(['true', 'true']);
    expect([firstAgain.body.id, secondAgain.body.id]).toEqual([byFirst.body.id, bySecond.body.id]);
  });

  it('treats the key the same whichever header carries the API key', async () => {
    const { service, questionId } = await setUp();
    const send = (via: 'bearer' | 'x-api-key') =>
      call<Started>(service, 'POST', '/forecasts', { body: { questionId }, key: FIRST, via, headers: { 'idempotency-key': 'either-header' } });
    const bearer = await send('bearer');
    const header = await send('x-api-key');
    expect(header.headers.get('idempotent-replayed')).toBe('true');
    expect(header.body.id).toBe(bearer.body.id);
  });
});
