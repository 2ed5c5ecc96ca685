/**
 * Forecast preset records. The spec shows a preset's creation fields only; the rest is this SDK's
 * lenient reading (the mock sends it). The schemas load only with `validateResponses`.
 * @module
 */
import * as z from 'zod/mini';
import { Timestamp, exact, openEnum, openString } from '../common.js';
import { TREATMENTS, type PresetScope } from '../enums.js';
import { ContextFile } from './context.js';

export const PresetNote = exact({
  text: z.string(),
  /** `consider`, `look_into`, `assume_true` or `ignore`. */
  treatment: openEnum(TREATMENTS),
});
/** A note of a preset: every forecast using the preset receives it. */
export interface PresetNote extends z.output<typeof PresetNote> {}

export const Preset = exact({
  id: z.string(),
  /** `personal` or `organization`. */
  scope: openString<PresetScope>(),
  name: z.string(),
  /** Connections its forecasts leave out. */
  disabledConnectionIds: z.array(z.string()),
  notes: z.array(PresetNote),
  /** Its files, each with its `status`. Not shown in the spec: the SDK's choice. */
  files: z.optional(z.array(ContextFile)),
  createdAt: z.optional(Timestamp),
  updatedAt: z.optional(Timestamp),
});
/**
 * A forecast preset: notes, files and connections switched off, applied to the forecasts that use
 * it. Not shown in the spec beyond the creation fields: `id`, `files` and the timestamps are the
 * SDK's lenient reading.
 * @example
 * ```ts
 * const preset = await client.presets.retrieve(presetId);
 * console.log(preset.name, preset.files?.map((f) => f.status));
 * ```
 */
export interface Preset extends z.output<typeof Preset> {}

export const PresetDefaults = exact({
  /** Your own default preset, or null. */
  userPresetId: z.nullable(z.string()),
  /** The organization's default preset, or null. */
  organizationPresetId: z.nullable(z.string()),
});
/**
 * The default presets: a forecast with no `presetId` uses the question's own preset, else yours, else
 * the organization's. Not shown in the spec beyond the `PUT` body: the SDK's choice.
 */
export interface PresetDefaults extends z.output<typeof PresetDefaults> {}
