// The Forecast presets group end to end: presets and their scopes, files (multipart and JSON),
// defaults, which preset a forecast uses and what its task shows, and every rule through the SDK and
// through raw requests, over real HTTP on 127.0.0.1.
import { describe, expect, it } from 'vitest';
import {
  BadRequestError,
  ConflictError,
  ContextNotReadyError,
  NotFoundError,
  PermissionDeniedError,
  UploadsDisabledError,
  ValidationError,
} from '../../src/index.js';
import { FILE_PROCESSING_MS } from '../../src/testing/index.js';
import { binary, form, KEYS, MiB, SECOND, useContextMock } from './_context.js';

const h = useContextMock();
const admin = () => h.connect({ apiKey: KEYS.admin });
const colleague = () => h.connect({ apiKey: KEYS.colleague });
const personal = (name = 'Sceptic') => h.client.presets.create({ scope: 'personal', name });

describe('presets', () => {
  it('adds, reads, lists, edits and deletes a personal preset', async () => {
    const { data: created, response } = await h.client.presets
      .create({ scope: 'personal', name: 'Sceptic', disabledConnectionIds: ['c1'], notes: [{ text: 'Distrust press releases' }, { text: 'Check the base rate', treatment: 'look_into' }] })
      .withResponse();
    expect(response.status).toBe(201);
    expect(created).toMatchObject({
      scope: 'personal',
      name: 'Sceptic',
      disabledConnectionIds: ['c1'],
      notes: [{ text: 'Distrust press releases', treatment: 'consider' }, { text: 'Check the base rate', treatment: 'look_into' }],
      files: [],
    });
    expect(await h.client.presets.retrieve(created.id)).toEqual(created);
    const edited = await h.client.presets.update(created.id, { name: 'Sceptic v2', notes: [{ text: 'Only this', treatment: 'assume_true' }] });
    expect(edited).toMatchObject({ name: 'Sceptic v2', disabledConnectionIds: ['c1'], notes: [{ text: 'Only this', treatment: 'assume_true' }] });
    expect((await h.client.presets.list().toArray()).map((p) => p.id)).toEqual([created.id]);
    // Another user's personal preset is not there for them.
    await expect(colleague().presets.retrieve(created.id)).rejects.toBeInstanceOf(NotFoundError);
    expect(await colleague().presets.list().toArray()).toEqual([]);
    await h.client.presets.delete(created.id);
    await expect(h.client.presets.retrieve(created.id)).rejects.toBeInstanceOf(NotFoundError);
  });

  it('lets only an organization admin add, change or delete an organization preset; every member reads and uses it', async () => {
    await expect(h.client.presets.create({ scope: 'organization', name: 'House' })).rejects.toBeInstanceOf(PermissionDeniedError);
    const raw = await h.raw('POST', '/forecast-presets', { body: { scope: 'organization', name: 'House' } });
    expect([raw.status, raw.body.error?.type]).toEqual([403, 'permission_denied']);
    expect(await admin().presets.list().toArray()).toEqual([]);

    const house = await admin().presets.create({ scope: 'organization', name: 'House' });
    expect((await colleague().presets.retrieve(house.id)).name).toBe('House');
    await expect(h.client.presets.update(house.id, { name: 'Mine now' })).rejects.toBeInstanceOf(PermissionDeniedError);
    await expect(h.client.presets.delete(house.id)).rejects.toBeInstanceOf(PermissionDeniedError);
    await expect(h.client.presets.files.upload(house.id, { file: Buffer.from('x'), filename: 'x.txt' })).rejects.toBeInstanceOf(PermissionDeniedError);
    await expect(h.connect({ apiKey: KEYS.other }).presets.retrieve(house.id)).rejects.toBeInstanceOf(NotFoundError);
    const q = await h.client.questions.create(binary);
    expect((await h.client.forecasts.create({ questionId: q.id, presetId: house.id })).preset).toEqual({ used: true, id: house.id, name: 'House' });
    expect((await admin().presets.update(house.id, { name: 'House v2' })).name).toBe('House v2');
  });

  // The spec gives presets no file limit, and the mock kept every byte uploaded (60 uploads of
  // 10 MiB held 830 MB): a preset holds what a question may, 10 files and 30 MiB.
  it('holds at most 10 files and 30 MiB of files in a preset, as a question does (409 past either)', async () => {
    const [few, big] = await Promise.all([h.client.presets.create({ scope: 'personal', name: 'Few' }), h.client.presets.create({ scope: 'personal', name: 'Big' })]);
    for (let i = 0; i < 10; i++) await h.client.presets.files.upload(few.id, { file: Buffer.from('x'), filename: `f${i}.txt` });
    const eleventh = await h.client.presets.files.upload(few.id, { file: Buffer.from('x'), filename: 'f10.txt' }).catch((e: unknown) => e);
    expect(eleventh).toBeInstanceOf(ConflictError);
    expect((eleventh as Error).message).toContain('a preset holds at most 10 files');
    for (let i = 0; i < 3; i++) await h.client.presets.files.upload(big.id, { file: Buffer.alloc(10 * MiB), filename: `b${i}.bin` });
    await expect(h.client.presets.files.upload(big.id, { file: Buffer.from('x'), filename: 'one-more.txt' })).rejects.toThrow("a preset's files may hold at most 30 MiB");
  });

  it('needs forecasts:write to change presets; forecasts:read reads them', async () => {
    const p = await personal();
    const reader = h.connect({ apiKey: KEYS.reader });
    await expect(reader.presets.create({ scope: 'personal', name: 'x' })).rejects.toBeInstanceOf(PermissionDeniedError);
    await expect(reader.presets.retrieve(p.id)).resolves.toMatchObject({ id: p.id });
    await expect(reader.presets.retrieveDefaults()).resolves.toEqual({ userPresetId: null, organizationPresetId: null });
  });
});

