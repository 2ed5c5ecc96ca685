/**
 * Question templates (spec "Question template"): the blank rules, one function shared by the SDK's
 * check before sending and the mock service's check on receipt, and the request schemas.
 *
 * A template's `fields` are question fields in which `{key}` is a blank and `{{` / `}}` are literal
 * braces. Every key used must be declared once in `blanks`, and every declared key must be used.
 * @module
 */
import * as z from 'zod/mini';
import { MAX_TAGS } from '../api/limits.js';
import { CursorPageParams, exact, rule } from './common.js';
import { OWNERSHIP_SCOPES, QUESTION_TYPES } from './enums.js';
import { fileSettings, fileUpload } from './context.js';
import { ContextNoteInput } from './forecasts.js';
import { MILLISECONDS_BOUND, QuestionUpdateParams, TemplateValues, looksLikeMilliseconds } from './questions.js';

/**
 * `{{`, `}}`, a `{key}` blank, or a lone brace. The spec says only that a blank is written `{key}`: a
 * key is any text without braces (`{city}`, `{start-date}`, `{città}`, `{the date}`).
 */
const TOKEN = /\{\{|\}\}|\{([^{}]+)\}|[{}]/g;

/**
 * The keys of the blanks `text` uses, in order; `undefined` when it holds a brace that is neither
 * part of a `{key}` blank nor doubled (`{{`, `}}`).
 * @internal
 */
export function blanksIn(text: string): string[] | undefined {
  const keys: string[] = [];
  for (const [token, key] of text.matchAll(TOKEN)) {
    if (key) keys.push(key);
    else if (token.length === 1) return undefined;
  }
  return keys;
}

/**
 * `text` with each `{key}` replaced by `values[key]` (`valueOf(key)` when given) and `{{` / `}}` turned
 * into single braces. Values are inserted as they are, never read as blanks.
 * @internal
 */
export function fillBlanks(text: string, valueOf: (key: string) => string): string {
  return text.replace(TOKEN, (token, key: string | undefined) => (key ? valueOf(key) : token[0]!));
}

/** A problem with a template's blanks: where, and what (the message names the key). @internal */
export interface TemplateIssue {
  path: (string | number)[];
  message: string;
}

/**
 * The blank rules: a brace that is neither `{key}` nor doubled; a key used but not declared; a key
 * declared but not used; a key declared twice. With only `fields` or only `blanks` (an edit), the
 * rules that need both are left to the service, which checks the template as a whole.
 * @internal
 */
export function templateIssues(t: { fields?: unknown; blanks?: unknown }): TemplateIssue[] {
  const issues: TemplateIssue[] = [];
  const declared = new Map<string, number>();
  const blanks = Array.isArray(t.blanks) ? (t.blanks as Array<{ key?: unknown } | null>) : [];
  blanks.forEach((blank, i) => {
    const key = blank?.key;
    if (typeof key !== 'string') return;
    if (declared.has(key)) issues.push({ path: ['blanks', i, 'key'], message: `blank "${key}" is declared twice` });
    else declared.set(key, i);
  });
  const both = t.fields !== undefined && t.blanks !== undefined;
  const used = new Set<string>();
  for (const [name, value] of Object.entries(t.fields ?? {})) {
    const texts: Array<[(string | number)[], unknown]> = Array.isArray(value) ? value.map((v, i) => [['fields', name, i], v]) : [[['fields', name], value]];
    for (const [path, text] of texts) {
      if (typeof text !== 'string') continue;
      const keys = blanksIn(text);
      if (!keys) issues.push({ path, message: 'a brace must be part of a {key} blank, or doubled ({{ or }}) to stand for itself' });
      for (const key of keys ?? []) {
        if (both && !declared.has(key) && !used.has(key)) issues.push({ path, message: `blank "${key}" is used but not declared in blanks` });
        used.add(key);
      }
    }
  }
  if (both) {
    for (const [key, i] of declared) {
      if (!used.has(key)) issues.push({ path: ['blanks', i, 'key'], message: `blank "${key}" is declared but no field uses {${key}}` });
    }
  }
  return issues;
}

const blankRules = z.superRefine((t: { fields?: unknown; blanks?: unknown }, ctx) => {
  for (const { path, message } of templateIssues(t)) ctx.addIssue({ code: 'custom', message, path, input: t });
});

/** A date template's bounds are date bounds: never milliseconds (the fields alone do not know the type). */
const dateBoundRules = z.superRefine((t: { questionType?: unknown; fields?: { lowerBound?: unknown; upperBound?: unknown } }, ctx) => {
  if (t.questionType !== 'date') return;
  for (const name of ['lowerBound', 'upperBound'] as const) {
    const value = t.fields?.[name];
    if (looksLikeMilliseconds(value)) ctx.addIssue({ code: 'custom', message: MILLISECONDS_BOUND, path: ['fields', name], input: value });
  }
});

const Name = z.string().check(z.minLength(1, { error: 'must not be empty' }));
const Tags = z.array(z.string()).check(z.maxLength(MAX_TAGS, { error: `must hold at most ${MAX_TAGS}` }));

