/**
 * Question templates as the service shows them. The spec shows a template's read fields only as
 * those used to create it; the rest (ids, files, timestamps, the `apply` and `fill` answers, a
 * question's `sourceTemplate`) is this SDK's lenient reading. The schemas load only with
 * `validateResponses`.
 * @module
 */
import * as z from 'zod/mini';
import { Timestamp, exact, openEnum, openString } from '../common.js';
import { QUESTION_TYPES, TREATMENTS, type ArtifactType } from '../enums.js';

const str = z.optional(z.string());
const bool = z.optional(z.boolean());
const bound = z.optional(z.nullable(z.number()));

export const QuestionTemplateFields = exact({
  title: str,
  description: str,
  resolutionCriteria: str,
  finePrint: str,
  options: z.optional(z.array(z.string())),
  lowerBound: bound,
  upperBound: bound,
  openLowerBound: bool,
  openUpperBound: bool,
  scaleType: z.optional(z.nullable(openString<'linear' | 'logarithmic'>())),
  optionsAreMutuallyExclusive: bool,
  optionsAreComprehensive: bool,
  visibility: z.optional(openString<'private' | 'organization'>()),
});
/**
 * The question fields of a template as read; in text, `{key}` is a blank and `{{` / `}}` literal braces.
 * @example
 * ```ts
 * const fields: QuestionTemplateFields = (await client.questionTemplates.retrieve(templateId)).fields;
 * console.log(fields.title); // 'Will it rain in {city} on {date}?'
 * ```
 */
export interface QuestionTemplateFields extends z.output<typeof QuestionTemplateFields> {}

export const QuestionTemplateBlank = exact({
  /** Written `{key}` in the fields. */
  key: z.string(),
  /** What to fill in, for a person. */
  label: z.string(),
  /** An example or advice, for a person; null when none. */
  hint: z.optional(z.nullable(z.string())),
});
/**
 * A blank of a template.
 * @example
 * ```ts
 * const { blanks } = await client.questionTemplates.retrieve(templateId);
 * for (const b of blanks) console.log(`{${b.key}}`, b.label, b.hint ?? '');
 * ```
 */
export interface QuestionTemplateBlank extends z.output<typeof QuestionTemplateBlank> {}

export const QuestionTemplateFile = exact({
  id: z.string(),
  /** Not shown in the spec; read when present. */
  templateId: str,
  /** Not shown in the spec; read when present. */
  filename: str,
  /** `processing` at first, then `ready` (or `failed`). */
  status: openString<'processing' | 'ready' | 'failed'>(),
  /** Not shown in the spec; read when present. */
  artifactType: z.optional(openString<ArtifactType>()),
  /** Not shown in the spec; read when present. */
  treatment: z.optional(openString<'consider' | 'look_into' | 'assume_true'>()),
  /** Not shown in the spec; read when present. */
  userNote: z.optional(z.nullable(z.string())),
  /** Not shown in the spec; read when present. */
  sizeBytes: z.optional(z.number()),
  /** Not shown in the spec; read when present. */
  createdAt: z.optional(Timestamp),
});
/**
 * A file of a template: its `id` and `status`. Other fields are not shown in the spec: the SDK reads them when present.
 * @example
 * ```ts
 * const file: QuestionTemplateFile = await client.questionTemplates.files.retrieve(templateId, fileId);
 * if (file.status === 'failed') await client.questionTemplates.files.delete(templateId, fileId);
 * ```
 */
export interface QuestionTemplateFile extends z.output<typeof QuestionTemplateFile> {}

export const QuestionTemplateNote = exact({ text: z.string(), treatment: z.optional(openEnum(TREATMENTS)) });
/**
 * A note a template holds (not shown in the spec beyond that a template may hold notes).
 * @example
 * ```ts
 * const notes: QuestionTemplateNote[] = (await client.questionTemplates.retrieve(templateId)).notes ?? [];
 * ```
 */
export interface QuestionTemplateNote extends z.output<typeof QuestionTemplateNote> {}

