/**
 * Question templates in the mock: the builtin templates every key sees, who sees and who may change a
 * template, building a question from one (blanks filled, fields sent winning over the template's),
 * and the stand-in for filling blanks with AI (deterministic rules on the prompt, no model).
 * @module
 */
import { QuestionDefinition as QuestionDefinitionSchema } from '../../schemas/questions.js';
import { fillBlanks } from '../../schemas/templates.js';
import type { QuestionTemplate, QuestionTemplateFile, SourceTemplate } from '../../schemas/records/templates.js';
import type { Question } from '../../schemas/records/questions.js';
import { requireOrganizationAdmin, type Principal } from '../auth.js';
import type { CallEnv } from '../env.js';
import { badRequest, MockHttpError, notFound } from '../http.js';
import { MAX_JSON_BODY_BYTES, validate } from '../input.js';
import { collectionKey, type MockStore, type Ownership } from '../store.js';
import { pickDefinition, type QuestionDefinition } from './question.js';

/**
 * A stored template; its files are in {@link TEMPLATE_FILES}.
 * @example
 * ```ts
 * const record: TemplateRecord | undefined = service.store.collection(QUESTION_TEMPLATES).get(templateId);
 * console.log(record?.ownerId, record?.template.name);
 * ```
 */
export interface TemplateRecord extends Ownership {
  id: string;
  template: Omit<QuestionTemplate, 'files'>;
}
/**
 * The organization and personal templates (the builtin ones are {@link BUILTIN_TEMPLATES}).
 * @example
 * ```ts
 * const shared = service.store.collection(QUESTION_TEMPLATES).list((r) => r.template.scope === 'organization');
 * ```
 */
export const QUESTION_TEMPLATES = collectionKey<TemplateRecord>('questionTemplates');

/**
 * A stored template file: the file as reads show it, and when it becomes `ready`.
 * @example
 * ```ts
 * const record: TemplateFileRecord | undefined = service.store.collection(TEMPLATE_FILES).get(fileId);
 * service.clock.set(record!.readyAt); // the file reads `ready` from now on
 * ```
 */
export interface TemplateFileRecord {
  id: string;
  templateId: string;
  file: Omit<QuestionTemplateFile, 'status'>;
  /** Mock ms at which processing ends. */
  readyAt: number;
}
/**
 * The files of every template, by file id; a file's `status` is worked out from its `readyAt` when read.
 * @example
 * ```ts
 * const files = service.store.collection(TEMPLATE_FILES).list((f) => f.templateId === templateId);
 * ```
 */
export const TEMPLATE_FILES = collectionKey<TemplateFileRecord>('questionTemplateFiles');
/**
 * How long a template file stays `processing` in the mock, in ms.
 * @example
 * ```ts
 * const file = await client.questionTemplates.files.upload(templateId, { file: new File(['2010-2025 rainfall'], 'rain.csv') }); // processing
 * service.clock.advance(TEMPLATE_FILE_PROCESSING_MS);
 * expect((await client.questionTemplates.files.retrieve(templateId, file.id)).status).toBe('ready');
 * ```
 */
export const TEMPLATE_FILE_PROCESSING_MS = 5_000;

const BUILT = '2025-01-01T00:00:00.000Z';
const builtin = (n: number, t: Pick<QuestionTemplate, 'name' | 'questionType' | 'fields' | 'blanks'>): QuestionTemplate => ({
  id: `00000000-0000-4000-8000-00000000b00${n}`,
  scope: 'builtin',
  ...t,
  notes: [],
  files: [],
  tags: [],
  presetId: null,
  createdAt: BUILT,
  updatedAt: BUILT,
});
const blank = (key: string, label: string, hint: string) => ({ key, label, hint });

/**
 * The templates the mock ships, seen by every key and changed by none.
 * @example
 * ```ts
 * const [eventBefore] = BUILTIN_TEMPLATES; // 'Event before a deadline'
 * const question = await client.questions.create({ templateId: eventBefore!.id, templateValues: { event: 'the merger', deadline: '1 June 2027' } });
 * ```
 */
