/**
 * Forecast presets: personal ones for their owner, organization ones for the whole organization
 * (changed only by an organization admin), their files, and the default presets.
 * @module
 */
import { presetFileOperations as fops, presetOperations as ops } from '../../api/presets.js';
import type { PresetFileJSON } from '../../schemas/presets.js';
import { requireOrganizationAdmin } from '../auth.js';
import { fromBase64Url } from '../base64url.js';
import { badRequest } from '../http.js';
import { deleteFile, editFile, fileView, findFile, storeFile, type UploadInput } from '../models/context/files.js';
import { canSeePreset, defaultPreset, deletePreset, findPreset, presetView, PRESETS, requireEditable, setDefaultPreset, type PresetRecord } from '../models/presets.js';
import { cursorPage } from '../paging.js';
import { requireUploads } from './context.js';
import { handlersFor, type HandlerContext } from './types.js';

const presetOf = (ctx: HandlerContext) => findPreset(ctx.store, ctx.principal, ctx.pathParams['preset_id']!);

/** The preset of the path, if the caller may change it (403 otherwise). */
function editable(ctx: HandlerContext): PresetRecord {
  const preset = presetOf(ctx);
  requireEditable(preset, ctx.principal);
  return preset;
}

const file = (ctx: HandlerContext) => findFile(ctx.store, { presetId: editable(ctx).id }, ctx.pathParams['file_id']!);

const defaults = (ctx: HandlerContext) => ({
  userPresetId: defaultPreset(ctx.store, 'user', ctx.principal.userId),
  organizationPresetId: defaultPreset(ctx.store, 'organization', ctx.principal.organizationId),
});

export const presetHandlers = [
  ...handlersFor(ops, {
    list: (ctx) =>
      cursorPage(ctx.store.collection(PRESETS).list((p) => canSeePreset(p, ctx.principal)).map((p) => presetView(ctx.store, p)), ctx.input, (p) => p.id),
    create: (ctx) => {
      const { scope, name, disabledConnectionIds = [], notes = [] } = ctx.input;
      if (scope === 'organization') requireOrganizationAdmin(ctx.principal, 'scope: an organization preset');
      const now = ctx.timestamp();
      const preset = ctx.store.collection(PRESETS).insert({
        id: crypto.randomUUID(),
        scope,
        name,
        disabledConnectionIds,
        notes: notes.map((n) => ({ text: n.text, treatment: n.treatment ?? 'consider' })),
        ownerId: ctx.principal.userId,
        organizationId: ctx.principal.organizationId,
        createdAt: now,
        updatedAt: now,
      });
      return presetView(ctx.store, preset);
    },
    retrieveDefaults: defaults,
    updateDefaults: (ctx) => {
      const { userPresetId, organizationPresetId } = ctx.input;
      if (organizationPresetId !== undefined) {
        requireOrganizationAdmin(ctx.principal, 'organizationPresetId: the organization default');
        if (organizationPresetId && findPreset(ctx.store, ctx.principal, organizationPresetId, 'organizationPresetId').scope !== 'organization') {
          throw badRequest('must be an organization preset: a personal one is not seen by the others', 'organizationPresetId');
        }
      }
      if (userPresetId) findPreset(ctx.store, ctx.principal, userPresetId, 'userPresetId');
      if (userPresetId !== undefined) setDefaultPreset(ctx.store, 'user', ctx.principal.userId, userPresetId);
      if (organizationPresetId !== undefined) setDefaultPreset(ctx.store, 'organization', ctx.principal.organizationId, organizationPresetId);
      return defaults(ctx);
    },
    retrieve: (ctx) => presetView(ctx.store, presetOf(ctx)),
    update: (ctx) => {
      const preset = editable(ctx);
      const { name, disabledConnectionIds, notes } = ctx.input;
      Object.assign(preset, {
        name: name ?? preset.name,
        disabledConnectionIds: disabledConnectionIds ?? preset.disabledConnectionIds,
        notes: notes ? notes.map((n) => ({ text: n.text, treatment: n.treatment ?? 'consider' })) : preset.notes,
        updatedAt: ctx.timestamp(),
      });
      return presetView(ctx.store, preset);
    },
    delete: (ctx) => deletePreset(ctx.store, editable(ctx)),
  }),
  ...handlersFor(fops, {
    upload: async (ctx) => {
      const presetId = editable(ctx).id;
      requireUploads(ctx);
      const input = ctx.input as UploadInput | PresetFileJSON;
      // The JSON form: `{filename, contentBase64}` (already checked as base64 of at most 10 MiB).
      const upload = 'contentBase64' in input ? { ...input, file: new Blob([fromBase64Url(input.contentBase64) as Uint8Array<ArrayBuffer>]) } : input;
      return fileView(await storeFile(ctx, { presetId }, upload));
    },
    retrieve: (ctx) => fileView(findFile(ctx.store, { presetId: presetOf(ctx).id }, ctx.pathParams['file_id']!)),
    update: (ctx) => fileView(editFile(ctx, ctx.input, file(ctx))),
    delete: (ctx) => deleteFile(ctx.store, file(ctx)),
  }),
];
