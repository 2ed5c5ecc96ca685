/**
 * Forecast preset requests: presets, their files (multipart or the JSON form), the default presets.
 * @module
 */
import * as z from 'zod/mini';
import { MAX_FILE_BYTES } from '../api/limits.js';
import { exact, rule, unionByKey } from './common.js';
import { ContextFileUploadParams, fileSettings, Id, TOO_BIG, type ContextListParams } from './context.js';
import { OWNERSHIP_SCOPES } from './enums.js';
import { ContextNoteInput } from './forecasts.js';

const NullableId = z.optional(z.nullable(Id));
const BASE64 = 'must be base64 text';
/** Base64 text: groups of four of its letters, `=` padding only at the end (a character class, not groups: a 10 MiB text overflows a regex of repeated groups). */
const isBase64 = (text: string) => text.length % 4 === 0 && /^[\dA-Za-z+/]*={0,2}$/.test(text);

/** A preset file as JSON: its name and its bytes in base64. */
export const PresetFileJSON = exact({
  /** The file's name. */
  filename: Id,
  /** The file's bytes, base64-encoded; at most 10 MiB once decoded. */
  contentBase64: z.string({ error: BASE64 }).check(rule(isBase64, '', BASE64), rule((s: string) => (s.length * 3) / 4 - (s.endsWith('==') ? 2 : s.endsWith('=') ? 1 : 0) <= MAX_FILE_BYTES, '', TOO_BIG)),
  ...fileSettings,
});
/**
 * A preset file sent as JSON `{filename, contentBase64}` rather than as multipart.
 * @example
 * ```ts
 * const file: PresetFileJSON = { filename: 'rules.txt', contentBase64: Buffer.from('Official data first.').toString('base64'), treatment: 'assume_true' };
 * await client.presets.files.upload(presetId, file);
 * ```
 */
export interface PresetFileJSON extends z.input<typeof PresetFileJSON> {}

/** Body of `POST /forecast-presets/{preset_id}/files`: a `file` (multipart), or `{filename, contentBase64}` (JSON). */
export const PresetFileUploadParams = unionByKey('contentBase64', PresetFileJSON, ContextFileUploadParams) as unknown as z.ZodMiniType<PresetFileUploadParams, PresetFileUploadParams>;
/**
 * Body of `POST /forecast-presets/{preset_id}/files`: a `file` sent as multipart, or the JSON form `{filename, contentBase64}`.
 * @example
 * ```ts
 * const asMultipart: PresetFileUploadParams = { file: new Blob(['a,b\n1,2']), filename: 'data.csv', artifactType: 'dataset' };
 * const asJSON: PresetFileUploadParams = { filename: 'data.csv', contentBase64: 'YSxiCjEsMg==', artifactType: 'dataset' };
 * await client.presets.files.upload(presetId, asJSON);
 * ```
 */
export type PresetFileUploadParams = ContextFileUploadParams | PresetFileJSON;

const presetFields = {
  /** The preset's name. */
  name: z.string().check(z.minLength(1)),
  /** Connections its forecasts leave out; a connection added later is on until a preset switches it off. */
  disabledConnectionIds: z.optional(z.array(Id)),
  /** Notes its forecasts receive, each `{text, treatment}`. */
  notes: z.optional(z.array(ContextNoteInput)),
};

/**
 * Body of `POST /forecast-presets`.
 * @example
 * ```ts
 * await client.presets.create({ scope: 'personal', name: 'Careful', notes: [{ text: 'Weigh official data first', treatment: 'consider' }] });
 * ```
 */
export const PresetCreateParams = exact({
  /** `personal`, or `organization` (needs an organization admin). */
  scope: z.enum(OWNERSHIP_SCOPES),
  ...presetFields,
});
/**
 * Body of `POST /forecast-presets`: `scope`, `name`, `disabledConnectionIds`, `notes`.
 * @example
 * ```ts
 * const params: PresetCreateParams = { scope: 'organization', name: 'No CRM', disabledConnectionIds: [connectionId], notes: [{ text: 'Prefer official statistics.' }] };
 * const preset = await client.presets.create(params);
 * ```
 */
export interface PresetCreateParams extends z.input<typeof PresetCreateParams> {}

/** Body of `PATCH /forecast-presets/{preset_id}`. Not shown in the spec: the SDK sends the fields to change (lists replace the old ones). */
export const PresetUpdateParams = z.partial(exact(presetFields));
/**
 * Body of `PATCH /forecast-presets/{preset_id}`: the fields to change (not shown in the spec: the SDK's choice).
 * @example
 * ```ts
 * const change: PresetUpdateParams = { name: 'Careful (v2)', disabledConnectionIds: [] }; // lists replace the old ones
 * await client.presets.update(presetId, change);
 * ```
 */
export interface PresetUpdateParams extends z.input<typeof PresetUpdateParams> {}

/** Body of `PUT /forecast-presets/defaults`: the fields sent change; `null` clears one. */
export const PresetDefaultsParams = exact({
  /** Your own default preset. */
  userPresetId: NullableId,
  /** The organization's default preset (needs an organization admin). */
  organizationPresetId: NullableId,
});
/**
 * Body of `PUT /forecast-presets/defaults`: `userPresetId`, and `organizationPresetId` for an organization admin.
 * @example
 * ```ts
 * const params: PresetDefaultsParams = { userPresetId: presetId, organizationPresetId: null }; // null clears one
 * await client.presets.updateDefaults(params);
 * ```
 */
export interface PresetDefaultsParams extends z.input<typeof PresetDefaultsParams> {}

/**
 * Query of `GET /forecast-presets`: paging.
 * @example
 * ```ts
 * for await (const preset of client.presets.list({ limit: 50 })) console.log(preset.scope, preset.name);
 * ```
 */
export interface PresetListParams extends ContextListParams {}
