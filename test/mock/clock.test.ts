import { describe, expect, it, vi } from 'vitest';
import { ManualClock, ScaledClock, createMockService } from '../../src/testing/index.js';
import { DEFAULT_START_MS } from '../../src/testing/clock.js';
import { binary, call, type Question } from './_helpers.js';

describe('ManualClock', () => {
  it('starts at a fixed time and moves only when told', () => {
    const clock = new ManualClock();
    expect(clock.now()).toBe(DEFAULT_START_MS);
    clock.advance(1500);
    expect(clock.now()).toBe(DEFAULT_START_MS + 1500);
    clock.set(Date.UTC(2030, 0, 1));
    expect(new Date(clock.now()).toISOString()).toBe('2030-01-01T00:00:00.000Z');
  });

  it('runs due callbacks in time order, ties in scheduling order, each seeing its own time', () => {
    const clock = new ManualClock(0);
    const seen: string[] = [];
    clock.schedule(300, () => seen.push(`c@${clock.now()}`));
    clock.schedule(100, () => seen.push(`a@${clock.now()}`));
    clock.schedule(200, () => seen.push(`b1@${clock.now()}`));
    clock.schedule(200, () => seen.push(`b2@${clock.now()}`));
    clock.schedule(1000, () => seen.push('late'));
    clock.advance(500);
    expect(seen).toEqual(['a@100', 'b1@200', 'b2@200', 'c@300']);
    expect(clock.now()).toBe(500);
    expect(clock.pending).toBe(1);
  });

  it('runs callbacks scheduled by a callback when they fall due within the same advance', () => {
    const clock = new ManualClock(0);
    const seen: number[] = [];
    // A chain like a task's state machine: each step schedules the next.
    const step = (n: number) => {
      seen.push(clock.now());
      if (n < 3) clock.schedule(clock.now() + 100, () => step(n + 1));
    };
    clock.schedule(100, () => step(1));
    clock.schedule(250, () => seen.push(-250));
    clock.advance(1000);
    expect(seen).toEqual([100, 200, -250, 300]);
  });

  it('runs a callback scheduled in the past on the next advance, without moving time back', () => {
    const clock = new ManualClock(1000);
    let at = 0;
    clock.schedule(10, () => (at = clock.now()));
    clock.advance(0);
    expect(at).toBe(1000);
  });

  it('cancels a waiting callback', () => {
    const clock = new ManualClock(0);
    let ran = false;
    const handle = clock.schedule(100, () => (ran = true));
    expect(handle.at).toBe(100);
    handle.cancel();
    clock.advance(200);
    expect(ran).toBe(false);
    handle.cancel();
  });

  it('moves backwards with set() without running anything', () => {
    const clock = new ManualClock(1000);
    let ran = false;
    clock.schedule(1500, () => (ran = true));
    clock.set(0);
    expect(clock.now()).toBe(0);
    expect(ran).toBe(false);
    clock.set(1500);
    expect(ran).toBe(true);
  });

  it('runs every due callback even when one throws, then throws', () => {
    const clock = new ManualClock(0);
    const seen: number[] = [];
    clock.schedule(1, () => {
      throw new Error('boom');
    });
    clock.schedule(2, () => seen.push(2));
    expect(() => clock.advance(5)).toThrow('boom');
    expect(seen).toEqual([2]);
    expect(clock.now()).toBe(5);
    clock.schedule(6, () => {
      throw new Error('one');
    });
    clock.schedule(7, () => {
      throw new Error('two');
    });
    expect(() => clock.advance(5)).toThrow(AggregateError);
  });

  it('refuses a negative or non-finite move', () => {
    const clock = new ManualClock(0);
    expect(() => clock.advance(-1)).toThrow(RangeError);
    expect(() => clock.set(Number.NaN)).toThrow(RangeError);
  });

  it('stamps resources with the service clock, in UTC with milliseconds', async () => {
    const service = createMockService({ clock: new ManualClock(Date.UTC(2031, 5, 1, 12, 0, 0, 250)) });
    const res = await call<Question>(service, 'POST', '/questions', { body: binary() });
    expect(res.body.createdAt).toBe('2031-06-01T12:00:00.250Z');
  });
});

describe('ScaledClock', () => {
  it('runs time faster by timeScale', () => {
    let real = 1_000;
    const clock = new ScaledClock({ timeScale: 600, startMs: 0, source: () => real });
    expect(clock.now()).toBe(0);
    real += 9_000; // 9 real seconds
    expect(clock.now()).toBe(90 * 60_000); // 1.5 hours
    clock.advance(1000);
    expect(clock.now()).toBe(90 * 60_000 + 1000);
    clock.set(0);
    expect(clock.now()).toBe(0);
  });

  it('runs scheduled callbacks on a real timer when they fall due, in order', async () => {
    const clock = new ScaledClock({ timeScale: 600 });
    const seen: string[] = [];
    const done = new Promise<void>((resolve) => {
      clock.schedule(clock.now() + 12_000, () => {
        seen.push('b');
        resolve();
      });
    });
    clock.schedule(clock.now() + 6_000, () => seen.push('a')); // 10 ms of real time
    await done;
    expect(seen).toEqual(['a', 'b']);
    clock.stop();
  });

  it('reports a callback that throws on its real timer to onError, and runs on (no uncaught exception)', async () => {
    const errors: unknown[] = [];
    const clock = new ScaledClock({ timeScale: 600, onError: (error) => errors.push(error) });
    const later = new Promise<void>((resolve) => clock.schedule(clock.now() + 12_000, resolve));
    clock.schedule(clock.now() + 6_000, () => {
      throw new Error('broken callback');
    });
    await later;
    expect(errors).toEqual([new Error('broken callback')]);
    clock.stop();
  });

  it('reports such a callback with console.error by default', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      const clock = new ScaledClock({ timeScale: 600 });
      const later = new Promise<void>((resolve) => clock.schedule(clock.now() + 12_000, resolve));
      clock.schedule(clock.now() + 6_000, () => {
        throw new Error('broken callback');
      });
      await later;
      clock.stop();
      expect(logged).toHaveBeenCalledWith('forecasting-sdk/testing: a callback scheduled on the mock clock failed:', new Error('broken callback'));
    } finally {
      logged.mockRestore();
    }
  });

  it('runs due callbacks at once on advance, and not after cancel', () => {
    const clock = new ScaledClock({ timeScale: 1 });
    const seen: string[] = [];
    clock.schedule(clock.now() + 60_000, () => seen.push('due'));
    const cancelled = clock.schedule(clock.now() + 30_000, () => seen.push('cancelled'));
    cancelled.cancel();
    clock.advance(60_000);
    expect(seen).toEqual(['due']);
    clock.stop();
  });

  it('is the service clock when timeScale is given', () => {
    const service = createMockService({ timeScale: 600 });
    expect(service.clock).toBeInstanceOf(ScaledClock);
    expect(() => createMockService({ timeScale: 2, clock: new ManualClock() })).toThrow(TypeError);
    (service.clock as ScaledClock).stop();
  });

  it('refuses a non-positive timeScale', () => {
    expect(() => new ScaledClock({ timeScale: 0 })).toThrow(RangeError);
  });
});