describe('default presets', () => {
  it('sets and clears your default; the organization default needs an admin and an organization preset', async () => {
    expect(await h.client.presets.retrieveDefaults()).toEqual({ userPresetId: null, organizationPresetId: null });
    const mine = await personal();
    expect(await h.client.presets.updateDefaults({ userPresetId: mine.id })).toEqual({ userPresetId: mine.id, organizationPresetId: null });

    await expect(h.client.presets.updateDefaults({ organizationPresetId: null })).rejects.toBeInstanceOf(PermissionDeniedError);
    const raw = await h.raw('PUT', '/forecast-presets/defaults', { body: { organizationPresetId: null } });
    expect([raw.status, raw.body.error?.message]).toEqual([403, expect.stringMatching(/^organizationPresetId: /)]);

    const adminsOwn = await admin().presets.create({ scope: 'personal', name: 'Mine' });
    const err = await admin().presets.updateDefaults({ organizationPresetId: adminsOwn.id }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BadRequestError);
    expect((err as BadRequestError).message).toMatch(/organizationPresetId: must be an organization preset/);
    const house = await admin().presets.create({ scope: 'organization', name: 'House' });
    await admin().presets.updateDefaults({ organizationPresetId: house.id });
    expect(await h.client.presets.retrieveDefaults()).toEqual({ userPresetId: mine.id, organizationPresetId: house.id });

    await expect(h.client.presets.updateDefaults({ userPresetId: 'nope' })).rejects.toBeInstanceOf(NotFoundError);
    expect(await h.client.presets.updateDefaults({ userPresetId: null })).toEqual({ userPresetId: null, organizationPresetId: house.id });
  });

  it('forgets a deleted preset wherever it was the default or a question’s own', async () => {
    const mine = await personal();
    const q = await h.client.questions.create(binary);
    await h.client.presets.updateDefaults({ userPresetId: mine.id });
    h.mock.service.contextControls.setQuestionPreset(q.id, mine.id);
    await h.client.presets.delete(mine.id);
    expect((await h.client.presets.retrieveDefaults()).userPresetId).toBeNull();
    expect((await h.client.forecasts.create({ questionId: q.id })).preset).toBeNull();
  });
});

