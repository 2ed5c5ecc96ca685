/**
 * Forecast preset requests: presets, their files (multipart or the JSON form), the default presets.
 * @module
 */
import * as z from 'zod/mini';
import { MAX_FILE_BYTES } from '../core/limits.js';
import { exact, rule, unionByKey } from './common.js';
import { ContextFileUploadParams, fileSettings, Id, TOO_BIG, type ContextListParams } from './context.js';
import { PRESET_SCOPES } from './enums.js';
import { ContextNoteInput } from './forecasts.js';

const NullableId = z.optional(z.nullable(Id));

/** A preset file as JSON: its name and its bytes in base64. */
export const PresetFileJSON = exact({
  /** The file's name. */
  filename: Id,
  /** The file's bytes, base64-encoded; at most 10 MiB once decoded. */
  contentBase64: z.base64('must be base64 text').check(rule((s: string) => (s.length * 3) / 4 - (s.match(/=*$/)?.[0].length ?? 0) <= MAX_FILE_BYTES, '', TOO_BIG)),
  ...fileSettings,
});
/** A preset file sent as JSON `{filename, contentBase64}` rather than as multipart. */
export interface PresetFileJSON extends z.input<typeof PresetFileJSON> {}

/** Body of `POST /forecast-presets/{preset_id}/files`: a `file` (multipart), or `{filename, contentBase64}` (JSON). */
export const PresetFileUploadParams = unionByKey('contentBase64', PresetFileJSON, ContextFileUploadParams) as unknown as z.ZodMiniType<PresetFileUploadParams, PresetFileUploadParams>;
/** Body of `POST /forecast-presets/{preset_id}/files`: a `file` sent as multipart, or the JSON form `{filename, contentBase64}`. */
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
  scope: z.enum(PRESET_SCOPES),
  ...presetFields,
});
/** Body of `POST /forecast-presets`: `scope`, `name`, `disabledConnectionIds`, `notes`. */
export interface PresetCreateParams extends z.input<typeof PresetCreateParams> {}

/** Body of `PATCH /forecast-presets/{preset_id}`. Not shown in the spec: the SDK sends the fields to change (lists replace the old ones). */
export const PresetUpdateParams = z.partial(exact(presetFields));
/** Body of `PATCH /forecast-presets/{preset_id}`: the fields to change (not shown in the spec: the SDK's choice). */
export interface PresetUpdateParams extends z.input<typeof PresetUpdateParams> {}

/** Body of `PUT /forecast-presets/defaults`: the fields sent change; `null` clears one. */
export const PresetDefaultsParams = exact({
  /** Your own default preset. */
  userPresetId: NullableId,
  /** The organization's default preset (needs an organization admin). */
  organizationPresetId: NullableId,
});
/** Body of `PUT /forecast-presets/defaults`: `userPresetId`, and `organizationPresetId` for an organization admin. */
export interface PresetDefaultsParams extends z.input<typeof PresetDefaultsParams> {}

/** Query of `GET /forecast-presets`: paging. */
export interface PresetListParams extends ContextListParams {}
