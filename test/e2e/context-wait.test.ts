// Waiting for context files end to end: questions.files.waitUntilReady and createAndWait's
// waitForContext, on the mock's manual clock (a client wait moves it, no real sleeping).
import { describe, expect, it } from 'vitest';
import { ContextFileFailedError, ContextNotReadyError, ContextWaitTimeoutError, WaitTimeoutError, ValidationError } from '../../src/index.js';
import { FILE_PROCESSING_MS } from '../../src/testing/index.js';
import { binary, SECOND, useContextMock } from './_context.js';

const h = useContextMock();

describe('questions.files.waitUntilReady', () => {
  it('ends in ready: waits the Retry-After the ready endpoint gives, and resolves with the files', async () => {
    const q = await h.client.questions.create(binary);
    const files = h.client.questions.files;
    const a = await files.upload(q.id, { file: Buffer.from('a'), filename: 'a.txt' });
    h.mock.clock.advance(4 * SECOND);
    const b = await files.upload(q.id, { file: Buffer.from('b'), filename: 'b.txt' });
    const start = h.mock.clock.now();
    const ready = await files.waitUntilReady(q.id);
    expect(ready.map((f) => [f.id, f.status])).toEqual([[b.id, 'ready'], [a.id, 'ready']]);
    // a is done 6 s after the wait starts, b 10 s after: two sleeps, each to the next file's end.
    expect(h.mock.clock.now() - start).toBe(FILE_PROCESSING_MS);
    expect(h.count('questions.context.ready')).toBe(3);
  });

  it('resolves at once when there is nothing to wait for', async () => {
    const q = await h.client.questions.create(binary);
    expect(await h.client.questions.files.waitUntilReady(q.id)).toEqual([]);
    expect(h.count('questions.context.ready')).toBe(1);
  });

  it('ends in a failed file: rejects with ContextFileFailedError listing it', async () => {
    const q = await h.client.questions.create(binary);
    const files = h.client.questions.files;
    await files.upload(q.id, { file: Buffer.from('ok'), filename: 'ok.txt' });
    const bad = await files.upload(q.id, { file: Buffer.from('%PDF'), filename: 'bad.pdf' });
    h.mock.service.contextControls.failFile(bad.id, 'The PDF is encrypted');
    const err = await files.waitUntilReady(q.id).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ContextFileFailedError);
    expect((err as ContextFileFailedError).files).toEqual([expect.objectContaining({ id: bad.id, status: 'failed', failureReason: 'The PDF is encrypted' })]);
    expect((err as Error).message).toMatch(/bad\.pdf/);
  });

  it('rejects with ContextWaitTimeoutError (a WaitTimeoutError) after `timeout` ms, listing what still processes', async () => {
    const q = await h.client.questions.create(binary);
    const stuck = h.mock.service.forecastControls.addContextFile(q.id); // never finishes on its own
    const start = h.mock.clock.now();
    const err = await h.client.questions.files.waitUntilReady(q.id, { timeout: 60_000 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ContextWaitTimeoutError);
    expect(err).toBeInstanceOf(WaitTimeoutError);
    expect((err as ContextWaitTimeoutError).files.map((f) => f.id)).toEqual([stuck]);
    expect(h.mock.clock.now() - start).toBe(60_000);
    // Without Retry-After (nothing will finish on the clock) it backed off 1, 2, 4, 8, 15, 15, 15 s: 8 reads in 60 s.
    expect(h.count('questions.context.ready')).toBe(8);
  });

  it('stops at once on abort, with the signal’s reason; refuses a bad timeout before any request', async () => {
    const q = await h.client.questions.create(binary);
    h.mock.service.forecastControls.addContextFile(q.id);
    const controller = new AbortController();
    const waiting = h.client.questions.files.waitUntilReady(q.id, { signal: controller.signal });
    controller.abort(new Error('user gave up'));
    await expect(waiting).rejects.toThrow('user gave up');
    const err = await h.client.questions.files.waitUntilReady(q.id, { timeout: -1 }).catch((e: unknown) => e);
    expect(err).toMatchObject({ field: 'timeout' });
    expect(err).toBeInstanceOf(ValidationError);
  });
});

describe('forecasts.createAndWait with waitForContext', () => {
  it('waits for the question’s files, then starts, and waits for the forecast', async () => {
    const q = await h.client.questions.create(binary);
    await h.client.questions.files.upload(q.id, { file: Buffer.from('x'), filename: 'x.txt' });
    await expect(h.client.forecasts.create({ questionId: q.id })).rejects.toBeInstanceOf(ContextNotReadyError);
    const uploadedAt = h.mock.clock.now();
    const task = await h.client.forecasts.createAndWait({ questionId: q.id, runMode: 'light' }, { waitForContext: true });
    expect(task.status).toBe('completed');
    expect(Date.parse(task.createdAt) - uploadedAt).toBe(FILE_PROCESSING_MS);
  });

  it('starts nothing when a file failed', async () => {
    const q = await h.client.questions.create(binary);
    const f = await h.client.questions.files.upload(q.id, { file: Buffer.from('x'), filename: 'x.txt' });
    h.mock.service.contextControls.failFile(f.id);
    await expect(h.client.forecasts.createAndWait({ questionId: q.id }, { waitForContext: true })).rejects.toBeInstanceOf(ContextFileFailedError);
    expect(h.count('forecasts.create')).toBe(0);
  });

  it('counts both waits against one timeout', async () => {
    const q = await h.client.questions.create(binary);
    await h.client.questions.files.upload(q.id, { file: Buffer.from('x'), filename: 'x.txt' });
    const start = h.mock.clock.now();
    const err = await h.client.forecasts.createAndWait({ questionId: q.id, runMode: 'light' }, { waitForContext: true, timeout: 60_000 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(WaitTimeoutError);
    expect(err).not.toBeInstanceOf(ContextWaitTimeoutError);
    expect(h.mock.clock.now() - start).toBe(60_000);
  });
});
