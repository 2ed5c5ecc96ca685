import { APIResource } from '../core/resource.js';
import { presetFileOperations, presetOperations } from '../api/presets.js';
import type { APIPromise } from '../core/api-promise.js';
import type { PagePromise } from '../core/pagination.js';
import type { RequestOptions } from '../core/options.js';
import type { ContextFileUpdateParams } from '../schemas/context.js';
import type { PresetCreateParams, PresetDefaultsParams, PresetFileUploadParams, PresetUpdateParams, PresetListParams } from '../schemas/presets.js';
import type { ContextFile } from '../schemas/records/context.js';
import type { Preset, PresetDefaults } from '../schemas/records/presets.js';

/**
 * A preset's files (`client.presets.files`). While one is `processing`, a forecast with the preset
 * answers 409 `ContextNotReadyError`.
 * @example
 * ```ts
 * await client.presets.files.upload(presetId, { filename: 'style.md', contentBase64: Buffer.from('# House style').toString('base64') });
 * ```
 */
export class PresetFiles extends APIResource {
  /**
   * Adds a file: a `file` as `multipart/form-data` (any upload form, as for `questions.files.upload`),
   * or the JSON form `{filename, contentBase64}`. At most 10 MiB.
   * @example
   * ```ts
   * const file = await client.presets.files.upload(presetId, { file: new File(['Prefer primary sources.'], 'sources.txt') });
   * ```
   */
  upload(presetId: string, params: PresetFileUploadParams, options?: RequestOptions): APIPromise<ContextFile> {
    return this._call(presetFileOperations.upload, [presetId], params, options);
  }

  /**
   * Reads a preset file's status.
   * @example
   * ```ts
   * const { status } = await client.presets.files.retrieve(presetId, fileId);
   * ```
   */
  retrieve(presetId: string, fileId: string, options?: RequestOptions): APIPromise<ContextFile> {
    return this._call(presetFileOperations.retrieve, [presetId, fileId], undefined, options);
  }

  /**
   * Changes a preset file's settings (not shown in the spec: the same as a question file's).
   * @example
   * ```ts
   * await client.presets.files.update(presetId, fileId, { treatment: 'look_into' });
   * ```
   */
  update(presetId: string, fileId: string, params: ContextFileUpdateParams, options?: RequestOptions): APIPromise<ContextFile> {
    return this._call(presetFileOperations.update, [presetId, fileId], params, options);
  }

  /**
   * Removes a preset file.
   * @example
   * ```ts
   * await client.presets.files.delete(presetId, fileId);
   * ```
   */
  delete(presetId: string, fileId: string, options?: RequestOptions): APIPromise<void> {
    return this._call(presetFileOperations.delete, [presetId, fileId], undefined, options);
  }
}

/**
 * Forecast presets (`client.presets`): notes, files and connections switched off, for the forecasts
 * that use them. A forecast with no `presetId` uses the question's own preset, else your default, else
 * the organization's; `presetId: 'none'` uses none. Organization presets need an organization admin.
 * @example
 * ```ts
 * const preset = await client.presets.create({ scope: 'personal', name: 'Sceptic', notes: [{ text: 'Distrust press releases', treatment: 'consider' }] });
 * await client.presets.updateDefaults({ userPresetId: preset.id });
 * ```
 */
export class Presets extends APIResource {
  /** The presets' files. */
  readonly files: PresetFiles = new PresetFiles(this._client);

  /**
   * Lists the presets you can use: yours and your organization's.
   * @example
   * ```ts
   * for await (const preset of client.presets.list()) console.log(preset.scope, preset.name);
   * ```
   */
  list(params?: PresetListParams, options?: RequestOptions): PagePromise<Preset> {
    return this._list(presetOperations.list, [], params, options);
  }

  /**
   * Adds a preset; `scope: 'organization'` needs an organization admin (else 403).
   * @example
   * ```ts
   * await client.presets.create({ scope: 'organization', name: 'No social media', disabledConnectionIds: [connectionId] });
   * ```
   */
  create(params: PresetCreateParams, options?: RequestOptions): APIPromise<Preset> {
    return this._call(presetOperations.create, [], params, options);
  }

  /**
   * Reads a preset.
   * @example
   * ```ts
   * const preset = await client.presets.retrieve(presetId);
   * ```
   */
  retrieve(presetId: string, options?: RequestOptions): APIPromise<Preset> {
    return this._call(presetOperations.retrieve, [presetId], undefined, options);
  }

  /**
   * Changes a preset: the fields sent (lists replace the old ones).
   * @example
   * ```ts
   * await client.presets.update(presetId, { name: 'Sceptic (v2)' });
   * ```
   */
  update(presetId: string, params: PresetUpdateParams, options?: RequestOptions): APIPromise<Preset> {
    return this._call(presetOperations.update, [presetId], params, options);
  }

  /**
   * Deletes a preset (and its files; a default pointing to it is cleared).
   * @example
   * ```ts
   * await client.presets.delete(presetId);
   * ```
   */
  delete(presetId: string, options?: RequestOptions): APIPromise<void> {
    return this._call(presetOperations.delete, [presetId], undefined, options);
  }

  /**
   * Reads the default presets: `{userPresetId, organizationPresetId}`.
   * @example
   * ```ts
   * const { userPresetId, organizationPresetId } = await client.presets.retrieveDefaults();
   * ```
   */
  retrieveDefaults(options?: RequestOptions): APIPromise<PresetDefaults> {
    return this._call(presetOperations.retrieveDefaults, [], undefined, options);
  }

  /**
   * Sets the default presets: the fields sent change, `null` clears one. `organizationPresetId` needs an organization admin.
   * @example
   * ```ts
   * await client.presets.updateDefaults({ userPresetId: presetId });
   * ```
   */
  updateDefaults(params: PresetDefaultsParams, options?: RequestOptions): APIPromise<PresetDefaults> {
    return this._call(presetOperations.updateDefaults, [], params, options);
  }
}
