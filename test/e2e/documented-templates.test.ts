// What docs/templates-and-connections.md promises that the other suites leave unasserted: the blank
// rules' messages word for word, edits replacing fields and blanks whole, the list order, the builtin
// templates, every way the mock fills a blank, template file limits at their edges, connections on
// the simulated network, and the scopes of sharing. The SDK against the mock over real HTTP on
// 127.0.0.1, on a manual clock (moved by the tests: nothing sleeps).
import { describe, expect, it } from 'vitest';
import { BadRequestError, PermissionDeniedError, type ConnectionCreateParams, type Logger, type QuestionTemplateCreateParams } from '../../src/index.js';
import { BUILTIN_TEMPLATES, CONNECTIONS, SHARE_LINKS, SUBSCRIPTIONS, TEMPLATE_FILE_PROCESSING_MS, TEMPLATE_FILES, QUESTION_TEMPLATES } from '../../src/testing/index.js';
import { binary, KEYS, useOrgMock } from './_org.js';
import { rain } from './_templates.js';

const h = useOrgMock();
const MiB = 1024 * 1024;

const crm: ConnectionCreateParams = { scope: 'personal', name: 'CRM', url: 'https://mcp.crm.invalid/crm', authKind: 'none' };

/** A logger that keeps the lines logged at `warn`. */
function warnings(): { logger: Logger; lines: string[] } {
  const lines: string[] = [];
  const none = () => undefined;
  return { lines, logger: { debug: none, info: none, error: none, warn: (line) => void lines.push(line) } };
}

describe('the blank rules, as the table of the doc words them', () => {
  const withBlanks = (title: string, keys: string[]): QuestionTemplateCreateParams => ({ ...rain, fields: { title }, blanks: keys.map((key) => ({ key })) });

  it.each([
    ['a key used, not declared', withBlanks('Rain in {city} on {day}?', ['city']), 'fields.title', 'blank "day" is used but not declared in blanks'],
    ['a key declared, not used', withBlanks('Rain in {city}?', ['city', 'date']), 'blanks.1.key', 'blank "date" is declared but no field uses {date}'],
    ['a key declared twice', withBlanks('Rain in {city}?', ['city', 'city']), 'blanks.1.key', 'blank "city" is declared twice'],
    ['a lone brace', withBlanks('Sets {', []), 'fields.title', 'a brace must be part of a {key} blank, or doubled ({{ or }}) to stand for itself'],
  ] as const)('%s: the SDK throws the message before sending; the mock answers 400 with it', async (_, params, field, message) => {
    const err = await h.refused(h.client.questionTemplates.create(params), field);
    expect(err.message).toBe(`${field}: ${message}`);
    const res = await h.raw('POST', '/question-templates', params);
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ type: 'invalid_request_error', message: `${field}: ${message}` });
  });

  it('takes keys of letters, digits and _', async () => {
    const template = await h.client.questionTemplates.create({ ...rain, fields: { title: 'Will {team_1} beat {Team2} in {Q3}?' }, blanks: [{ key: 'team_1' }, { key: 'Team2' }, { key: 'Q3' }] });
    const q = await h.client.questions.create({ templateId: template.id, templateValues: { team_1: 'Lions', Team2: 'Bears', Q3: 'round 3' } });
    expect(q.title).toBe('Will Lions beat Bears in round 3?');
  });
});

