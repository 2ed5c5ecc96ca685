// Question templates end to end: the SDK against the mock over real HTTP, blanks and their rules,
// building questions and forecasts from templates, scopes, and template files.
import { describe, expect, it } from 'vitest';
import { BadRequestError, ContextNotReadyError, NotFoundError, PermissionDeniedError, toFile, type QuestionTemplateCreateParams } from '../../src/index.js';
import { BUILTIN_TEMPLATES } from '../../src/testing/index.js';
import { binary, KEYS, useOrgMock } from './_org.js';
import { rain } from './_templates.js';

const h = useOrgMock();

const values = { city: 'Oslo', date: '1 June 2027' };

describe('questionTemplates', () => {
  it('lists the builtin templates with their blanks, and filters by scope', async () => {
    const mine = await h.client.questionTemplates.create(rain);
    const all = await h.client.questionTemplates.list().toArray();
    expect(all.map((t) => t.id)).toEqual([...BUILTIN_TEMPLATES.map((t) => t.id), mine.id]);
    for (const t of all) expect(t.blanks.length).toBeGreaterThan(0);
    const builtin = await h.client.questionTemplates.list({ scope: 'builtin' }).toArray();
    expect(builtin.every((t) => t.scope === 'builtin')).toBe(true);
    expect((await h.client.questionTemplates.list({ scope: 'personal' })).data.map((t) => t.id)).toEqual([mine.id]);
    // Every key sees the builtin ones.
    expect((await h.connect(KEYS.other).questionTemplates.list({ scope: 'builtin' })).data).toHaveLength(BUILTIN_TEMPLATES.length);
  });

  it('creates a template and builds a question from it: blanks filled, {{ and }} as braces, the template recorded', async () => {
    const strict = h.connect(KEYS.admin, { validateResponses: true });
    const template = await strict.questionTemplates.create(rain);
    expect(template).toMatchObject({ scope: 'personal', name: 'Rain in a city', questionType: 'binary', fields: rain.fields, tags: ['Weather'], files: [] });
    expect(template.blanks).toEqual([
      { key: 'city', label: 'City', hint: 'Paris' },
      { key: 'date', label: 'Date', hint: null },
    ]);
    expect(await strict.questionTemplates.retrieve(template.id)).toEqual(template);

    const question = await strict.questions.create({ templateId: template.id, templateValues: values });
    expect(question).toMatchObject({
      type: 'binary',
      title: 'Will it rain in Oslo on 1 June 2027?',
      resolutionCriteria: 'Resolves YES if the Oslo weather service records rain on 1 June 2027.',
      finePrint: 'Rain means at least 0.2 mm, written {0.2 mm} in the {daily} record.',
      tags: [{ name: 'Weather', slug: 'weather' }],
      sourceTemplate: { id: template.id, name: 'Rain in a city', scope: 'personal', templateValues: values },
    });
  });

  it('takes a key of any text without braces: the spec writes a blank {key} and says no more', async () => {
    const template = await h.client.questionTemplates.create({
      ...rain,
      fields: { title: 'Will it rain in {città} from {start-date} to {the end}?' },
      blanks: [{ key: 'città' }, { key: 'start-date' }, { key: 'the end' }],
    });
    const question = await h.client.questions.create({ templateId: template.id, templateValues: { città: 'Roma', 'start-date': '1 May', 'the end': '3 May' } });
    expect(question.title).toBe('Will it rain in Roma from 1 May to 3 May?');
    // The service knows the template's blanks: a missing value is its 400, naming the key.
    await expect(h.client.questions.create({ templateId: template.id, templateValues: { città: 'Roma', 'start-date': '1 May' } })).rejects.toThrow(/templateValues\.the end/);
  });

  it('lets the fields sent win over the template’s', async () => {
    const numeric = BUILTIN_TEMPLATES.find((t) => t.questionType === 'numeric')!;
    const q = await h.client.questions.create({
      templateId: numeric.id,
      templateValues: { metric: 'the Brent price in USD', date: '1 June 2027' },
      lowerBound: 40,
      upperBound: 140,
      description: 'Our own description',
      tags: ['Energy'],
    });
    expect(q).toMatchObject({ type: 'numeric', title: 'What will the Brent price in USD be on 1 June 2027?', lowerBound: 40, upperBound: 140, scaleType: 'linear', openUpperBound: true, description: 'Our own description' });
    expect(q.tags.map((t) => t.name)).toEqual(['Energy']);
    // A value is needed only for the blanks of the fields the template still gives.
    const t = await h.client.questionTemplates.create(rain);
    const own = await h.client.questions.create({ templateId: t.id, templateValues: { city: 'Rome' }, title: 'Will it rain in Rome in June?', resolutionCriteria: 'Any rain in June.' });
    expect(own).toMatchObject({ title: 'Will it rain in Rome in June?', sourceTemplate: { templateValues: { city: 'Rome' } } });
  });

  it('never changes a question when its template changes later, nor when the question is edited', async () => {
    const template = await h.client.questionTemplates.create(rain);
    const question = await h.client.questions.create({ templateId: template.id, templateValues: values });
    await h.client.questionTemplates.update(template.id, {
      name: 'Rain somewhere',
      fields: { title: 'Will it rain in {city} on {date} at noon?' },
      blanks: [{ key: 'city' }, { key: 'date' }],
    });
    await h.client.questionTemplates.delete(template.id);
    const read = await h.client.questions.retrieve(question.id);
    expect(read.title).toBe(question.title);
    expect(read.sourceTemplate).toEqual(question.sourceTemplate);
    const edited = await h.client.questions.update(question.id, { description: 'Edited' });
    expect(edited.sourceTemplate).toEqual(question.sourceTemplate);
  });

  it('starts a forecast on a question built from a template', async () => {
    const template = await h.client.questionTemplates.create(rain);
    const task = await h.client.forecasts.create({ question: { templateId: template.id, templateValues: values }, runMode: 'light' });
    expect(task.status).toBe('queued');
    const question = await h.client.questions.retrieve(task.question.id);
    expect(question).toMatchObject({ title: 'Will it rain in Oslo on 1 June 2027?', sourceTemplate: { id: template.id, templateValues: values } });
    const done = await h.client.forecasts.wait(task.id);
    expect(done.status).toBe('completed');
  });

  it('gives a question the template’s preset, and warns when personal content goes into a question the organization reads', async () => {
    const preset = await h.client.presets.create({ scope: 'personal', name: 'Weather desk' });
    const template = await h.client.questionTemplates.create({ ...rain, presetId: preset.id });
    const shared = await h.client.questions.create({ templateId: template.id, templateValues: values, visibility: 'organization' });
    const task = await h.client.forecasts.create({ questionId: shared.id, runMode: 'light' });
    expect(task.preset).toEqual({ used: true, id: preset.id, name: 'Weather desk' });
    expect(task.warnings?.map((w) => w.code)).toEqual(['template_content_readable_by_others', 'preset_content_may_show_in_forecast']);
    const own = await h.client.forecasts.create({ question: { templateId: template.id, templateValues: { ...values, city: 'Bergen' } }, runMode: 'light' });
    expect(own.preset).toEqual({ used: true, id: preset.id, name: 'Weather desk' });
    expect(own.warnings).toEqual([]);
  });

  it('refuses a template presetId the caller cannot see, on create and on update, with 404 naming presetId', async () => {
    const theirs = await h.connect(KEYS.other).presets.create({ scope: 'personal', name: 'Victim notes' });
    const colleagues = await h.connect(KEYS.member).presets.create({ scope: 'personal', name: 'Colleague notes' });
    for (const presetId of [theirs.id, colleagues.id, 'nope']) {
      const err = await h.client.questionTemplates.create({ ...rain, presetId }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(NotFoundError);
      expect((err as NotFoundError).message).toMatch(/presetId: no forecast preset/);
    }
    const template = await h.client.questionTemplates.create(rain);
    const err = await h.client.questionTemplates.update(template.id, { presetId: theirs.id }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(NotFoundError);
    expect((err as NotFoundError).message).toMatch(/presetId: no forecast preset/);
    expect((await h.client.questionTemplates.retrieve(template.id)).presetId).toBeNull();
    const mine = await h.client.presets.create({ scope: 'personal', name: 'Mine' });
    expect((await h.client.questionTemplates.update(template.id, { presetId: mine.id })).presetId).toBe(mine.id);
  });

  it('never runs a forecast with, nor lists the files of, a template preset the starter cannot see', async () => {
    const personal = await h.client.presets.create({ scope: 'personal', name: 'Admin notes' });
    await h.client.presets.files.upload(personal.id, { file: Buffer.from('x'), filename: 'secret-plan.txt' });
    const template = await h.client.questionTemplates.create({ ...rain, scope: 'organization', presetId: personal.id });
    const member = h.connect(KEYS.member);
    const task = await member.forecasts.create({ question: { templateId: template.id, templateValues: values }, runMode: 'light' });
    expect(task.preset).toBeNull();
    expect(task.warnings).toEqual([]);
    // The owner still uses it: its file is still processing.
    const err = await h.client.forecasts.create({ question: { templateId: template.id, templateValues: values }, runMode: 'light' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ContextNotReadyError);
    expect((err as ContextNotReadyError).files).toMatchObject([{ filename: 'secret-plan.txt', presetId: personal.id }]);
  });

  it('applies a template without saving anything', async () => {
    const template = await h.client.questionTemplates.create(rain);
    const applied = await h.connect(KEYS.reader).questionTemplates.apply(template.id, { templateValues: values, visibility: 'organization' });
    expect(applied.question).toMatchObject({ type: 'binary', title: 'Will it rain in Oslo on 1 June 2027?', visibility: 'organization', tags: ['Weather'] });
    expect(applied.sourceTemplate).toEqual({ id: template.id, name: 'Rain in a city', scope: 'personal', templateValues: values });
    expect((await h.client.questions.list()).data).toEqual([]);
    // What apply shows is what create makes.
    const made = await h.client.questions.create({ templateId: template.id, templateValues: values, visibility: 'organization' });
    expect(made).toMatchObject({ title: applied.question.title, resolutionCriteria: applied.question.resolutionCriteria });
  });

  it('fills every blank from a prompt, keeping the values given, and saves nothing', async () => {
    const template = await h.client.questionTemplates.create(rain);
    const first = await h.client.questionTemplates.fill(template.id, { prompt: 'Bergen, 3 March 2027' });
    expect(first.templateValues).toEqual({ city: 'Bergen', date: '3 March 2027' });
    expect(await h.client.questionTemplates.fill(template.id, { prompt: 'Bergen, 3 March 2027' })).toEqual(first);
    const kept = await h.client.questionTemplates.fill(template.id, { prompt: 'date: 9 May 2027, somewhere wet', templateValues: { city: 'Lima' } });
    expect(kept.templateValues).toEqual({ city: 'Lima', date: '9 May 2027' });
    const fallback = await h.client.questionTemplates.fill(template.id, { prompt: 'date = 2 July 2027' });
    expect(fallback.templateValues).toEqual({ city: 'Paris', date: '2 July 2027' }); // the hint, for want of a better text
    expect((await h.client.questions.list()).data).toEqual([]);
    expect((await h.client.questionTemplates.retrieve(template.id)).updatedAt).toBe(template.updatedAt);
  });

  it('saves a question as a template that gives the same question back', async () => {
    const q = await h.client.questions.create({ type: 'multiple_choice', title: 'Which {brace} option?', options: ['A {x}', 'B'], tags: ['Odd'] });
    const template = await h.client.questionTemplates.createFromQuestion({ questionId: q.id, scope: 'personal', name: 'Braces' });
    expect(template).toMatchObject({ questionType: 'multiple_choice', blanks: [], tags: ['Odd'], fields: { title: 'Which {{brace}} option?', options: ['A {{x}}', 'B'] } });
    const again = await h.client.questions.create({ templateId: template.id });
    expect(again).toMatchObject({ title: q.title, options: q.options, sourceTemplate: { id: template.id, templateValues: {} } });
    await expect(h.client.questionTemplates.createFromQuestion({ questionId: '00000000-0000-4000-8000-000000000000', scope: 'personal', name: 'x' })).rejects.toBeInstanceOf(NotFoundError);
  });

  it('shares organization templates with the organization; only an admin adds, edits or deletes them', async () => {
    const member = h.connect(KEYS.member);
    const org = { ...rain, scope: 'organization' as const };
    const denied = await member.questionTemplates.create(org).catch((e: unknown) => e);
    expect(denied).toBeInstanceOf(PermissionDeniedError);
    expect((denied as PermissionDeniedError).message).toMatch(/organization admin/);
    const q = await member.questions.create(binary);
    await expect(member.questionTemplates.createFromQuestion({ questionId: q.id, scope: 'organization', name: 'x' })).rejects.toBeInstanceOf(PermissionDeniedError);

    const template = await h.client.questionTemplates.create(org);
    expect((await member.questionTemplates.retrieve(template.id)).scope).toBe('organization');
    await expect(member.questions.create({ templateId: template.id, templateValues: values })).resolves.toMatchObject({ sourceTemplate: { scope: 'organization' } });
    await expect(member.questionTemplates.update(template.id, { name: 'Mine now' })).rejects.toBeInstanceOf(PermissionDeniedError);
    await expect(member.questionTemplates.delete(template.id)).rejects.toBeInstanceOf(PermissionDeniedError);
    await expect(h.connect(KEYS.other).questionTemplates.retrieve(template.id)).rejects.toBeInstanceOf(NotFoundError);

    // A personal template is its owner's alone.
    const personal = await member.questionTemplates.create(rain);
    await expect(h.client.questionTemplates.retrieve(personal.id)).rejects.toBeInstanceOf(NotFoundError);
    await expect(h.client.questions.create({ templateId: personal.id, templateValues: values })).rejects.toBeInstanceOf(NotFoundError);
    await h.client.questionTemplates.delete(template.id);
    await expect(member.questionTemplates.retrieve(template.id)).rejects.toBeInstanceOf(NotFoundError);
  });

  it('refuses changes to builtin templates with 403', async () => {
    const [builtin] = BUILTIN_TEMPLATES;
    await expect(h.client.questionTemplates.update(builtin!.id, { name: 'Mine' })).rejects.toMatchObject({ status: 403, type: 'permission_denied' });
    await expect(h.client.questionTemplates.delete(builtin!.id)).rejects.toBeInstanceOf(PermissionDeniedError);
    await expect(h.client.questionTemplates.files.upload(builtin!.id, { file: new File(['x'], 'x.txt') })).rejects.toBeInstanceOf(PermissionDeniedError);
  });

  it('keeps template files: uploaded as multipart, processing then ready, edited and deleted', async () => {
    const template = await h.client.questionTemplates.create(rain);
    const file = await h.client.questionTemplates.files.upload(template.id, {
      file: await toFile(new TextEncoder().encode('year,mm\n2025,640\n'), 'rain.csv', { type: 'text/csv' }),
      artifactType: 'dataset',
      treatment: 'look_into',
      userNote: 'Oslo gauges',
    });
    expect(file).toMatchObject({ templateId: template.id, filename: 'rain.csv', status: 'processing', artifactType: 'dataset', treatment: 'look_into', userNote: 'Oslo gauges', sizeBytes: 17 });
    expect(h.mock.service.requests.last({ operation: 'questionTemplates.files.upload' })?.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
    h.mock.clock.advance(5_000);
    expect(await h.client.questionTemplates.files.retrieve(template.id, file.id)).toMatchObject({ status: 'ready' });
    expect((await h.client.questionTemplates.retrieve(template.id)).files).toMatchObject([{ id: file.id, status: 'ready' }]);
    expect(await h.client.questionTemplates.files.update(template.id, file.id, { treatment: 'assume_true', userNote: 'Checked' })).toMatchObject({ treatment: 'assume_true', userNote: 'Checked', artifactType: 'dataset' });
    const plain = await h.client.questionTemplates.files.upload(template.id, { file: new Blob(['notes']), filename: 'notes.txt' });
    expect(plain).toMatchObject({ filename: 'notes.txt', artifactType: 'user_context', treatment: 'consider' });
    await h.client.questionTemplates.files.delete(template.id, file.id);
    await expect(h.client.questionTemplates.files.retrieve(template.id, file.id)).rejects.toBeInstanceOf(NotFoundError);
    expect((await h.client.questionTemplates.retrieve(template.id)).files?.map((f) => f.id)).toEqual([plain.id]);
  });
});

describe('template rules: the SDK refuses before sending', () => {
  const withFields = (title: string, keys: string[]): QuestionTemplateCreateParams => ({ ...rain, fields: { title }, blanks: keys.map((key) => ({ key })) });

  it.each([
    ['a key used but not declared', withFields('Will it rain in {city} on {day}?', ['city']), 'fields.title', /"day" is used but not declared/],
    ['a key declared but not used', withFields('Will it rain in {city}?', ['city', 'date']), 'blanks.1.key', /"date" is declared but no field uses \{date\}/],
    ['a key declared twice', withFields('Will it rain in {city}?', ['city', 'city']), 'blanks.1.key', /"city" is declared twice/],
    ['a lone brace', withFields('Will it rain in {city}? {', ['city']), 'fields.title', /doubled/],
    ['a key holding a brace', withFields('Rain in {city}?', ['city', 'the {date']), 'blanks.1.key', /without braces/],
    ['an empty key', withFields('Rain in {city}?', ['city', '']), 'blanks.1.key', /without braces/],
    ['a key used in an option but not declared', { ...rain, questionType: 'multiple_choice', fields: { title: 'Which?', options: ['{a}', 'B'] }, blanks: [] }, 'fields.options.0', /"a" is used/],
    ['a builtin scope', { ...rain, scope: 'builtin' }, 'scope', undefined],
    ['an empty title', { ...rain, fields: { title: '' } }, 'fields.title', undefined],
  ] as const)('%s', async (_, params, field, message) => {
    await h.refused(h.client.questionTemplates.create(params as QuestionTemplateCreateParams), field, message);
  });

  it('checks an edit of blanks, and of fields with blanks, before sending', async () => {
    await h.refused(h.client.questionTemplates.update('t1', { blanks: [{ key: 'a' }, { key: 'a' }] }), 'blanks.1.key', /"a" is declared twice/);
    await h.refused(h.client.questionTemplates.update('t1', { fields: { title: 'x {a}' }, blanks: [] }), 'fields.title', /"a" is used/);
  });

  it('checks template files before sending as a question’s files are: size, what is a file, name, treatment, artifact type, note', async () => {
    const template = await h.client.questionTemplates.create(rain);
    const big = new Uint8Array(10 * 1024 * 1024 + 1);
    await h.refused(h.client.questionTemplates.files.upload(template.id, { file: big, filename: 'big.bin' }), 'file', /10 MiB/);
    const file = new File(['x'], 'x.txt');
    await h.refused(h.client.questionTemplates.files.upload(template.id, { file, treatment: 'ignore' as never }), 'treatment', /cannot be ignored/);
    await h.refused(h.client.questionTemplates.files.upload(template.id, { file, artifactType: 'memo' as never }), 'artifactType');
    await h.refused(h.client.questionTemplates.files.upload(template.id, { file, userNote: 'x'.repeat(2001) }), 'userNote', /at most 2000 characters/);
    // The same checks as a question's file: what is no file, a name that is empty.
    await h.refused(h.client.questionTemplates.files.upload(template.id, { file: 42 as never }), 'file', /must be a File, Blob/);
    await h.refused(h.client.questionTemplates.files.upload(template.id, { file: new Uint8Array(1), filename: '' }), 'filename');
    await h.refused(h.client.questionTemplates.files.update(template.id, 'f1', { treatment: 'ignore' as never }), 'treatment');
  });
});

describe('template rules: the mock refuses a request that bypasses the SDK', () => {
  const body = (title: string, keys: string[]) => ({ scope: 'personal', name: 'n', questionType: 'binary', fields: { title }, blanks: keys.map((key) => ({ key })) });

  it.each([
    ['used but not declared', body('Rain in {city} on {day}?', ['city']), /^fields\.title: blank "day" is used but not declared/],
    ['declared but not used', body('Rain in {city}?', ['city', 'date']), /^blanks\.1\.key: blank "date" is declared but no field uses/],
    ['declared twice', body('Rain in {city}?', ['city', 'city']), /^blanks\.1\.key: blank "city" is declared twice/],
  ])('a key %s: 400 naming the key', async (_, payload, message) => {
    const res = await h.raw('POST', '/question-templates', payload);
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ type: 'invalid_request_error', message: expect.stringMatching(message) });
  });

  it('checks an edit against the template as a whole', async () => {
    const template = await h.client.questionTemplates.create(rain);
    // Only fields: the SDK cannot know the blanks, the service can.
    const err = await h.client.questionTemplates.update(template.id, { fields: { title: 'Rain in {town}?' } }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BadRequestError);
    expect((err as BadRequestError).message).toMatch(/fields\.title: blank "town" is used but not declared/);
    const unused = await h.raw('PATCH', `/question-templates/${template.id}`, { blanks: [{ key: 'city' }, { key: 'date' }, { key: 'extra' }] });
    expect(unused.body.error?.message).toMatch(/^blanks\.2\.key: blank "extra" is declared but no field uses/);
    expect((await h.client.questionTemplates.retrieve(template.id)).blanks).toHaveLength(2);
  });

  it('refuses an organization template from a member with 403', async () => {
    const res = await h.raw('POST', '/question-templates', { ...body('Rain?', []), scope: 'organization' }, KEYS.member);
    expect(res.status).toBe(403);
    expect(res.body.error).toMatchObject({ type: 'permission_denied', message: expect.stringMatching(/^scope: .*organization admin/) });
  });

  it('names the value missing or unknown, and the field a filled template breaks', async () => {
    const template = await h.client.questionTemplates.create(rain);
    const missing = await h.raw('POST', '/questions', { templateId: template.id, templateValues: { city: 'Oslo' } });
    expect(missing.status).toBe(400);
    expect(missing.body.error?.message).toMatch(/^templateValues\.date: is required/);
    const unknown = await h.raw('POST', '/questions', { templateId: template.id, templateValues: { ...values, town: 'x' } });
    expect(unknown.body.error?.message).toMatch(/^templateValues\.town: the template has no blank "town"/);
    const long = await h.raw('POST', '/questions', { templateId: template.id, templateValues: { ...values, city: 'x'.repeat(500) } });
    expect(long.body.error?.message).toMatch(/^title: /);
    const inForecast = await h.raw('POST', '/forecasts', { question: { templateId: template.id, templateValues: { city: 'Oslo' } } });
    expect(inForecast.body.error?.message).toMatch(/^question\.templateValues\.date: is required/);
    const unknownTemplate = await h.raw('POST', '/forecasts', { question: { templateId: 'nope', templateValues: {} } });
    expect(unknownTemplate).toMatchObject({ status: 404, body: { error: { message: expect.stringMatching(/^question\.templateId: /) } } });
    const fill = await h.raw('POST', `/question-templates/${template.id}/fill`, { prompt: 'x', templateValues: { town: 'x' } });
    expect(fill.body.error?.message).toMatch(/^templateValues\.town: /);
    expect((await h.client.questions.list()).data).toEqual([]);
  });

  it('refuses a template file over 10 MiB, or to be ignored, with 400 naming the field', async () => {
    const template = await h.client.questionTemplates.create(rain);
    const upload = async (file: Blob, fields: Record<string, string> = {}) => {
      const form = new FormData();
      form.append('file', file, 'f.bin');
      for (const [k, v] of Object.entries(fields)) form.append(k, v);
      const res = await fetch(`${h.mock.baseURL}/question-templates/${template.id}/files`, { method: 'POST', headers: { authorization: `Bearer ${KEYS.admin}` }, body: form });
      return { status: res.status, body: (await res.json()) as { error: { message: string } } };
    };
    const big = await upload(new Blob([new Uint8Array(10 * 1024 * 1024 + 1)]));
    expect(big.status).toBe(400);
    expect(big.body.error.message).toMatch(/^file: must be at most 10 MiB/);
    expect((await upload(new Blob(['x']), { treatment: 'ignore' })).body.error.message).toMatch(/^treatment: .*cannot be ignored/);
    expect((await upload(new Blob(['x']), { artifactType: 'memo' })).body.error.message).toMatch(/^artifactType: /);
    const noFile = await h.raw('POST', `/question-templates/${template.id}/files`, {});
    expect(noFile.status).toBe(400);
    expect((await h.client.questionTemplates.retrieve(template.id)).files).toEqual([]);
  });
});
