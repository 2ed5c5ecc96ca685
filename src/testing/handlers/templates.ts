/**
 * Question templates: list, add (also from a question), read, edit, delete, apply, fill, and the
 * template files. The blank rules are the shared `templateIssues` (the SDK checks the same before
 * sending); a template edit is checked again as a whole here.
 * @module
 */
import { questionTemplateFileOperations as fileOps, questionTemplateOperations as ops } from '../../api/templates.js';
import { templateIssues } from '../../schemas/templates.js';
import type { QuestionTemplate } from '../../schemas/records/templates.js';
import { requireOrganizationAdmin } from '../auth.js';
import { badRequest, notFound } from '../http.js';
import { findPreset } from '../models/presets.js';
import { findVisibleQuestion } from '../models/question.js';
import {
  QUESTION_TEMPLATES,
  TEMPLATE_FILE_PROCESSING_MS,
  TEMPLATE_FILES,
  fieldsOfQuestion,
  fillFromPrompt,
  findTemplate,
  findWritableTemplate,
  ownerOf,
  questionFromTemplate,
  templateFileView,
  templateView,
  visibleTemplates,
  type TemplateFileRecord,
  type TemplateRecord,
} from '../models/templates.js';
import { cursorPage } from '../paging.js';
import { requireUploads } from './context.js';
import { handlersFor, type HandlerContext } from './types.js';

const templateOf = (ctx: HandlerContext) => findTemplate(ctx, ctx.pathParams['template_id']!);
const writableOf = (ctx: HandlerContext) => findWritableTemplate(ctx, ctx.pathParams['template_id']!);
const view = (ctx: HandlerContext, record: TemplateRecord) => templateView(ctx.store, record, ctx.clock.now());

/** Stores a new template; an organization one needs an admin. */
function insert(ctx: HandlerContext, template: Omit<QuestionTemplate, 'id' | 'createdAt' | 'updatedAt' | 'files'>): QuestionTemplate {
  if (template.scope === 'organization') requireOrganizationAdmin(ctx.principal, 'scope: an organization template');
  const now = ctx.timestamp();
  const id = crypto.randomUUID();
  return view(ctx, ctx.store.collection(QUESTION_TEMPLATES).insert({ id, ...ownerOf(ctx), template: { id, ...template, createdAt: now, updatedAt: now } }));
}

/** The file of a template the caller sees, else 404. */
function findFile(ctx: HandlerContext, template: TemplateRecord): TemplateFileRecord {
  const id = ctx.pathParams['file_id']!;
  const file = ctx.store.collection(TEMPLATE_FILES).get(id);
  if (!file || file.templateId !== template.id) throw notFound(`fileId: no file ${id} on template ${template.id}`);
  return file;
}

