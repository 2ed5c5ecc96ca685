// What docs/context.md promises and no other test pins down, checked claim by claim: the SDK
// against the mock service over real HTTP on 127.0.0.1, on the mock's manual clock.
import { createReadStream, mkdtempSync, openAsBlob, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import {
  APIConnectionError,
  BadRequestError,
  ContextNotReadyError,
  OverloadedError,
  toFile,
  type ContextFileUploadParams,
  type OperationName,
} from '../../src/index.js';
import { binary, MiB, SECOND, useContextMock } from './_context.js';

const h = useContextMock();
const dir = mkdtempSync(join(tmpdir(), 'documented-context-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const onDisk = join(dir, 'survey.csv');
writeFileSync(onDisk, 'a,b\n1,2\n');

const rejection = (promise: PromiseLike<unknown>) => Promise.resolve(promise).then(() => undefined, (e: unknown) => e);
/** What reached the mock for the uploads, in order. */
const uploads = () => h.mock.service.requests.list({ operation: 'questions.files.upload' });

describe('notes (context.md, Notes)', () => {
  it('sends notes given with a forecast for that forecast only: they are not stored on the question', async () => {
    const q = await h.client.questions.create(binary);
    const stored = await h.client.questions.context.create(q.id, { text: 'Stored on the question' });
    const inline = [{ text: 'Only for this forecast', treatment: 'assume_true' as const }];
    const task = await h.client.forecasts.create({ questionId: q.id, runMode: 'light', context: inline });
    expect(h.mock.service.requests.last({ operation: 'forecasts.create' })?.body).toMatchObject({ context: inline });
    const notes = await h.client.questions.context.list(q.id).toArray();
    expect(notes.map((n) => [n.id, n.text, n.usedByTaskId])).toEqual([[stored.id, 'Stored on the question', task.id]]);
  });
});

describe('readiness (context.md, Readiness)', () => {
  it('ready speaks for the question’s files; a refused start lists the question’s and the preset’s unfinished files, and uses no note', async () => {
    const q = await h.client.questions.create(binary);
    expect(await h.client.questions.context.ready(q.id)).toEqual({ ready: true });
    const note = await h.client.questions.context.create(q.id, { text: 'For the next forecast' });
    const preset = await h.client.presets.create({ scope: 'personal', name: 'Slow files' });
    const qf = await h.client.questions.files.upload(q.id, { file: Buffer.from('q'), filename: 'question.txt' });
    h.mock.clock.advance(5 * SECOND);
    const pf = await h.client.presets.files.upload(preset.id, { file: Buffer.from('p'), filename: 'preset.txt' });
    const questionFile = { id: qf.id, status: 'processing', filename: 'question.txt', questionId: q.id };
    const presetFile = { id: pf.id, status: 'processing', filename: 'preset.txt', presetId: preset.id };
    /** The files listed, in any order: exactly these two. */
    const bothListed = (err: unknown) => {
      expect(err).toBeInstanceOf(ContextNotReadyError);
      const { files } = err as ContextNotReadyError;
      expect(files).toHaveLength(2);
      expect(files).toEqual(expect.arrayContaining([questionFile, presetFile]));
    };

    bothListed(await rejection(h.client.forecasts.create({ questionId: q.id, presetId: preset.id })));
    // The preset chosen by default counts the same.
    await h.client.presets.updateDefaults({ userPresetId: preset.id });
    bothListed(await rejection(h.client.forecasts.create({ questionId: q.id })));

    // The question's file is ready, the preset's is not: ready says true, the start still waits for the preset.
    h.mock.clock.advance(5 * SECOND);
    expect(await h.client.questions.context.ready(q.id)).toEqual({ ready: true });
    const presetOnly = await rejection(h.client.forecasts.create({ questionId: q.id }));
    expect(presetOnly).toBeInstanceOf(ContextNotReadyError);
    expect((presetOnly as ContextNotReadyError).files).toEqual([presetFile]);

    const [unused] = await h.client.questions.context.list(q.id).toArray();
    expect([unused!.id, unused!.usedByTaskId, unused!.usedAt]).toEqual([note.id, null, null]);
  });
});

describe('waitUntilReady’s rounds (context.md, Readiness)', () => {
  it('reads the ready endpoint and the file list each round; without Retry-After it waits 1 s, doubling up to 15 s', async () => {
    const q = await h.client.questions.create(binary);
    h.mock.service.forecastControls.addContextFile(q.id); // never finishes: the ready endpoint names no wait
    const start = h.mock.clock.now();
    await rejection(h.client.questions.files.waitUntilReady(q.id, { timeout: 50 * SECOND }));
    const at = (operation: OperationName) => h.mock.service.requests.list({ operation }).map((r) => r.at - start);
    expect(at('questions.context.ready')).toEqual([0, 1, 3, 7, 15, 30, 45].map((s) => s * SECOND));
    expect(at('questions.files.list')).toEqual(at('questions.context.ready'));
  });
});

describe('upload forms and retries (context.md, Uploading)', () => {
  const known: Array<[string, () => Promise<ContextFileUploadParams> | ContextFileUploadParams]> = [
    ['a File', () => ({ file: new File(['a,b\n1,2\n'], 'survey.csv') })],
    ['a Blob with a filename', () => ({ file: new Blob(['a,b\n1,2\n']), filename: 'survey.csv' })],
    ['a Buffer with a filename', () => ({ file: Buffer.from('a,b\n1,2\n'), filename: 'survey.csv' })],
    ['a Uint8Array with a filename', () => ({ file: new TextEncoder().encode('a,b\n1,2\n'), filename: 'survey.csv' })],
    ['an ArrayBuffer with a filename', () => ({ file: new TextEncoder().encode('a,b\n1,2\n').buffer, filename: 'survey.csv' })],
    ['a file on disk as openAsBlob', async () => ({ file: await openAsBlob(onDisk), filename: 'survey.csv' })],
    ['toFile(stream), read into memory first', async () => ({ file: await toFile(Readable.from([Buffer.from('a,b\n'), Buffer.from('1,2\n')]), 'survey.csv') })],
  ];

  it.each(known)('sends %s with its length and retries it after a 503', async (_, make) => {
    const q = await h.client.questions.create(binary);
    h.mock.service.faults.add({ operation: 'questions.files.upload', status: 503 });
    const file = await h.client.questions.files.upload(q.id, await make());
    expect(file).toMatchObject({ status: 'processing', sizeBytes: 8, filename: 'survey.csv' });
    expect(uploads().map((r) => r.status)).toEqual([503, 201]);
    for (const r of uploads()) expect(r.headers['content-length']).toMatch(/^\d+$/);
    expect((await h.client.questions.files.list(q.id).toArray()).map((f) => f.id)).toEqual([file.id]);
  });

  const streams: Array<[string, () => ContextFileUploadParams]> = [
    ['a file on disk as createReadStream', () => ({ file: createReadStream(onDisk) })],
    ['a web ReadableStream', () => ({ file: new Blob(['a,b\n1,2\n']).stream(), filename: 'survey.csv' })],
    ['a Node Readable', () => ({ file: Readable.from([Buffer.from('a,b\n'), Buffer.from('1,2\n')]), filename: 'survey.csv' })],
    [
      'an async iterable of bytes',
      () => ({
        file: (async function* () {
          yield new TextEncoder().encode('a,b\n1,2\n');
        })(),
        filename: 'survey.csv',
      }),
    ],
  ];

  it.each(streams)('streams %s without a length and never retries it after a 503', async (_, make) => {
    const q = await h.client.questions.create(binary);
    h.mock.service.faults.add({ operation: 'questions.files.upload', status: 503 });
    const err = await rejection(h.client.questions.files.upload(q.id, make()));
    expect(err).toBeInstanceOf(OverloadedError);
    expect(uploads().map((r) => r.status)).toEqual([503]);
    expect(uploads()[0]!.headers['content-length']).toBeUndefined();
    expect(await h.client.questions.files.list(q.id).toArray()).toEqual([]);
  });

  it('rejects a stream upload whose connection drops, sending it once', async () => {
    const q = await h.client.questions.create(binary);
    h.mock.service.faults.add({ operation: 'questions.files.upload', drop: true });
    const err = await rejection(h.client.questions.files.upload(q.id, { file: Readable.from([Buffer.from('x')]), filename: 'x.txt' }));
    expect(err).toBeInstanceOf(APIConnectionError);
    expect(uploads()).toHaveLength(1);
  });
});

describe('the size of a stream (context.md, Limits, checked before sending)', () => {
  it('sends a stream over 10 MiB (its size is unknown) and the service refuses it with 400 naming file', async () => {
    const q = await h.client.questions.create(binary);
    async function* chunks() {
      for (let i = 0; i < 10; i++) yield new Uint8Array(MiB);
      yield new Uint8Array(1);
    }
    const err = await rejection(h.client.questions.files.upload(q.id, { file: chunks(), filename: 'big.bin' }));
    expect(err).toBeInstanceOf(BadRequestError);
    expect(err).toMatchObject({ status: 400, type: 'invalid_request_error', message: expect.stringMatching(/\bfile: /) });
    expect(uploads().map((r) => r.status)).toEqual([400]);
    expect(await h.client.questions.files.list(q.id).toArray()).toEqual([]);
  });
});