describe('the preset a forecast uses', () => {
  it('takes presetId, else the question’s own preset, else your default, else the organization’s; `none` uses none', async () => {
    const house = await admin().presets.create({ scope: 'organization', name: 'House' });
    await admin().presets.updateDefaults({ organizationPresetId: house.id });
    const [mine, own, given] = [await personal('Mine'), await personal('Own'), await personal('Given')];
    const used = async (presetId: string | undefined, setup: () => Promise<unknown> | void = () => {}) => {
      const q = await h.client.questions.create(binary);
      await setup();
      h.mock.service.contextControls.setQuestionPreset(q.id, own.id);
      if (presetId === 'no question preset') h.mock.service.contextControls.setQuestionPreset(q.id, null);
      const task = await h.client.forecasts.create({ questionId: q.id, ...(presetId && presetId !== 'no question preset' ? { presetId } : {}) });
      return task.preset?.name ?? null;
    };
    expect(await used(given.id)).toBe('Given');
    expect(await used('none')).toBeNull();
    expect(await used(undefined)).toBe('Own');
    expect(await used('no question preset')).toBe('House');
    await h.client.presets.updateDefaults({ userPresetId: mine.id });
    expect(await used('no question preset')).toBe('Mine');
    expect(await used(undefined)).toBe('Own');
  });

  it('uses a schedule’s or watch’s preset for every forecast it starts, and `none` for none', async () => {
    const mine = await personal('Mine');
    await h.client.presets.updateDefaults({ userPresetId: mine.id });
    const q = await h.client.questions.create(binary);
    await h.client.questions.watch.update(q.id, { enabled: true, changeThreshold: 0.1, presetId: 'none' });
    const started = h.mock.service.forecastControls.moveNews(q.id, 0.5)!;
    expect((await h.client.forecasts.retrieve(started.id)).preset).toBeNull();
    await expect(h.client.questions.schedule.update(q.id, { intervalCount: 1, intervalUnit: 'days', presetId: 'gone' })).rejects.toBeInstanceOf(NotFoundError);
  });

  it('shows the preset’s id and name only to a reader who may see it, with a warning when others may read it', async () => {
    const mine = await personal('Private notes');
    const q = await h.client.questions.create({ ...binary, visibility: 'organization' });
    h.mock.service.contextControls.setQuestionPreset(q.id, mine.id);
    const task = await h.client.forecasts.create({ questionId: q.id });
    expect(task.preset).toEqual({ used: true, id: mine.id, name: 'Private notes' });
    expect(task.warnings).toEqual([{ code: 'preset_content_may_show_in_forecast' }]);
    expect((await colleague().forecasts.retrieve(task.id)).preset).toEqual({ used: true });
    // A private question with your own preset: no warning.
    const other = await h.client.questions.create(binary);
    expect((await h.client.forecasts.create({ questionId: other.id, presetId: mine.id })).warnings).toEqual([]);
  });

  it('skips a question’s own preset the starter cannot see: the starter’s default applies, and its files are never listed', async () => {
    const mine = await personal('Private notes');
    await h.client.presets.files.upload(mine.id, { file: Buffer.from('x'), filename: 'secret-plan.txt' });
    const q = await h.client.questions.create({ ...binary, visibility: 'organization' });
    h.mock.service.contextControls.setQuestionPreset(q.id, mine.id);
    const theirs = await colleague().presets.create({ scope: 'personal', name: 'Theirs' });
    await colleague().presets.updateDefaults({ userPresetId: theirs.id });
    const task = await colleague().forecasts.create({ questionId: q.id });
    expect(task.preset).toEqual({ used: true, id: theirs.id, name: 'Theirs' });
    await colleague().presets.updateDefaults({ userPresetId: null });
    // With no default either, no preset at all.
    const other = await h.client.questions.create({ ...binary, visibility: 'organization' });
    h.mock.service.contextControls.setQuestionPreset(other.id, mine.id);
    const none = await colleague().forecasts.create({ questionId: other.id }).catch((e: unknown) => e);
    expect(none).not.toBeInstanceOf(ContextNotReadyError);
    expect((none as { preset: unknown }).preset).toBeNull();
  });

  it('refuses a presetId the caller cannot see with 404 naming presetId', async () => {
    const q = await h.client.questions.create(binary);
    const theirs = await colleague().presets.create({ scope: 'personal', name: 'Theirs' });
    for (const presetId of ['nope', theirs.id]) {
      const err = await h.client.forecasts.create({ questionId: q.id, presetId }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(NotFoundError);
      expect((err as NotFoundError).message).toMatch(/presetId: no forecast preset/);
    }
  });
});

describe('presets.files', () => {
  it('adds a file as multipart or as JSON {filename, contentBase64}; reads, edits and deletes it; the preset lists it', async () => {
    const p = await personal();
    const files = h.client.presets.files;
    const { data: multipart, response } = await files.upload(p.id, { file: new File(['Prefer primary sources.'], 'sources.txt', { type: 'text/plain' }), treatment: 'assume_true' }).withResponse();
    expect(response.status).toBe(201);
    expect(multipart).toMatchObject({ presetId: p.id, status: 'processing', filename: 'sources.txt', contentType: 'text/plain', sizeBytes: 23, treatment: 'assume_true' });
    const json = await files.upload(p.id, { filename: 'style.md', contentBase64: Buffer.from('# House style').toString('base64'), artifactType: 'background' });
    expect(json).toMatchObject({ presetId: p.id, filename: 'style.md', sizeBytes: 13, artifactType: 'background' });
    expect(h.mock.service.requests.last()?.headers['content-type']).toBe('application/json');

    h.mock.clock.advance(FILE_PROCESSING_MS);
    expect((await files.retrieve(p.id, json.id)).status).toBe('ready');
    expect(await files.update(p.id, json.id, { userNote: 'Tone only' })).toMatchObject({ userNote: 'Tone only' });
    expect((await h.client.presets.retrieve(p.id)).files?.map((f) => f.id)).toEqual([json.id, multipart.id]);
    await files.delete(p.id, multipart.id);
    await expect(files.retrieve(p.id, multipart.id)).rejects.toBeInstanceOf(NotFoundError);
    await expect(files.retrieve(p.id, 'nope')).rejects.toBeInstanceOf(NotFoundError);
  });

  it('answers 409 context_not_ready while a preset file processes, whichever way the preset is chosen', async () => {
    const p = await personal();
    const f = await h.client.presets.files.upload(p.id, { file: Buffer.from('x'), filename: 'x.txt' });
    const q = await h.client.questions.create(binary);
    const listed = [{ id: f.id, status: 'processing', filename: 'x.txt', presetId: p.id }];
    const err = await h.client.forecasts.create({ questionId: q.id, presetId: p.id }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ContextNotReadyError);
    expect((err as ContextNotReadyError).files).toEqual(listed);
    // As the default preset, and through a watch and a schedule.
    await h.client.presets.updateDefaults({ userPresetId: p.id });
    await expect(h.client.questions.forecasts.create(q.id)).rejects.toBeInstanceOf(ContextNotReadyError);
    expect((await h.client.forecasts.create({ questionId: q.id, presetId: 'none' })).preset).toBeNull();
    const other = await h.client.questions.create(binary);
    await h.client.questions.watch.update(other.id, { enabled: true, changeThreshold: 0.1, presetId: p.id });
    expect(h.mock.service.forecastControls.moveNews(other.id, 0.5)).toBeNull();
    await h.client.questions.schedule.update(other.id, { intervalCount: 3, intervalUnit: 'hours', presetId: p.id });
    h.mock.clock.advance(SECOND);
    expect((await h.client.questions.schedule.retrieve(other.id)).occurrenceCount).toBe(0);

    h.mock.clock.advance(FILE_PROCESSING_MS);
    expect((await h.client.forecasts.create({ questionId: other.id, presetId: p.id })).preset).toMatchObject({ id: p.id });
  });

  it('refuses broken limits with ValidationError naming the field, sending nothing', async () => {
    const p = await personal();
    const cases: Array<[() => Promise<unknown>, string, RegExp?]> = [
      [() => h.client.presets.create({ name: 'No scope' } as never), 'scope'],
      [() => h.client.presets.create({ scope: 'team' as never, name: 'x' }), 'scope'],
      [() => h.client.presets.create({ scope: 'personal', name: '' }), 'name'],
      [() => h.client.presets.create({ scope: 'personal', name: 'x', notes: [{ text: 'x', treatment: 'maybe' as never }] }), 'notes.0.treatment'],
      [() => h.client.presets.update(p.id, { disabledConnectionIds: [''] }), 'disabledConnectionIds.0'],
      [() => h.client.presets.updateDefaults({ userPresetId: '' }), 'userPresetId'],
      [() => h.client.presets.retrieve('defaults'), 'presetId'],
      [() => h.client.presets.files.upload(p.id, { file: new Uint8Array(10 * MiB + 1), filename: 'big.bin' }), 'file'],
      [() => h.client.presets.files.upload(p.id, { file: Buffer.from('x'), filename: 'x', treatment: 'ignore' as never }), 'treatment'],
      [() => h.client.presets.files.upload(p.id, { filename: 'x.txt', contentBase64: 'not base64!' }), 'contentBase64'],
      [() => h.client.presets.files.upload(p.id, { filename: 'big.bin', contentBase64: 'A'.repeat(4 * Math.ceil((10 * MiB + 1) / 3)) }), 'contentBase64', /10 MiB/],
      [() => h.client.presets.files.upload(p.id, { filename: '', contentBase64: '' }), 'filename'],
      [() => h.client.presets.files.update(p.id, 'f1', { userNote: 'n'.repeat(2001) }), 'userNote'],
    ];
    for (const [call, field, message] of cases) {
      const err = await call().catch((e: unknown) => e);
      expect(err, field).toBeInstanceOf(ValidationError);
      expect((err as ValidationError).field).toBe(field);
      if (message) expect((err as ValidationError).message).toMatch(message);
    }
    const sent = h.mock.service.requests.list().filter((r) => r.operation?.startsWith('presets.'));
    expect(sent.map((r) => r.operation)).toEqual(['presets.create']);
  });

  it('answers raw requests that break a rule with its own 400 and 403', async () => {
    const p = await personal();
    const path = `/forecast-presets/${p.id}/files`;
    for (const [body, field] of [
      [{ filename: 'x.txt', contentBase64: 'not base64!' }, 'contentBase64'],
      [{ contentBase64: 'eA==' }, 'filename'],
      [form({ file: new File([new Uint8Array(10 * MiB + 1)], 'big.bin') }), 'file'],
      [form({ file: new File(['x'], 'x.txt'), treatment: 'ignore' }), 'treatment'],
    ] as const) {
      const res = await h.raw('POST', path, { body });
      expect([res.status, res.body.error?.message], field).toEqual([400, expect.stringMatching(new RegExp(`^${field}: `))]);
    }
    const bad = await h.raw('POST', '/forecast-presets', { body: { scope: 'team', name: 'x' } });
    expect([bad.status, bad.body.error?.message]).toEqual([400, expect.stringMatching(/^scope: /)]);
    h.mock.service.contextControls.setUploadsDisabled(true);
    const off = await h.raw('POST', path, { body: { filename: 'x.txt', contentBase64: 'eA==' } });
    expect([off.status, off.body.error?.type]).toEqual([403, 'uploads_disabled']);
    await expect(h.client.presets.files.upload(p.id, { filename: 'x.txt', contentBase64: 'eA==' })).rejects.toBeInstanceOf(UploadsDisabledError);
  });
});