export const BUILTIN_TEMPLATES: readonly QuestionTemplate[] = [
  builtin(1, {
    name: 'Event before a deadline',
    questionType: 'binary',
    fields: {
      title: 'Will {event} happen before {deadline}?',
      resolutionCriteria: 'Resolves YES if {event} happens before {deadline}, as reported by a reliable public source.',
    },
    blanks: [blank('event', 'Event', 'the ECB cuts its deposit rate'), blank('deadline', 'Deadline', '1 July 2027')],
  }),
  builtin(2, {
    name: 'Which comes first',
    questionType: 'multiple_choice',
    fields: { title: 'Which will happen first: {first} or {second}?', options: ['{first}', '{second}', 'Neither before {deadline}'] },
    blanks: [blank('first', 'One event', 'a rate cut'), blank('second', 'The other event', 'a rate rise'), blank('deadline', 'Deadline', '1 July 2027')],
  }),
  builtin(3, {
    name: 'A number on a date',
    questionType: 'numeric',
    fields: {
      title: 'What will {metric} be on {date}?',
      description: 'Send lowerBound and upperBound with the range you expect: they win over these.',
      lowerBound: 0,
      upperBound: 100,
      openUpperBound: true,
      scaleType: 'linear',
    },
    blanks: [blank('metric', 'Measure', 'the Brent price in USD'), blank('date', 'Date', '1 June 2027')],
  }),
];

/** Who sees a template: everyone a builtin one, an organization its own, a user their personal ones. */
function canSeeTemplate(record: TemplateRecord, principal: Principal): boolean {
  return record.template.scope === 'organization' ? record.organizationId === principal.organizationId : record.ownerId === principal.userId;
}

const builtins = BUILTIN_TEMPLATES.map(({ files: _f, ...template }): TemplateRecord => ({ id: template.id, ownerId: '', organizationId: '', template }));

/** The templates the caller sees, newest first after the builtin ones. */
export function visibleTemplates(ctx: CallEnv): TemplateRecord[] {
  return [...builtins, ...ctx.store.collection(QUESTION_TEMPLATES).list((r) => canSeeTemplate(r, ctx.principal))];
}

/** The template `id` if the caller sees it, else 404 naming `field`. */
export function findTemplate(ctx: CallEnv, id: string, field = 'templateId'): TemplateRecord {
  const found = builtins.find((b) => b.id === id) ?? ctx.store.collection(QUESTION_TEMPLATES).get(id);
  if (!found || (found.template.scope !== 'builtin' && !canSeeTemplate(found, ctx.principal))) throw notFound(`${field}: no question template ${id}`);
  return found;
}

/** The template `id` if the caller may change it: not a builtin one (403), an organization's only for an admin (403). */
export function findWritableTemplate(ctx: CallEnv, id: string): TemplateRecord {
  const record = findTemplate(ctx, id);
  if (record.template.scope === 'builtin') throw new MockHttpError(403, 'permission_denied', 'templateId: a builtin template cannot be changed');
  if (record.template.scope === 'organization') requireOrganizationAdmin(ctx.principal, 'templateId: changing an organization template');
  return record;
}

/** A template file as reads show it: `processing` until its time is up, then `ready`. */
export function templateFileView(record: TemplateFileRecord, now: number): QuestionTemplateFile {
  return { ...record.file, status: now >= record.readyAt ? 'ready' : 'processing' };
}

/** A template as reads show it, with its files. */
export function templateView(store: MockStore, record: TemplateRecord, now: number): QuestionTemplate {
  const files = store.collection(TEMPLATE_FILES).list((f) => f.templateId === record.id).reverse();
  return { ...record.template, files: files.map((f) => templateFileView(f, now)) };
}

/** Text of a question, written so a template gives it back as it is: `{` and `}` doubled. */
const escapeBraces = (text: string) => text.replace(/[{}]/g, '$&$&');

/** The template fields of a question (`from-question`): its input fields but type and tags, braces doubled. */
export function fieldsOfQuestion(q: Question): QuestionTemplate['fields'] {
  const { type: _t, tags: _g, ...fields } = pickDefinition(q);
  const out: Record<string, unknown> = { ...fields };
  for (const [name, value] of Object.entries(fields)) {
    if (typeof value === 'string') out[name] = escapeBraces(value);
    else if (Array.isArray(value)) out[name] = value.map((v) => (typeof v === 'string' ? escapeBraces(v) : v));
  }
  return out as QuestionTemplate['fields'];
}

/** What the caller sent besides `templateId`: values and fields that win over the template's. */
export interface TemplateInput {
  templateValues?: Record<string, string> | undefined;
  [field: string]: unknown;
}

