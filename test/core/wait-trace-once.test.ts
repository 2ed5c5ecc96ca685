// A `runMany`'s trace ends once: what ended it first (its failure, or the run's end) is what its
// message keeps; the `finally` that ends it again after a failure writes nothing more into it.
import diagnostics from 'node:diagnostics_channel';
import { afterEach, describe, expect, it } from 'vitest';
import { CHANNELS, type WaitMessage } from '../../src/core/channels.js';
import { openWaitTrace } from '../../src/core/traced.js';

const seen: [string, WaitMessage][] = [];
const subscriber = Object.fromEntries(['start', 'end', 'asyncStart', 'asyncEnd', 'error'].map((e) => [e, (m: unknown) => void seen.push([e, m as WaitMessage])])) as unknown as diagnostics.TracingChannelSubscribers<object>;
const channel = diagnostics.tracingChannel(CHANNELS.wait);
channel.subscribe(subscriber);
afterEach(() => void (seen.length = 0));

describe('a wait trace published one by one', () => {
  it('ends once: an end after a failure publishes nothing and writes nothing into the message', () => {
    const trace = openWaitTrace('runMany')!;
    trace.fail(new Error('stopped'));
    trace.end({ finalStatuses: ['completed'] });
    expect(seen.map(([e]) => e)).toEqual(['start', 'end', 'error', 'asyncStart', 'asyncEnd']);
    expect(trace.message.statuses).toBeUndefined();
  });

  it('keeps the counts of its first end', () => {
    const trace = openWaitTrace('runMany')!;
    trace.end({ finalStatuses: ['completed', 'failed', 'completed'] });
    trace.end({ finalStatuses: [] });
    expect(seen.filter(([e]) => e === 'asyncEnd')).toHaveLength(1);
    expect(trace.message.statuses).toEqual({ completed: 2, failed: 1 });
  });
});