describe('question templates, as documented', () => {
  it('reads as the creation fields plus id, notes, files, tags, presetId, createdAt and updatedAt', async () => {
    const template = await h.client.questionTemplates.create({ ...rain, notes: [{ text: 'Use the Blindern gauge' }], tags: ['Weather'] });
    expect(Object.keys(template).sort()).toEqual(['blanks', 'createdAt', 'fields', 'files', 'id', 'name', 'notes', 'presetId', 'questionType', 'scope', 'tags', 'updatedAt']);
    expect(template.notes).toMatchObject([{ text: 'Use the Blindern gauge' }]);
    expect(template).toMatchObject({ tags: ['Weather'], presetId: null, files: [] });
    expect((await h.client.questionTemplates.create(rain)).notes).toEqual([]);
  });

  it('replaces fields and blanks as a whole on update, keeping what is not sent', async () => {
    const template = await h.client.questionTemplates.create({ ...rain, tags: ['Weather'] });
    h.mock.clock.advance(1_000);
    const edited = await h.client.questionTemplates.update(template.id, { fields: { title: 'Rain in {town}?' }, blanks: [{ key: 'town', label: 'Town' }] });
    expect(edited.fields).toEqual({ title: 'Rain in {town}?' });
    expect(edited.blanks).toEqual([{ key: 'town', label: 'Town', hint: null }]);
    expect(edited).toMatchObject({ name: rain.name, scope: 'personal', questionType: 'binary', tags: ['Weather'], createdAt: template.createdAt });
    expect(edited.updatedAt).not.toBe(template.updatedAt);
    expect(await h.client.questionTemplates.retrieve(template.id)).toEqual(edited);
    const q = await h.client.questions.create({ templateId: template.id, templateValues: { town: 'Oslo' } });
    expect(q).toMatchObject({ title: 'Rain in Oslo?', finePrint: '' });
  });

  it('sends neither scope nor questionType in an edit: they are not fields of it', async () => {
    const { logger, lines } = warnings();
    const client = h.connect(KEYS.admin, { logger, logLevel: 'warn' });
    const template = await client.questionTemplates.create(rain);
    const edited = await client.questionTemplates.update(template.id, { name: 'Renamed', scope: 'organization', questionType: 'numeric' } as never);
    expect(lines).toEqual([
      expect.stringContaining('questionTemplates.update: unknown field `scope` sent as is'),
      expect.stringContaining('questionTemplates.update: unknown field `questionType` sent as is'),
    ]);
    expect(edited).toMatchObject({ name: 'Renamed', scope: 'personal', questionType: 'binary' });
  });

  it('lists the builtin templates first, then the others newest first', async () => {
    const first = await h.client.questionTemplates.create({ ...rain, name: 'First' });
    const second = await h.client.questionTemplates.create({ ...rain, name: 'Second', scope: 'organization' });
    const third = await h.client.questionTemplates.create({ ...rain, name: 'Third' });
    const ids = (await h.client.questionTemplates.list().toArray()).map((t) => t.id);
    expect(ids).toEqual([...BUILTIN_TEMPLATES.map((t) => t.id), third.id, second.id, first.id]);
    // A member sees the builtin ones and the organization's, not the admin's personal ones.
    const seen = (await h.connect(KEYS.member).questionTemplates.list().toArray()).map((t) => t.id);
    expect(seen).toEqual([...BUILTIN_TEMPLATES.map((t) => t.id), second.id]);
  });

  it('ships three builtin templates: a binary, a multiple choice with blanks in its options, a numeric', async () => {
    expect(BUILTIN_TEMPLATES.map((t) => [t.name, t.questionType])).toEqual([
      ['Event before a deadline', 'binary'],
      ['Which comes first', 'multiple_choice'],
      ['A number on a date', 'numeric'],
    ]);
    const which = BUILTIN_TEMPLATES[1]!;
    const q = await h.client.questions.create({ templateId: which.id, templateValues: { first: 'a rate cut', second: 'a rate rise', deadline: '1 July 2027' } });
    expect(q).toMatchObject({ type: 'multiple_choice', options: ['a rate cut', 'a rate rise', 'Neither before 1 July 2027'] });
  });
});

describe('filling blanks in the mock', () => {
  const three: QuestionTemplateCreateParams = {
    ...rain,
    fields: { title: 'Rain in {city} on {date}, in {unit}?' },
    blanks: [{ key: 'city', label: 'Town' }, { key: 'date', label: 'Day' }, { key: 'unit', label: 'Unit' }],
  };

  it('reads `label: value`, then parts split by semicolons, and falls back to the label', async () => {
    const template = await h.client.questionTemplates.create(three);
    const { templateValues } = await h.client.questionTemplates.fill(template.id, { prompt: 'Town: Lima; 3 March 2027' });
    expect(templateValues).toEqual({ city: 'Lima', date: '3 March 2027', unit: 'Unit' });
  });

  it('splits the prompt at line breaks too', async () => {
    const template = await h.client.questionTemplates.create(three);
    const { templateValues } = await h.client.questionTemplates.fill(template.id, { prompt: 'Lima\n3 March 2027\nmm' });
    expect(templateValues).toEqual({ city: 'Lima', date: '3 March 2027', unit: 'mm' });
  });
});