export const QuestionTemplate = exact({
  id: z.string(),
  /** `builtin` (the service's own), `organization` or `personal`. */
  scope: openString<'builtin' | 'organization' | 'personal'>(),
  name: z.string(),
  /** The type of the questions it gives. */
  questionType: openEnum(QUESTION_TYPES),
  /** Question fields with `{key}` blanks. */
  fields: QuestionTemplateFields,
  /** One per key used in `fields`. */
  blanks: z.array(QuestionTemplateBlank),
  /** Not shown in the spec beyond that a template may hold notes. */
  notes: z.optional(z.array(QuestionTemplateNote)),
  /** Not shown in the spec beyond that a template may hold files. */
  files: z.optional(z.array(QuestionTemplateFile)),
  /** Not shown in the spec beyond that a template may hold tags: the labels, as given. */
  tags: z.optional(z.array(z.string())),
  /** Not shown in the spec beyond that a template may hold a forecast preset. */
  presetId: z.optional(z.nullable(z.string())),
  /** Not shown in the spec; read when present. */
  createdAt: z.optional(Timestamp),
  /** Not shown in the spec; read when present. */
  updatedAt: z.optional(Timestamp),
});
/**
 * A question template: `scope`, `name`, `questionType`, `fields` with `{key}` blanks and `blanks`.
 * Fields beyond those used to create it are not shown in the spec: the SDK reads them when present.
 * @example
 * ```ts
 * const template = await client.questionTemplates.retrieve(templateId);
 * console.log(template.fields.title, template.blanks.map((b) => b.key));
 * ```
 */
export interface QuestionTemplate extends z.output<typeof QuestionTemplate> {}

export const SourceTemplate = exact({
  /** The template's id. */
  id: str,
  /** Its name when the question was built. */
  name: str,
  /** Its scope when the question was built. */
  scope: str,
  /** The values the blanks were filled with. */
  templateValues: z.optional(z.record(z.string(), z.string())),
});
/**
 * A question's `sourceTemplate`: the template it was built from, as it was then. Later changes to the
 * template never change it. The spec shows it only as an object: these fields are the SDK's choice,
 * each read when present (a question whose `sourceTemplate` has other fields still reads).
 * @example
 * ```ts
 * const question = await client.questions.retrieve(questionId);
 * const source: SourceTemplate | undefined = question.sourceTemplate;
 * if (source) console.log(source.name, source.templateValues); // { city: 'Paris', date: '1 June 2027' }
 * ```
 */
export interface SourceTemplate extends z.output<typeof SourceTemplate> {}

export const QuestionTemplateApplication = exact({
  /** The question the template gives (not saved): pass it to `questions.create`, or create with `templateId`. */
  question: exact({ ...QuestionTemplateFields.shape, type: openEnum(QUESTION_TYPES), title: z.string(), tags: z.optional(z.array(z.string())) }),
  /** What a question built this way records as its `sourceTemplate`. */
  sourceTemplate: SourceTemplate,
});
/**
 * The answer of `questionTemplates.apply`: the question the template gives for the values passed,
 * and its `sourceTemplate`. Nothing is saved. The spec shows no fields: this shape is the SDK's choice.
 * @example
 * ```ts
 * const application: QuestionTemplateApplication = await client.questionTemplates.apply(templateId, { templateValues: { city: 'Oslo', date: '1 June 2027' } });
 * console.log(application.question.title, application.sourceTemplate.templateValues);
 * ```
 */
export interface QuestionTemplateApplication extends z.output<typeof QuestionTemplateApplication> {}

export const QuestionTemplateFill = exact({
  /** A text for every blank; the values you passed are kept as they were. */
  templateValues: z.record(z.string(), z.string()),
});
/**
 * The answer of `questionTemplates.fill`: `templateValues` for every blank. Nothing is saved.
 * @example
 * ```ts
 * const { templateValues }: QuestionTemplateFill = await client.questionTemplates.fill(templateId, { prompt: 'Paris, 1 June 2027' });
 * await client.questions.create({ templateId, templateValues });
 * ```
 */
export interface QuestionTemplateFill extends z.output<typeof QuestionTemplateFill> {}