/** `fields`: the question fields but `type` and `tags`, with `title` required; text may hold `{key}` blanks. */
const { tags: _tags, ...fieldShape } = QuestionUpdateParams.shape;
export const TemplateFields = exact({
  ...fieldShape,
  /** The question's title; blanks may make it longer or shorter once filled. */
  title: Name,
});
/**
 * The question fields of a template (`type` is the template's `questionType`; tags are the
 * template's own). In text, `{key}` is a blank and `{{` / `}}` stand for literal braces.
 * @example
 * ```ts
 * const fields: TemplateFields = { title: 'Will {product} launch before {date}?', finePrint: 'A launch is a public {{GA}} release.' };
 * ```
 */
export interface TemplateFields extends z.input<typeof TemplateFields> {}

export const TemplateBlankInput = exact({
  /**
   * Any text without braces, written `{key}` in the fields (the spec sets no other rule). Not
   * `__proto__`: as a key of `templateValues` a JSON object cannot carry it (parsers drop it or set a
   * prototype with it).
   */
  key: z.string().check(
    z.regex(/^[^{}]+$/, { error: 'must be text without braces (it is written {key} in the fields)' }),
    rule((key: string) => key !== '__proto__', '', 'must not be __proto__: no JSON object can carry it as a key of templateValues'),
  ),
  /** What to fill in, for a person (default: the key). */
  label: z.optional(z.string()),
  /** An example or advice, for a person. */
  hint: z.optional(z.string()),
});
/**
 * A blank of a template: its `key` and, for people, a `label` and a `hint`.
 * @example
 * ```ts
 * const blank: TemplateBlankInput = { key: 'date', label: 'Deadline', hint: '1 June 2027' };
 * ```
 */
export interface TemplateBlankInput extends z.input<typeof TemplateBlankInput> {}

/** What a template may hold besides its question: notes, tags and a forecast preset. */
const extras = {
  /** Context notes a question built from it starts with. */
  notes: z.optional(z.array(ContextNoteInput)),
  /** Up to 20 labels for the questions built from it. */
  tags: z.optional(Tags),
  /** A forecast preset for the questions built from it (`null` for none). */
  presetId: z.optional(z.nullable(z.string())),
};

/**
 * Body of `POST /question-templates`. The blank rules are checked before sending: a key used but not
 * declared, declared but not used, or declared twice is a `ValidationError` naming the key.
 * @example
 * ```ts
 * await client.questionTemplates.create({
 *   scope: 'personal',
 *   name: 'Rain in a city',
 *   questionType: 'binary',
 *   fields: { title: 'Will it rain in {city} on {date}?' },
 *   blanks: [{ key: 'city', label: 'City' }, { key: 'date', hint: '1 June 2027' }],
 * });
 * ```
 */
export const QuestionTemplateCreateParams = exact({
  /** `personal`, or `organization` (needs an organization admin). */
  scope: z.enum(OWNERSHIP_SCOPES),
  /** The template's name. */
  name: Name,
  /** The type of the questions it gives. */
  questionType: z.enum(QUESTION_TYPES),
  /** Question fields; `{key}` is a blank, `{{` and `}}` literal braces. */
  fields: TemplateFields,
  /** Each key used in `fields`, declared exactly once. */
  blanks: z.array(TemplateBlankInput),
  ...extras,
}).check(blankRules, dateBoundRules);
/**
 * Body of `POST /question-templates`: scope, name, question type, fields with `{key}` blanks, and the blanks.
 * @example
 * ```ts
 * const params: QuestionTemplateCreateParams = {
 *   scope: 'organization',
 *   name: 'Price above a level',
 *   questionType: 'binary',
 *   fields: { title: 'Will {asset} close above {level} on {date}?' },
 *   blanks: [{ key: 'asset' }, { key: 'level' }, { key: 'date' }],
 *   tags: ['markets'],
 * };
 * const template = await client.questionTemplates.create(params);
 * ```
 */
export interface QuestionTemplateCreateParams extends z.input<typeof QuestionTemplateCreateParams> {}

/**
 * Body of `PATCH /question-templates/{template_id}`. Not shown in the spec: the SDK sends the fields
 * of creation but `scope` and `questionType`; `fields` and `blanks` replace the template's whole.
 * @example
 * ```ts
 * await client.questionTemplates.update(templateId, { name: 'Rain in a European city' });
 * ```
 */
export const QuestionTemplateUpdateParams = exact({
  /** The template's name. */
  name: z.optional(Name),
  /** Replaces the question fields (blanks are checked against the template as a whole). */
  fields: z.optional(TemplateFields),
  /** Replaces the blanks. */
  blanks: z.optional(z.array(TemplateBlankInput)),
  ...extras,
}).check(blankRules);
/**
 * Body of `PATCH /question-templates/{template_id}` (not shown in the spec: the SDK's choice).
 * @example
 * ```ts
 * const change: QuestionTemplateUpdateParams = { fields: { title: 'Will it rain in {city} on {day}?' }, blanks: [{ key: 'city' }, { key: 'day' }] };
 * await client.questionTemplates.update(templateId, change);
 * ```
 */