/** What a request's filled blanks may still take, in characters (shared by a batch's items). */
export interface FillBudget {
  left: number;
}

/** A question built from a template: its fields, where it came from, and the template's preset (the question's own). */
export interface BuiltQuestion {
  definition: QuestionDefinition;
  sourceTemplate: SourceTemplate;
  presetId: string | null;
}

/**
 * The question a template gives: the fields sent win over the template's, each blank of the other
 * fields is filled from `templateValues` (every one needed, no unknown key), and the result passes the
 * question type rules. `prefix` starts the names in errors (`question.` inside a forecast body).
 * `fill` is what the blanks may still take: one budget for all the items of a batch.
 */
export function questionFromTemplate(record: TemplateRecord, input: TemplateInput, prefix = '', fill: FillBudget = { left: MAX_JSON_BODY_BYTES }): BuiltQuestion {
  const t = record.template;
  // Blank keys are data: a Map, so `constructor` or `toString` never finds Object.prototype's.
  const values = new Map(Object.entries(input.templateValues ?? {}));
  const keys = new Set(t.blanks.map((b) => b.key));
  for (const key of values.keys()) {
    if (!keys.has(key)) throw badRequest(`the template has no blank "${key}"`, `${prefix}templateValues.${key}`);
  }
  const overrides = pickDefinition(input);
  const needed = new Set<string>();
  // A value goes in at each of its blanks: a 1 KB value in a template of 300,000 blanks would make
  // a question of 300 MB from a request of 1 KB. What goes in is kept to what a request can send.
  const fillText = (text: string) =>
    fillBlanks(text, (key) => {
      needed.add(key);
      const value = values.get(key) ?? '';
      fill.left -= value.length;
      if (fill.left < 0) throw badRequest(`would put more than ${MAX_JSON_BODY_BYTES} characters in the template's blanks in all (a value goes in at each of its blanks): the questions of a request are at most what one request can send`, `${prefix}templateValues`);
      return value;
    });
  const filled = Object.entries(t.fields)
    .filter(([name, value]) => !Object.hasOwn(overrides, name) && value !== undefined)
    .map(([name, value]) => [name, typeof value === 'string' ? fillText(value) : Array.isArray(value) ? value.map(fillText) : value]);
  for (const key of needed) {
    if (!values.has(key)) throw badRequest(`is required: the template's blank "${key}" has no value`, `${prefix}templateValues.${key}`);
  }
  const tags = t.tags?.length ? { tags: t.tags } : {};
  const merged = { ...tags, ...Object.fromEntries(filled), ...overrides, type: t.questionType };
  const definition = validate(QuestionDefinitionSchema, merged, prefix.replace(/\.$/, '')) as QuestionDefinition;
  return { definition, sourceTemplate: { id: t.id, name: t.name, scope: t.scope, templateValues: Object.fromEntries(values) }, presetId: t.presetId ?? null };
}

/**
 * The mock's stand-in for filling blanks with AI. The values given are kept. Then, for each other
 * blank: a `key: value` (or `label: value`, or `=`) in the prompt; else the next part of the prompt
 * between commas, semicolons or line breaks that is not such a pair; else the blank's hint; else its label.
 */
export function fillFromPrompt(record: TemplateRecord, prompt: string, given: Record<string, string> = {}): Record<string, string> {
  const kept = new Map(Object.entries(given));
  const pairs = new Map<string, string>();
  const rest: string[] = [];
  for (const part of prompt.split(/[,;\n]/)) {
    // `key: value` or `key = value`, cut at the first separator: no pattern that backtracks on a long prompt.
    const cut = part.search(/[:=]/);
    const key = cut > 0 ? part.slice(0, cut).trim() : '';
    const value = cut > 0 ? part.slice(cut + 1).trim() : '';
    if (key && value && /^[\w ]+$/.test(key)) pairs.set(key.toLowerCase(), value);
    else if (part.trim()) rest.push(part.trim());
  }
  return Object.fromEntries(
    record.template.blanks.map((b) => [
      b.key,
      kept.get(b.key) ?? pairs.get(b.key.toLowerCase()) ?? pairs.get(b.label.toLowerCase()) ?? rest.shift() ?? b.hint ?? b.label,
    ]),
  );
}

/** Who owns what the caller creates. */
export const ownerOf = (ctx: CallEnv): Ownership => ({ ownerId: ctx.principal.userId, organizationId: ctx.principal.organizationId });
