/**
 * How the mock turns question input into the stored question the spec shows, and who may see it.
 * @module
 */
import type { QuestionType } from '../../schemas/questions.js';
import type { Question } from '../../schemas/records/questions.js';
import type { SourceTemplate } from '../../schemas/records/templates.js';
import type { Principal } from '../auth.js';
import type { CallEnv } from '../env.js';
import { notFound } from '../http.js';
import type { QuestionRecord } from '../store.js';
import { callsignFor } from './callsign.js';

/** The question input fields, after the type rules were checked. */
export interface QuestionDefinition {
  type: QuestionType;
  title: string;
  description?: string | undefined;
  resolutionCriteria?: string | undefined;
  finePrint?: string | undefined;
  tags?: string[] | undefined;
  visibility?: 'private' | 'organization' | undefined;
  options?: string[] | undefined;
  lowerBound?: number | null | undefined;
  upperBound?: number | null | undefined;
  openLowerBound?: boolean | undefined;
  openUpperBound?: boolean | undefined;
  scaleType?: 'linear' | 'logarithmic' | null | undefined;
  optionsAreMutuallyExclusive?: boolean | undefined;
  optionsAreComprehensive?: boolean | undefined;
}

/** The input fields a question carries, in the order the spec lists them. */
export const DEFINITION_FIELDS = [
  'type',
  'title',
  'description',
  'resolutionCriteria',
  'finePrint',
  'tags',
  'visibility',
  'options',
  'lowerBound',
  'upperBound',
  'openLowerBound',
  'openUpperBound',
  'scaleType',
  'optionsAreMutuallyExclusive',
  'optionsAreComprehensive',
] as const satisfies readonly (keyof QuestionDefinition)[];

/** `"Climate Policy"` → `climate-policy`. */
export function slugify(name: string): string {
  return name
    .normalize('NFKD')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

/** Tag labels as `{name, slug}`, one per slug (the first spelling wins). */
function toTags(names: readonly string[] = []): Question['tags'] {
  const seen = new Map<string, { name: string; slug: string }>();
  for (const raw of names) {
    const name = raw.trim();
    const slug = slugify(name);
    if (name && !seen.has(slug)) seen.set(slug, { name, slug });
  }
  return [...seen.values()];
}

/** The question as the service shows it, with the defaults of the spec's Question table. */
export function buildQuestion(
  def: QuestionDefinition,
  meta: { id: string; callsign: string; createdAt: string; updatedAt: string; sourceTemplate?: SourceTemplate | undefined },
): Question {
  const bounded = def.type === 'numeric' || def.type === 'discrete' || def.type === 'date';
  // One object for every type; `type` decides which branch of the union it is.
  return <Question>{
    id: meta.id,
    type: def.type,
    title: def.title,
    description: def.description ?? '',
    resolutionCriteria: def.resolutionCriteria ?? '',
    finePrint: def.finePrint ?? '',
    options: def.type === 'multiple_choice' ? [...(def.options ?? [])] : [],
    lowerBound: bounded ? (def.lowerBound ?? null) : null,
    upperBound: bounded ? (def.upperBound ?? null) : null,
    openLowerBound: def.openLowerBound ?? false,
    openUpperBound: def.openUpperBound ?? false,
    scaleType: def.type === 'numeric' ? (def.scaleType ?? null) : null,
    callsign: meta.callsign,
    optionsAreMutuallyExclusive: def.optionsAreMutuallyExclusive ?? true,
    optionsAreComprehensive: def.optionsAreComprehensive ?? true,
    visibility: def.visibility ?? 'private',
    createdVia: 'api',
    tags: toTags(def.tags),
    ...(meta.sourceTemplate && { sourceTemplate: meta.sourceTemplate }),
    createdAt: meta.createdAt,
    updatedAt: meta.updatedAt,
  };
}

/** The input fields of a stored question, to merge an edit into. */
export function definitionOf(q: Question): QuestionDefinition {
  return {
    type: q.type as QuestionType,
    title: q.title,
    description: q.description,
    resolutionCriteria: q.resolutionCriteria,
    finePrint: q.finePrint,
    tags: q.tags.map((t) => t.name),
    visibility: q.visibility as 'private' | 'organization',
    options: q.options,
    lowerBound: q.lowerBound,
    upperBound: q.upperBound,
    openLowerBound: q.openLowerBound,
    openUpperBound: q.openUpperBound,
    scaleType: q.scaleType as 'linear' | 'logarithmic' | null,
    optionsAreMutuallyExclusive: q.optionsAreMutuallyExclusive,
    optionsAreComprehensive: q.optionsAreComprehensive,
  };
}

/** Stores a new question owned by the caller (built from a template when `sourceTemplate` is given). */
export function insertQuestion(ctx: CallEnv, def: QuestionDefinition, sourceTemplate?: SourceTemplate, presetId: string | null = null): Question {
  const questions = ctx.store.questions;
  const now = ctx.timestamp();
  const callsign = callsignFor(def.title, (c) => questions.some((r) => r.question.callsign === c));
  const question = buildQuestion(def, { id: crypto.randomUUID(), callsign, createdAt: now, updatedAt: now, sourceTemplate });
  questions.insert({
    id: question.id,
    question,
    ownerId: ctx.principal.userId,
    organizationId: ctx.principal.organizationId,
    presetId,
  });
  return question;
}

/** Its owner sees a question; its organization does too when `visibility` is `organization`. */
export function canSee(record: QuestionRecord, principal: Principal): boolean {
  return (
    record.ownerId === principal.userId ||
    (record.question.visibility === 'organization' && record.organizationId === principal.organizationId)
  );
}

/** The question records the caller sees, newest first. */
export function visibleQuestions(ctx: CallEnv): QuestionRecord[] {
  return ctx.store.questions.list((r) => canSee(r, ctx.principal));
}

/** The record of `id` if the caller sees it; otherwise 404, as for an id that does not exist. */
export function findVisibleQuestion(ctx: CallEnv, id: string): QuestionRecord {
  const record = ctx.store.questions.get(id);
  if (!record || !canSee(record, ctx.principal)) throw notFound(`questionId: no question ${id}`);
  return record;
}

/** The question input fields present in `source` (others, such as `id` or unknown keys, are dropped). */
export function pickDefinition(source: object): Partial<QuestionDefinition> {
  const out: Record<string, unknown> = {};
  for (const field of DEFINITION_FIELDS) {
    const value: unknown = (source as Record<string, unknown>)[field];
    if (value !== undefined) out[field] = value;
  }
  return out as Partial<QuestionDefinition>;
}
