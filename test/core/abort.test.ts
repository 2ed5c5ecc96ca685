// The shared abort listener (src/core/abort.ts): one listener per signal however many waits share it,
// every waiting callback told, and the listener gone with the last callback.
import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import { eitherSignal, whenAborted } from '../../src/core/abort.js';

const listeners = (signal: AbortSignal) => getEventListeners(signal, 'abort').length;

describe('whenAborted', () => {
  it('adds one listener for any number of callbacks, tells each on abort, and leaves none behind', () => {
    const controller = new AbortController();
    const told: number[] = [];
    for (let i = 0; i < 50; i++) whenAborted(controller.signal, () => told.push(i));
    expect(listeners(controller.signal)).toBe(1);
    controller.abort();
    expect(told).toHaveLength(50);
    expect(listeners(controller.signal)).toBe(0);
  });

  it('removes the listener with the last stop, and tells no stopped callback', () => {
    const controller = new AbortController();
    const told: string[] = [];
    const stopA = whenAborted(controller.signal, () => told.push('a'));
    const stopB = whenAborted(controller.signal, () => told.push('b'));
    stopA();
    expect(listeners(controller.signal)).toBe(1);
    stopB();
    expect(listeners(controller.signal)).toBe(0);
    // Stopping twice, or after the last, changes nothing; a new callback listens again.
    stopB();
    whenAborted(controller.signal, () => told.push('c'));
    controller.abort();
    expect(told).toEqual(['c']);
  });

  it('stops each registration of the same function apart', () => {
    const controller = new AbortController();
    let calls = 0;
    const f = () => calls++;
    const stop = whenAborted(controller.signal, f);
    whenAborted(controller.signal, f);
    stop();
    controller.abort();
    expect(calls).toBe(1);
  });
});

describe('whenAborted on a signal of another make', () => {
  it('keeps no entry when its addEventListener throws: a later call listens and is told', () => {
    const controller = new AbortController();
    let fail = true;
    const signal = new Proxy(controller.signal, {
      get(target, key) {
        if (key === 'addEventListener' && fail) {
          fail = false;
          return () => {
            throw new Error('not now');
          };
        }
        const value: unknown = Reflect.get(target, key, target);
        return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
      },
    });
    expect(() => whenAborted(signal, () => undefined)).toThrow('not now');
    let told = false;
    whenAborted(signal, () => (told = true));
    controller.abort();
    expect(told).toBe(true);
  });
});

describe('eitherSignal', () => {
  it("aborts with the first signal's reason, and its stop leaves neither signal a listener", () => {
    const caller = new AbortController();
    const own = new AbortController();
    const either = eitherSignal(caller.signal, own.signal);
    expect([listeners(caller.signal), listeners(own.signal)]).toEqual([1, 1]);
    own.abort(new Error('woken'));
    expect((either.signal.reason as Error).message).toBe('woken');
    either.stop();
    expect([listeners(caller.signal), listeners(own.signal)]).toEqual([0, 0]);
  });

  it('is aborted at once when either is already, with its reason', () => {
    const caller = new AbortController();
    caller.abort(new Error('gone'));
    const either = eitherSignal(caller.signal, new AbortController().signal);
    expect(either.signal.aborted).toBe(true);
    expect((either.signal.reason as Error).message).toBe('gone');
  });
});
