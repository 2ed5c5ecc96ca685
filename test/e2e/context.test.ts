// The Question context group end to end: notes, files (every upload form), their states on the mock
// clock, readiness, and every limit, through the SDK (refused before sending) and through raw requests
// (refused by the mock), over real HTTP on 127.0.0.1.
import { createReadStream, mkdtempSync, openAsBlob, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import {
  ConflictError,
  ContextNotReadyError,
  NotFoundError,
  PermissionDeniedError,
  UploadsDisabledError,
  ValidationError,
  toFile,
  type ContextFileUploadParams,
} from '../../src/index.js';
import { FILE_PROCESSING_MS, createMockService } from '../../src/testing/index.js';
import { CONTEXT_FILES } from '../../src/testing/models/context/files.js';
import { binary, form, KEYS, MiB, SECOND, useContextMock } from './_context.js';

const h = useContextMock();
const dir = mkdtempSync(join(tmpdir(), 'context-e2e-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The bytes the mock received for a file. */
const stored = (id: string) => h.mock.service.store.collection(CONTEXT_FILES).get(id)!;
const text = (id: string) => new TextDecoder().decode(stored(id).content);
const question = () => h.client.questions.create(binary);

describe('questions.context: notes', () => {
  it('adds notes with each treatment, lists them newest first, edits and removes them', async () => {
    const q = await question();
    const c = h.client.questions.context;
    const plain = await c.create(q.id, { text: 'The vote moved to June.' });
    expect(plain).toMatchObject({ questionId: q.id, text: 'The vote moved to June.', treatment: 'consider', usedByTaskId: null, usedAt: null });
    for (const treatment of ['look_into', 'assume_true', 'ignore'] as const) await c.create(q.id, { text: `A ${treatment} note`, treatment });
    expect((await c.list(q.id).toArray()).map((n) => n.treatment)).toEqual(['ignore', 'assume_true', 'look_into', 'consider']);

    expect(await c.update(q.id, plain.id, { treatment: 'assume_true' })).toMatchObject({ id: plain.id, text: plain.text, treatment: 'assume_true' });
    await c.delete(q.id, plain.id);
    expect(await c.list(q.id).toArray()).toHaveLength(3);
    await expect(c.update(q.id, plain.id, { text: 'x' })).rejects.toBeInstanceOf(NotFoundError);
    await expect(c.delete(q.id, plain.id)).rejects.toBeInstanceOf(NotFoundError);
  });

  it('applies notes to the next forecast only: it uses them up, and the one after sees only newer notes', async () => {
    const q = await question();
    const c = h.client.questions.context;
    const [a, b] = [await c.create(q.id, { text: 'A' }), await c.create(q.id, { text: 'B', treatment: 'ignore' })];
    const first = await h.client.forecasts.create({ questionId: q.id, runMode: 'light' });
    const used = await c.list(q.id).toArray();
    expect(used.map((n) => [n.id, n.usedByTaskId])).toEqual([[b.id, first.id], [a.id, first.id]]);
    expect(used.every((n) => n.usedAt === first.createdAt)).toBe(true);
    // A used note is history: editing it would change nothing, so it is refused.
    await expect(c.update(q.id, a.id, { text: 'A2' })).rejects.toBeInstanceOf(ConflictError);

    await h.client.forecasts.cancel(first.id);
    const later = await c.create(q.id, { text: 'C' });
    const second = await h.client.questions.forecasts.create(q.id, { runMode: 'light' });
    const notes = await c.list(q.id).toArray();
    expect(notes.filter((n) => n.usedByTaskId === second.id).map((n) => n.id)).toEqual([later.id]);
    expect(notes.filter((n) => n.usedByTaskId === first.id)).toHaveLength(2);
  });

  it('keeps the notes when a start is refused', async () => {
    const q = await question();
    await h.client.questions.context.create(q.id, { text: 'A' });
    h.mock.service.forecastControls.setCredits({ balance: 0 });
    await expect(h.client.forecasts.create({ questionId: q.id })).rejects.toBeInstanceOf(ConflictError);
    expect((await h.client.questions.context.list(q.id).toArray())[0]!.usedByTaskId).toBeNull();
  });

  it('refuses bad notes with ValidationError naming the field, sending nothing', async () => {
    const q = await question();
    const c = h.client.questions.context;
    for (const [call, field] of [
      [() => c.create(q.id, { text: '' }), 'text'],
      [() => c.create(q.id, { text: 'x', treatment: 'maybe' as never }), 'treatment'],
      [() => c.update(q.id, 'n1', { treatment: 'doubt' as never }), 'treatment'],
      [() => c.update(q.id, 'ready', { text: 'x' }), 'noteId'],
    ] as const) {
      const err = await call().catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ValidationError);
      expect((err as ValidationError).field).toBe(field);
    }
    expect(h.count('questions.context.create') + h.count('questions.context.update')).toBe(0);
  });

  it('answers raw requests with its own 400, 403, 404 and 409', async () => {
    const q = await question();
    const path = `/questions/${q.id}/context`;
    const bad = await h.raw('POST', path, { body: { text: 'x', treatment: 'maybe' } });
    expect([bad.status, bad.body.error?.type]).toEqual([400, 'invalid_request_error']);
    expect(bad.body.error?.message).toMatch(/^treatment: /);
    expect((await h.raw('POST', path, { body: {} })).body.error?.message).toMatch(/^text: /);
    expect((await h.raw('POST', path, { body: { text: 'x' }, key: KEYS.reader })).status).toBe(403);
    expect((await h.raw('GET', path, { key: KEYS.reader })).status).toBe(200);
    expect((await h.raw('GET', path, { key: KEYS.other })).status).toBe(404);
    const note = await h.client.questions.context.create(q.id, { text: 'x' });
    await h.client.forecasts.create({ questionId: q.id });
    const used = await h.raw('PATCH', `${path}/${note.id}`, { body: { text: 'y' } });
    expect([used.status, used.body.error?.message]).toEqual([409, expect.stringMatching(/^noteId: /)]);
  });
});

describe('questions.files: uploads', () => {
  const path = join(dir, 'survey.csv');
  writeFileSync(path, 'a,b\n1,2\n');
  const forms: Array<[string, () => Promise<ContextFileUploadParams> | ContextFileUploadParams, string]> = [
    ['a File', () => ({ file: new File(['a,b\n1,2\n'], 'survey.csv', { type: 'text/csv' }) }), 'survey.csv'],
    ['a Blob with a filename', () => ({ file: new Blob(['a,b\n1,2\n']), filename: 'blob.csv' }), 'blob.csv'],
    ['a Buffer with a filename', () => ({ file: Buffer.from('a,b\n1,2\n'), filename: 'buffer.csv' }), 'buffer.csv'],
    ['a Uint8Array with a filename', () => ({ file: new TextEncoder().encode('a,b\n1,2\n'), filename: 'bytes.csv' }), 'bytes.csv'],
    ['an ArrayBuffer with a filename', () => ({ file: new TextEncoder().encode('a,b\n1,2\n').buffer, filename: 'ab.csv' }), 'ab.csv'],
    ['a web ReadableStream with a filename', () => ({ file: new Blob(['a,b\n1,2\n']).stream(), filename: 'web.csv' }), 'web.csv'],
    ['a Node Readable with a filename', () => ({ file: Readable.from([Buffer.from('a,b\n'), Buffer.from('1,2\n')]), filename: 'node.csv' }), 'node.csv'],
    ['an fs.ReadStream, named by its path', () => ({ file: createReadStream(path) }), 'survey.csv'],
    ['a file from disk as a Blob (fs.openAsBlob)', async () => ({ file: await openAsBlob(path), filename: 'disk.csv' }), 'disk.csv'],
    ['toFile(stream, name)', async () => ({ file: await toFile(Readable.from([Buffer.from('a,b\n1,2\n')]), 'wrapped.csv') }), 'wrapped.csv'],
  ];

  it.each(forms)('uploads %s as multipart: 201, processing, the bytes and settings received', async (_, make, name) => {
    const q = await question();
    const { data: file, response } = await h.client.questions.files.upload(q.id, { ...(await make()), artifactType: 'dataset', treatment: 'look_into', userNote: 'Column b is in EUR' }).withResponse();
    expect(response.status).toBe(201);
    expect(file).toMatchObject({ questionId: q.id, status: 'processing', filename: name, sizeBytes: 8, artifactType: 'dataset', treatment: 'look_into', userNote: 'Column b is in EUR' });
    expect(text(file.id)).toBe('a,b\n1,2\n');
    expect(h.mock.service.requests.last()?.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
  });

  it.each<[string, string, () => Promise<ContextFileUploadParams> | ContextFileUploadParams]>([
    ['a File with a type', 'application/pdf', () => ({ file: new File(['%PDF'], 'a.pdf', { type: 'application/pdf' }) })],
    ['toFile(data, name, { type })', 'application/pdf', async () => ({ file: await toFile(Buffer.from('%PDF'), 'b.pdf', { type: 'application/pdf' }) })],
    ['openAsBlob(path, { type }) with a filename', 'application/pdf', async () => ({ file: await openAsBlob(path, { type: 'application/pdf' }), filename: 'c.pdf' })],
    ['a Buffer named .pdf (no guess from the name)', 'application/octet-stream', () => ({ file: Buffer.from('%PDF'), filename: 'd.pdf' })],
    ['an fs.ReadStream of a .csv (no guess from the path)', 'application/octet-stream', () => ({ file: createReadStream(path) })],
  ])('sends %s as docs/context.md says: %s', async (_, contentType, make) => {
    const q = await question();
    expect(await h.client.questions.files.upload(q.id, await make())).toMatchObject({ contentType });
  });

  it('takes a 9 MiB stream into the mock, and the defaults of a bare upload', async () => {
    const q = await question();
    async function* chunks() {
      for (let i = 0; i < 9; i++) yield new Uint8Array(MiB).fill(i);
    }
    const file = await h.client.questions.files.upload(q.id, { file: chunks(), filename: 'big.bin' });
    expect(file).toMatchObject({ sizeBytes: 9 * MiB, contentType: 'application/octet-stream', artifactType: 'user_context', treatment: 'consider', userNote: null });
    expect(stored(file.id).content[9 * MiB - 1]).toBe(8);
  });

  it('moves a file from processing to ready on the mock clock, or to failed when a test says so; ready says so', async () => {
    const q = await question();
    const files = h.client.questions.files;
    const good = await files.upload(q.id, { file: new File(['ok'], 'good.txt') });
    const bad = await files.upload(q.id, { file: new File(['%PDF'], 'bad.pdf') });
    h.mock.service.contextControls.failFile(bad.id, 'The PDF is encrypted');
    const { data, response } = await h.client.questions.context.ready(q.id).withResponse();
    expect(data).toEqual({ ready: false });
    expect(response.headers.get('retry-after')).toBe(String(FILE_PROCESSING_MS / SECOND));

    h.mock.clock.advance(FILE_PROCESSING_MS);
    expect(await files.retrieve(q.id, good.id)).toMatchObject({ status: 'ready', failureReason: null });
    expect(await files.retrieve(q.id, bad.id)).toMatchObject({ status: 'failed', failureReason: 'The PDF is encrypted' });
    const after = await h.client.questions.context.ready(q.id).withResponse();
    expect([after.data.ready, after.response.headers.get('retry-after')]).toEqual([false, null]);
    h.mock.clock.advance(24 * 3600 * SECOND);
    expect((await files.retrieve(q.id, bad.id)).status).toBe('failed');

    await files.delete(q.id, bad.id);
    expect(await h.client.questions.context.ready(q.id)).toEqual({ ready: true });
    expect((await files.list(q.id).toArray()).map((f) => f.id)).toEqual([good.id]);
  });

  it('edits a file’s settings, replaces its bytes (processing again), and deletes it', async () => {
    const q = await question();
    const files = h.client.questions.files;
    const f = await files.upload(q.id, { file: Buffer.from('v1'), filename: 'notes.txt' });
    expect(await files.update(q.id, f.id, { treatment: 'assume_true', artifactType: 'assumption', userNote: 'Take it as given' })).toMatchObject({ id: f.id, treatment: 'assume_true', artifactType: 'assumption', userNote: 'Take it as given' });
    h.mock.clock.advance(FILE_PROCESSING_MS);
    const replaced = await files.replace(q.id, f.id, { file: new File(['version 2'], 'notes-v2.txt') });
    expect(replaced).toMatchObject({ id: f.id, status: 'processing', filename: 'notes-v2.txt', sizeBytes: 9, treatment: 'assume_true' });
    expect(text(f.id)).toBe('version 2');
    h.mock.clock.advance(FILE_PROCESSING_MS);
    expect((await files.retrieve(q.id, f.id)).status).toBe('ready');
    await files.delete(q.id, f.id);
    await expect(files.retrieve(q.id, f.id)).rejects.toBeInstanceOf(NotFoundError);
  });

  it('refuses to replace a failed file (409): it is deleted and uploaded again', async () => {
    const q = await question();
    const f = await h.client.questions.files.upload(q.id, { file: Buffer.from('x'), filename: 'x.txt' });
    h.mock.service.contextControls.failFile(f.id);
    h.mock.clock.advance(FILE_PROCESSING_MS);
    await expect(h.client.questions.files.replace(q.id, f.id, { file: Buffer.from('y'), filename: 'y.txt' })).rejects.toBeInstanceOf(ConflictError);
  });
});

describe('questions.files: limits', () => {
  const over = () => new Uint8Array(10 * MiB + 1);

  it('refuses each broken limit with ValidationError naming it, sending nothing', async () => {
    const q = await question();
    const files = h.client.questions.files;
    const file = new File(['x'], 'x.txt');
    const cases: Array<[() => Promise<unknown>, string, RegExp?]> = [
      [() => files.upload(q.id, { file: over(), filename: 'big.bin' }), 'file', /10 MiB/],
      [() => files.upload(q.id, { file: new File([over()], 'big.bin') }), 'file', /10 MiB/],
      [() => files.upload(q.id, { file, userNote: 'n'.repeat(2001) }), 'userNote', /2000/],
      [() => files.upload(q.id, { file, artifactType: 'memo' as never }), 'artifactType'],
      [() => files.upload(q.id, { file, treatment: 'ignore' as never }), 'treatment', /cannot be ignored/],
      [() => files.upload(q.id, { file: 'not a file' as never }), 'file'],
      [() => files.upload(q.id, { file: Buffer.from('x') }), 'filename'],
      [() => files.update(q.id, 'f1', { treatment: 'ignore' as never }), 'treatment', /delete it instead/],
      [() => files.update(q.id, 'f1', { userNote: 'n'.repeat(2001) }), 'userNote'],
      [() => files.replace(q.id, 'f1', { file: over(), filename: 'big.bin' }), 'file'],
    ];
    for (const [call, field, message] of cases) {
      const err = await call().catch((e: unknown) => e);
      expect(err, field).toBeInstanceOf(ValidationError);
      expect((err as ValidationError).field).toBe(field);
      if (message) expect((err as ValidationError).message).toMatch(message);
    }
    // Exactly 10 MiB and 2,000 characters are allowed.
    await files.upload(q.id, { file: new Uint8Array(10 * MiB), filename: 'max.bin', userNote: 'n'.repeat(2000) });
    expect(h.count('questions.files.upload')).toBe(1);
    expect(h.count('questions.files.update') + h.count('questions.files.replace')).toBe(0);
  });

  it('answers raw uploads that break a limit with its own 400 naming the field', async () => {
    const q = await question();
    const path = `/questions/${q.id}/files`;
    const small = new File(['x'], 'x.txt');
    for (const [fields, field] of [
      [{ file: new File([over()], 'big.bin') }, 'file'],
      [{ file: small, userNote: 'n'.repeat(2001) }, 'userNote'],
      [{ file: small, artifactType: 'memo' }, 'artifactType'],
      [{ file: small, treatment: 'ignore' }, 'treatment'],
      [{ userNote: 'no file' }, 'file'],
    ] as const) {
      const res = await h.raw('POST', path, { body: form(fields) });
      expect([res.status, res.body.error?.type], field).toEqual([400, 'invalid_request_error']);
      expect(res.body.error?.message).toMatch(new RegExp(`^${field}: `));
    }
    const patch = await h.raw('PATCH', `${path}/nope`, { body: { treatment: 'ignore' } });
    expect([patch.status, patch.body.error?.message]).toEqual([400, expect.stringMatching(/^treatment: /)]);
    // A PATCH changes the settings only, whatever else its body holds.
    const f = await h.client.questions.files.upload(q.id, { file: Buffer.from('x'), filename: 'x.txt' });
    const sneaky = await h.raw('PATCH', `${path}/${f.id}`, { body: { status: 'ready', sizeBytes: 0, userNote: 'fine' } });
    expect(sneaky.body).toMatchObject({ status: 'processing', sizeBytes: 1, userNote: 'fine' });
    await h.client.questions.files.delete(q.id, f.id);
    expect(await h.client.questions.files.list(q.id).toArray()).toEqual([]);
  });

  it('holds at most 10 files per question (409 on the 11th)', async () => {
    const q = await question();
    for (let i = 0; i < 10; i++) await h.client.questions.files.upload(q.id, { file: Buffer.from(`${i}`), filename: `${i}.txt` });
    const err = await h.client.questions.files.upload(q.id, { file: Buffer.from('x'), filename: 'x.txt' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConflictError);
    expect((err as ConflictError).message).toMatch(/file: a question holds at most 10 files/);
    const raw = await h.raw('POST', `/questions/${q.id}/files`, { body: form({ file: new File(['x'], 'x.txt') }) });
    expect(raw.status).toBe(409);
  });

  it('holds at most 30 MiB per question (409 past it), a replace counted by its new size', async () => {
    const q = await question();
    const files = h.client.questions.files;
    const full = () => new Uint8Array(10 * MiB);
    const [first] = [await files.upload(q.id, { file: full(), filename: '1.bin' }), await files.upload(q.id, { file: full(), filename: '2.bin' })];
    await files.upload(q.id, { file: new Uint8Array(10 * MiB - 1), filename: '3.bin' });
    const err = await files.upload(q.id, { file: new Uint8Array(2), filename: '4.bin' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConflictError);
    expect((err as ConflictError).message).toMatch(/30 MiB/);
    await files.upload(q.id, { file: new Uint8Array(1), filename: '4.bin' });
    await expect(files.replace(q.id, first!.id, { file: new Uint8Array(10 * MiB), filename: '1.bin' })).resolves.toMatchObject({ status: 'processing' });
    await files.delete(q.id, first!.id);
    await expect(files.upload(q.id, { file: new Uint8Array(10 * MiB - 1), filename: '5.bin' })).resolves.toMatchObject({ status: 'processing' });
  });

  it('answers 403 uploads_disabled when the organization turned uploads off, for that organization only', async () => {
    const q = await question();
    const mine = await h.client.questions.files.upload(q.id, { file: Buffer.from('x'), filename: 'x.txt' });
    h.mock.service.contextControls.setUploadsDisabled(true, 'org1');
    const err = await h.client.questions.files.upload(q.id, { file: Buffer.from('x'), filename: 'x.txt' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UploadsDisabledError);
    expect(err).toBeInstanceOf(PermissionDeniedError);
    await expect(h.client.questions.files.replace(q.id, mine.id, { file: Buffer.from('y'), filename: 'y.txt' })).rejects.toBeInstanceOf(UploadsDisabledError);
    const raw = await h.raw('POST', `/questions/${q.id}/files`, { body: form({ file: new File(['x'], 'x.txt') }) });
    expect([raw.status, raw.body.error?.type]).toEqual([403, 'uploads_disabled']);
    // Reading and removing still work; another organization still uploads.
    await h.client.questions.files.delete(q.id, mine.id);
    const outsider = h.connect({ apiKey: KEYS.other });
    const theirs = await outsider.questions.create(binary);
    await expect(outsider.questions.files.upload(theirs.id, { file: Buffer.from('x'), filename: 'x.txt' })).resolves.toMatchObject({ status: 'processing' });
  });

  it('takes the uploadsDisabled option at start: true for every organization, or a list of ids', async () => {
    const upload = (service: ReturnType<typeof createMockService>, questionId: string) =>
      service.handle(new Request(`http://mock/api/v1/external/questions/${questionId}/files`, { method: 'POST', headers: { authorization: `Bearer ${service.apiKey}` }, body: form({ file: new File(['x'], 'x.txt') }) }));
    for (const setting of [true, ['org-a']] as const) {
      const service = createMockService({ apiKeys: [{ key: 'pre_a', organizationId: 'org-a' }], uploadsDisabled: setting });
      const q = await (await service.handle(new Request('http://mock/api/v1/external/questions', { method: 'POST', headers: { authorization: 'Bearer pre_a', 'content-type': 'application/json' }, body: JSON.stringify(binary) }))).json();
      expect((await upload(service, q.id)).status).toBe(403);
      service.reset();
      const again = await (await service.handle(new Request('http://mock/api/v1/external/questions', { method: 'POST', headers: { authorization: 'Bearer pre_a', 'content-type': 'application/json' }, body: JSON.stringify(binary) }))).json();
      expect((await upload(service, again.id)).status, 'a setting outlives reset()').toBe(403);
    }
  });

  it('needs questions:write to upload; questions:read reads files and readiness', async () => {
    const q = await question();
    const f = await h.client.questions.files.upload(q.id, { file: Buffer.from('x'), filename: 'x.txt' });
    const reader = h.connect({ apiKey: KEYS.reader });
    await expect(reader.questions.files.upload(q.id, { file: Buffer.from('x'), filename: 'x.txt' })).rejects.toBeInstanceOf(PermissionDeniedError);
    await expect(reader.questions.files.retrieve(q.id, f.id)).resolves.toMatchObject({ id: f.id });
    await expect(reader.questions.context.ready(q.id)).resolves.toEqual({ ready: false });
    await expect(h.connect({ apiKey: KEYS.other }).questions.files.list(q.id)).rejects.toBeInstanceOf(NotFoundError);
  });
});

describe('files and forecasts', () => {
  it('answers 409 context_not_ready listing the processing files, from every start route, until they are ready', async () => {
    const q = await question();
    const f = await h.client.questions.files.upload(q.id, { file: Buffer.from('x'), filename: 'x.txt' });
    const listed = [{ id: f.id, status: 'processing', filename: 'x.txt', questionId: q.id }];
    for (const start of [() => h.client.forecasts.create({ questionId: q.id }), () => h.client.questions.forecasts.create(q.id), () => h.client.forecasts.createBatch({ items: [{ questionId: q.id }] })]) {
      const result = await start().catch((e: unknown) => e);
      if (result instanceof ContextNotReadyError) expect(result.files).toEqual(listed);
      else expect(result).toMatchObject({ items: [{ status: 'rejected', error: { type: 'context_not_ready', files: listed } }] });
    }
    const raw = await h.raw('POST', '/forecasts', { body: { questionId: q.id } });
    expect([raw.status, raw.body.error?.type, raw.body.error?.['files']]).toEqual([409, 'context_not_ready', listed]);

    // A schedule skips its occurrence, a watch starts nothing.
    await h.client.questions.schedule.update(q.id, { intervalCount: 3, intervalUnit: 'hours' });
    h.mock.clock.advance(SECOND); // the first occurrence falls due now
    expect((await h.client.questions.schedule.retrieve(q.id)).occurrenceCount).toBe(0);
    await h.client.questions.watch.update(q.id, { enabled: true, changeThreshold: 0.1 });
    expect(h.mock.service.forecastControls.moveNews(q.id, 0.5)).toBeNull();

    h.mock.clock.advance(FILE_PROCESSING_MS);
    expect((await h.client.forecasts.create({ questionId: q.id })).status).toBe('queued');
  });

  it('lets a failed file be (it never reaches the forecast), and allowIncompleteContext run while one processes', async () => {
    const q = await question();
    const f = await h.client.questions.files.upload(q.id, { file: Buffer.from('x'), filename: 'x.txt' });
    expect((await h.client.forecasts.create({ questionId: q.id, allowIncompleteContext: true })).status).toBe('queued');
    const other = await question();
    const g = await h.client.questions.files.upload(other.id, { file: Buffer.from('x'), filename: 'x.txt' });
    h.mock.service.contextControls.failFile(g.id);
    h.mock.clock.advance(FILE_PROCESSING_MS);
    expect((await h.client.questions.files.retrieve(q.id, f.id)).status).toBe('ready');
    expect((await h.client.forecasts.create({ questionId: other.id })).status).toBe('queued');
  });
});