export interface QuestionTemplateUpdateParams extends z.input<typeof QuestionTemplateUpdateParams> {}

/** Body of `POST /question-templates/from-question`: the question to save, and the template's scope and name. */
export const QuestionTemplateFromQuestionParams = exact({
  /** The question to save as a template. */
  questionId: z.string().check(z.minLength(1)),
  /** `personal`, or `organization` (needs an organization admin). */
  scope: z.enum(OWNERSHIP_SCOPES),
  /** The template's name. */
  name: Name,
});
/**
 * Body of `POST /question-templates/from-question`.
 * @example
 * ```ts
 * const params: QuestionTemplateFromQuestionParams = { questionId, scope: 'personal', name: 'Like this one' };
 * const template = await client.questionTemplates.createFromQuestion(params);
 * ```
 */
export interface QuestionTemplateFromQuestionParams extends z.input<typeof QuestionTemplateFromQuestionParams> {}

/** Query of `GET /question-templates`. */
export const QuestionTemplateListParams = exact({
  ...CursorPageParams,
  /** Only `builtin`, `organization` or `personal` templates (default: all you can see). */
  scope: z.optional(z.enum(['builtin', ...OWNERSHIP_SCOPES])),
});
/**
 * Query of `GET /question-templates`: paging and a `scope` filter.
 * @example
 * ```ts
 * const query: QuestionTemplateListParams = { scope: 'organization', limit: 50 };
 * for await (const t of client.questionTemplates.list(query)) console.log(t.name, t.questionType);
 * ```
 */
export interface QuestionTemplateListParams extends z.input<typeof QuestionTemplateListParams> {}

/**
 * Body of `POST /question-templates/{template_id}/apply`. Not shown in the spec: the SDK sends what
 * `POST /questions` takes with `templateId`: `templateValues`, and fields that win over the template's.
 */
export const QuestionTemplateApplyParams = exact({
  /** One text per blank key. */
  templateValues: z.optional(TemplateValues),
  ...QuestionUpdateParams.shape,
});
/**
 * Body of `POST /question-templates/{template_id}/apply` (not shown in the spec: the SDK's choice).
 * @example
 * ```ts
 * const params: QuestionTemplateApplyParams = { templateValues: { city: 'Oslo', date: '1 June 2027' }, finePrint: 'Measured at Blindern.' };
 * const { question } = await client.questionTemplates.apply(templateId, params);
 * ```
 */
export interface QuestionTemplateApplyParams extends z.input<typeof QuestionTemplateApplyParams> {}

/** Body of `POST /question-templates/{template_id}/fill`. */
export const QuestionTemplateFillParams = exact({
  /** What the question is about, in your words. */
  prompt: Name,
  /** Values you already have: kept as they are. */
  templateValues: z.optional(TemplateValues),
});
/**
 * Body of `POST /question-templates/{template_id}/fill`: a prompt, and the values to keep.
 * @example
 * ```ts
 * const params: QuestionTemplateFillParams = { prompt: 'Rain in Paris on Bastille Day next year', templateValues: { city: 'Paris' } };
 * const { templateValues } = await client.questionTemplates.fill(templateId, params);
 * ```
 */
export interface QuestionTemplateFillParams extends z.input<typeof QuestionTemplateFillParams> {}

/** Body of `POST /question-templates/{template_id}/files`, sent as `multipart/form-data`: a question's file upload. */
export const QuestionTemplateFileUploadParams = exact({ ...fileUpload, ...fileSettings });
/**
 * Body of `POST /question-templates/{template_id}/files`: the file (at most 10 MiB) and its settings.
 * Not shown in the spec: the SDK sends the fields of a question's file upload.
 * @example
 * ```ts
 * const file = await toFile(Buffer.from('Rain gauge data, 2010-2025'), 'rain.csv', { type: 'text/csv' });
 * await client.questionTemplates.files.upload(templateId, { file, artifactType: 'dataset' });
 * ```
 */
export interface QuestionTemplateFileUploadParams extends z.input<typeof QuestionTemplateFileUploadParams> {}

/** Body of `PATCH /question-templates/{template_id}/files/{file_id}` (not shown in the spec: the SDK's choice). */
export const QuestionTemplateFileUpdateParams = exact(fileSettings);
/**
 * Body of `PATCH /question-templates/{template_id}/files/{file_id}`: the file's settings (not shown in the spec: the SDK's choice).
 * @example
 * ```ts
 * const settings: QuestionTemplateFileUpdateParams = { artifactType: 'background', userNote: 'Gauge moved in 2019.' };
 * await client.questionTemplates.files.update(templateId, fileId, settings);
 * ```
 */
export interface QuestionTemplateFileUpdateParams extends z.input<typeof QuestionTemplateFileUpdateParams> {}