export const templateHandlers = [
  ...handlersFor(ops, {
    list: (ctx) => {
      const scope = ctx.input.scope;
      const found = visibleTemplates(ctx).filter((r) => !scope || r.template.scope === scope);
      return cursorPage(
        found.map((r) => view(ctx, r)),
        ctx.input,
        (t) => t.id,
      );
    },
    create: (ctx) => {
      const { scope, name, questionType, fields, blanks, notes, tags, presetId } = ctx.input;
      // A preset the caller cannot see is refused, as `forecasts.create({ presetId })` refuses it.
      if (presetId) findPreset(ctx.store, ctx.principal, presetId);
      return insert(ctx, {
        scope,
        name,
        questionType,
        fields,
        blanks: blanks.map((b) => ({ key: b.key, label: b.label ?? b.key, hint: b.hint ?? null })),
        notes: (notes ?? []).map((n) => ({ text: n.text, treatment: n.treatment ?? 'consider' })),
        tags: tags ?? [],
        presetId: presetId ?? null,
      });
    },
    createFromQuestion: (ctx) => {
      const { question } = findVisibleQuestion(ctx, ctx.input.questionId);
      return insert(ctx, {
        scope: ctx.input.scope,
        name: ctx.input.name,
        questionType: question.type,
        fields: fieldsOfQuestion(question),
        blanks: [],
        notes: [],
        tags: question.tags.map((t) => t.name),
        presetId: null,
      });
    },
    retrieve: (ctx) => view(ctx, templateOf(ctx)),
    update: (ctx) => {
      const record = writableOf(ctx);
      const { name, fields, blanks, notes, tags, presetId } = ctx.input;
      if (presetId) findPreset(ctx.store, ctx.principal, presetId);
      const template = {
        ...record.template,
        ...(name !== undefined && { name }),
        ...(fields !== undefined && { fields }),
        ...(blanks !== undefined && { blanks: blanks.map((b) => ({ key: b.key, label: b.label ?? b.key, hint: b.hint ?? null })) }),
        ...(notes !== undefined && { notes: notes.map((n) => ({ text: n.text, treatment: n.treatment ?? 'consider' })) }),
        ...(tags !== undefined && { tags }),
        ...(presetId !== undefined && { presetId }),
        updatedAt: ctx.timestamp(),
      };
      // The blank rules hold for the template as a whole: an edit of only fields or only blanks is checked here.
      const [issue] = templateIssues(template);
      if (issue) throw badRequest(issue.message, issue.path.join('.'));
      record.template = template;
      return view(ctx, record);
    },
    delete: (ctx) => {
      const record = writableOf(ctx);
      const files = ctx.store.collection(TEMPLATE_FILES);
      for (const f of files.list((f) => f.templateId === record.id)) files.delete(f.id);
      ctx.store.collection(QUESTION_TEMPLATES).delete(record.id);
    },
    apply: (ctx) => {
      const { definition, sourceTemplate } = questionFromTemplate(templateOf(ctx), ctx.input);
      return { question: definition, sourceTemplate };
    },
    fill: (ctx) => {
      const record = templateOf(ctx);
      const given = ctx.input.templateValues ?? {};
      const keys = new Set(record.template.blanks.map((b) => b.key));
      for (const key of Object.keys(given)) {
        if (!keys.has(key)) throw badRequest(`the template has no blank "${key}"`, `templateValues.${key}`);
      }
      return { templateValues: fillFromPrompt(record, ctx.input.prompt, given) };
    },
  }),
  ...handlersFor(fileOps, {
    upload: async (ctx) => {
      const record = writableOf(ctx);
      // The organization's setting refuses every upload, a template's as a question's or a preset's.
      requireUploads(ctx);
      // The form was read and checked once, as every upload's is (`inputOf`).
      const input = ctx.input;
      if (!(input.file instanceof File)) throw badRequest('must be a file part of the form', 'file');
      const id = crypto.randomUUID();
      const file: TemplateFileRecord = {
        id,
        templateId: record.id,
        readyAt: ctx.clock.now() + TEMPLATE_FILE_PROCESSING_MS,
        file: {
          id,
          templateId: record.id,
          filename: input.file.name,
          artifactType: input.artifactType ?? 'user_context',
          treatment: input.treatment ?? 'consider',
          userNote: input.userNote ?? null,
          sizeBytes: input.file.size,
          createdAt: ctx.timestamp(),
        },
      };
      ctx.store.collection(TEMPLATE_FILES).insert(file);
      return templateFileView(file, ctx.clock.now());
    },
    retrieve: (ctx) => templateFileView(findFile(ctx, templateOf(ctx)), ctx.clock.now()),
    update: (ctx) => {
      const file = findFile(ctx, writableOf(ctx));
      const { artifactType, treatment, userNote } = ctx.input;
      file.file = {
        ...file.file,
        ...(artifactType !== undefined && { artifactType }),
        ...(treatment !== undefined && { treatment }),
        ...(userNote !== undefined && { userNote }),
      };
      return templateFileView(file, ctx.clock.now());
    },
    delete: (ctx) => {
      ctx.store.collection(TEMPLATE_FILES).delete(findFile(ctx, writableOf(ctx)).id);
    },
  }),
];