describe('template files, as documented', () => {
  const upload = async (templateId: string, file: Blob, settings: { userNote?: string; artifactType?: 'background' | 'evidence_source' | 'dataset' | 'assumption' } = {}) =>
    h.client.questionTemplates.files.upload(templateId, { file, filename: 'f.bin', ...settings });

  it('stays processing for 5 seconds of mock time, then reads ready', async () => {
    expect(TEMPLATE_FILE_PROCESSING_MS).toBe(5_000);
    const template = await h.client.questionTemplates.create(rain);
    const file = await upload(template.id, new Blob(['x']));
    h.mock.clock.advance(TEMPLATE_FILE_PROCESSING_MS - 1);
    expect((await h.client.questionTemplates.files.retrieve(template.id, file.id)).status).toBe('processing');
    h.mock.clock.advance(1);
    expect((await h.client.questionTemplates.files.retrieve(template.id, file.id)).status).toBe('ready');
  });

  it('takes a file of exactly 10 MiB, a note of 2,000 characters and every artifact type', async () => {
    const template = await h.client.questionTemplates.create(rain);
    expect(await upload(template.id, new Blob([new Uint8Array(10 * MiB)]))).toMatchObject({ sizeBytes: 10 * MiB });
    expect((await upload(template.id, new Blob(['x']), { userNote: 'n'.repeat(2000) })).userNote).toHaveLength(2000);
    for (const artifactType of ['background', 'evidence_source', 'dataset', 'assumption'] as const) {
      expect((await upload(template.id, new Blob(['x']), { artifactType })).artifactType).toBe(artifactType);
    }
    const res = await h.raw('PATCH', `/question-templates/${template.id}/files/nope`, { userNote: 'n'.repeat(2001) });
    expect(res.body.error?.message).toMatch(/^userNote: /);
  });

  it('sends a stream, whose size is not known before, and the service refuses it over 10 MiB', async () => {
    const template = await h.client.questionTemplates.create(rain);
    const bytes = new Uint8Array(10 * MiB + 1);
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(bytes);
        controller.close();
      },
    });
    const err = await h.client.questionTemplates.files.upload(template.id, { file: stream, filename: 'big.bin' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BadRequestError);
    expect((err as BadRequestError).message).toMatch(/file: must be at most 10 MiB/);
    expect(h.count('questionTemplates.files.upload')).toBe(1);
    expect((await h.client.questionTemplates.retrieve(template.id)).files).toEqual([]);
  });
});

