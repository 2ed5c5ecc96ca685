// Whether waits may trust webhook events: the key's enabled webhooks must subscribe to every final
// kind. Read once, shared by concurrent waits, refreshed on the client's clock, failing safe.
import { describe, expect, it } from 'vitest';
import { COVERAGE_TTL_MS, WebhookCoverage } from '../../src/core/webhook-coverage.js';

const FINAL = ['forecast.completed', 'forecast.failed', 'forecast.cancelled'];

function setup(answers: Array<string[][] | Error>) {
  let now = 0;
  let reads = 0;
  const coverage = new WebhookCoverage(
    async () => {
      const answer = answers[Math.min(reads++, answers.length - 1)]!;
      if (answer instanceof Error) throw answer;
      return answer;
    },
    FINAL,
    () => ({ now: () => now }),
  );
  return { coverage, reads: () => reads, advance: (ms: number) => void (now += ms) };
}

describe('webhook coverage', () => {
  it('is covered when the webhooks together subscribe to every final kind, with one read for concurrent waits', async () => {
    const { coverage, reads } = setup([[['forecast.completed'], ['forecast.failed', 'forecast.cancelled', 'forecast.started']]]);
    expect(await Promise.all([coverage.covers(), coverage.covers(), coverage.covers()])).toEqual([true, true, true]);
    expect(reads()).toBe(1);
  });

  it('is not covered by forecast.completed alone (the service default), nor by no webhook', async () => {
    expect(await setup([[['forecast.completed']]]).coverage.covers()).toBe(false);
    expect(await setup([[]]).coverage.covers()).toBe(false);
  });

  it('answers from the last read until it is COVERAGE_TTL_MS old, then reads again in the background', async () => {
    const { coverage, reads, advance } = setup([[FINAL], [['forecast.completed']]]);
    expect(await coverage.covers()).toBe(true);
    advance(COVERAGE_TTL_MS - 1);
    expect(await coverage.covers()).toBe(true);
    expect(reads()).toBe(1);
    advance(1);
    // The stale answer still serves this call; the refresh it started serves the next.
    expect(await coverage.covers()).toBe(true);
    await Promise.resolve();
    expect(await coverage.covers()).toBe(false);
    expect(reads()).toBe(2);
  });

  it('counts a failed read as not covered (the waits poll), and reads again a minute later', async () => {
    const { coverage, reads, advance } = setup([new Error('503'), [FINAL]]);
    expect(await coverage.covers()).toBe(false);
    advance(59_999);
    expect(await coverage.covers()).toBe(false);
    expect(reads()).toBe(1);
    advance(1);
    await coverage.covers();
    await Promise.resolve();
    expect(await coverage.covers()).toBe(true);
  });

  it('reads again at once when the clock stepped back (a wall clock set by hand), rather than trust the old read that long', async () => {
    const { coverage, reads, advance } = setup([[FINAL], [['forecast.completed']]]);
    expect(await coverage.covers()).toBe(true);
    advance(-3_600_000);
    await coverage.covers();
    await Promise.resolve();
    expect(reads()).toBe(2);
    expect(await coverage.covers()).toBe(false);
  });
});