describe('connections on the simulated network, as documented', () => {
  it('names the tools after the last path segment, else the host’s first label', async () => {
    const bare = await h.client.connections.create({ ...crm, url: 'https://filings.example.com' });
    expect(bare.tools.map((t) => t.name)).toEqual(['search_filings', 'read_filings', 'update_filings']);
    const deep = await h.client.connections.create({ ...crm, url: 'https://mcp.example.com/v2/Market-Data' });
    expect(deep.tools.map((t) => [t.name, t.allowed, t.changesData])).toEqual([
      ['search_market_data', true, false],
      ['read_market_data', true, false],
      ['update_market_data', false, true],
    ]);
  });

  it.each(['tools.internal', 'printer.local', 'nas.lan', 'wiki.corp', 'router.home.arpa'])('resolves %s to a private address: 400 naming url', async (host) => {
    const err = await h.client.connections.create({ ...crm, url: `https://${host}/mcp` }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BadRequestError);
    expect((err as BadRequestError).message).toContain('url: must reach a public address: the host resolves to a private one');
  });

  it('resolves other names to a public address', async () => {
    for (const host of ['tools.example.org', 'internal.example.com', 'local.example.net']) {
      await expect(h.client.connections.create({ ...crm, url: `https://${host}/mcp` })).resolves.toMatchObject({ status: 'connected' });
    }
  });

  it('keeps no key: the store holds hasApiKey only; the header defaults to none named', async () => {
    const key = 'sk_live_STORED_NOWHERE_51b0';
    const conn = await h.client.connections.create({ ...crm, authKind: 'api_key', api_key: key });
    expect(conn).toMatchObject({ hasApiKey: true, apiKeyHeader: null });
    const stored = h.mock.service.store.collection(CONNECTIONS).get(conn.id);
    expect(stored?.connection.hasApiKey).toBe(true);
    expect(JSON.stringify(stored)).not.toContain(key.slice(-8));
  });

  it('answers 400 naming a switch for a connection the starter cannot see, though it exists', async () => {
    const theirs = await h.connect(KEYS.member).connections.create(crm);
    const q = await h.client.questions.create(binary);
    const cases: Array<[{ off?: string[]; on?: string[] }, string]> = [
      [{ off: [theirs.id] }, 'connections.off.0'],
      [{ on: [theirs.id] }, 'connections.on.0'],
    ];
    for (const [switches, field] of cases) {
      const err = await h.client.forecasts.create({ questionId: q.id, connections: switches }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(BadRequestError);
      expect((err as BadRequestError).message).toContain(`${field}: no connection ${theirs.id}`);
    }
    expect((await h.client.forecasts.list()).data).toEqual([]);
  });

  it('shows a connection that is not connected as unavailable, with no calls, and the forecast completes', async () => {
    h.mock.service.connectionControls.setFailing('down.example.com');
    const down = await h.client.connections.create({ ...crm, name: 'Down', url: 'https://down.example.com/mcp' });
    expect(down.status).toBe('failed');
    const q = await h.client.questions.create(binary);
    const task = await h.client.forecasts.createAndWait({ questionId: q.id, runMode: 'light' });
    expect(task.status).toBe('completed');
    expect(task.connections).toEqual([{ name: 'Down', owner: 'personal', calls: 0, status: 'unavailable' }]);
  });
});

describe('sharing, as documented', () => {
  it('gives each link its own url on the mock’s host, which the mock does not serve (the page is the service’s web app)', async () => {
    const q = await h.client.questions.create(binary);
    const [one, two] = [await h.client.questions.shareLinks.create(q.id), await h.client.questions.shareLinks.create(q.id)];
    const origin = new URL(h.mock.baseURL).origin;
    for (const link of [one, two]) expect(link.url).toMatch(new RegExp(`^${origin.replaceAll('.', '\\.')}/share/[A-Za-z0-9_-]{24}$`));
    expect(one.url).not.toBe(two.url);
    expect((await fetch(one.url)).status).toBe(404);
    // Its life reads off the record instead.
    expect(await h.client.questions.shareLinks.revoke(q.id, one.id)).toMatchObject({ revoked: true, revokedAt: expect.any(String) });
  });

  it('reads a share link as id, questionId, url, label, revoked, revokedAt, expiresAt, createdAt, updatedAt', async () => {
    const q = await h.client.questions.create(binary);
    const link = await h.client.questions.shareLinks.create(q.id, { label: 'board pack' });
    expect(Object.keys(link).sort()).toEqual(['createdAt', 'expiresAt', 'id', 'label', 'questionId', 'revoked', 'revokedAt', 'updatedAt', 'url']);
  });

  it('needs questions:write for every share-link operation, and for unfollowing', async () => {
    const q = await h.client.questions.create(binary);
    const link = await h.client.questions.shareLinks.create(q.id);
    await h.client.questions.subscription.follow(q.id);
    const reader = h.connect(KEYS.reader).questions;
    const calls: Array<[string, () => Promise<unknown>]> = [
      ['create', () => reader.shareLinks.create(q.id)],
      ['retrieve', () => reader.shareLinks.retrieve(q.id, link.id)],
      ['update', () => reader.shareLinks.update(q.id, link.id, { label: 'x' })],
      ['revoke', () => reader.shareLinks.revoke(q.id, link.id)],
      ['delete', () => reader.shareLinks.delete(q.id, link.id)],
      ['unfollow', () => reader.subscription.unfollow(q.id)],
    ];
    for (const [name, call] of calls) await expect(call(), name).rejects.toBeInstanceOf(PermissionDeniedError);
    expect(await h.client.questions.shareLinks.retrieve(q.id, link.id)).toEqual(link);
    await expect(reader.subscription.retrieve(q.id)).resolves.toMatchObject({ follows: { id: q.id } });
  });

  it('follows with a PUT that carries no body', async () => {
    const q = await h.client.questions.create(binary);
    await h.client.questions.subscription.follow(q.id);
    const sent = h.mock.service.requests.last({ operation: 'questions.subscription.follow' });
    expect(sent).toMatchObject({ method: 'PUT' });
    expect(sent?.body).toBeUndefined();
  });
});

describe('the store’s collections, for seeding and inspection', () => {
  it('hold what the SDK made, under the keys the testing entry exports', async () => {
    const template = await h.client.questionTemplates.create(rain);
    const file = await h.client.questionTemplates.files.upload(template.id, { file: new Blob(['x']), filename: 'x.txt' });
    const conn = await h.client.connections.create(crm);
    const q = await h.client.questions.create(binary);
    const link = await h.client.questions.shareLinks.create(q.id);
    await h.client.questions.subscription.follow(q.id);
    const { store } = h.mock.service;
    expect(store.collection(QUESTION_TEMPLATES).get(template.id)?.template.name).toBe(rain.name);
    expect(store.collection(TEMPLATE_FILES).get(file.id)?.templateId).toBe(template.id);
    expect(store.collection(CONNECTIONS).get(conn.id)?.connection.name).toBe('CRM');
    expect(store.collection(SHARE_LINKS).get(link.id)?.questionId).toBe(q.id);
    expect(store.collection(SUBSCRIPTIONS).list().map((s) => s.subscription.follows.id)).toEqual([q.id]);
  });

  it('serve a record seeded into them', async () => {
    const now = new Date(h.mock.clock.now()).toISOString();
    const id = '00000000-0000-4000-8000-0000000005ed';
    const template = { id, scope: 'personal' as const, name: 'Seeded', questionType: 'binary' as const, fields: { title: 'Seeded {x}?' }, blanks: [{ key: 'x', label: 'x', hint: null }], notes: [], tags: [], presetId: null, createdAt: now, updatedAt: now };
    h.mock.service.store.collection(QUESTION_TEMPLATES).insert({ id, ownerId: 'u1', organizationId: 'org1', template });
    expect(await h.client.questionTemplates.retrieve(id)).toMatchObject({ name: 'Seeded', files: [] });
    expect((await h.client.questions.create({ templateId: id, templateValues: { x: 'yes' } })).title).toBe('Seeded yes?');
  });
});
