/**
 * The Forecast presets group: presets, their files and the default presets. Declarations only: the
 * client's resources and the mock's handlers both read them.
 * @module
 */
import { defineOperations } from '../core/operation.js';
import { accepts, returns } from '../schemas/returns.js';
import { FORECASTS } from './scopes.js';

const group = { scopes: FORECASTS };

/** The Forecast presets group (its file operations are `presetFileOperations`). */
export const presetOperations = defineOperations('presets', {
  list: { method: 'GET', path: '/forecast-presets', params: accepts('ContextListParams'), response: returns('Preset'), paging: 'cursor' },
  create: { method: 'POST', path: '/forecast-presets', params: accepts('PresetCreateParams'), response: returns('Preset'), status: 201 },
  retrieveDefaults: { method: 'GET', path: '/forecast-presets/defaults', response: returns('PresetDefaults') },
  updateDefaults: { method: 'PUT', path: '/forecast-presets/defaults', params: accepts('PresetDefaultsParams'), response: returns('PresetDefaults') },
  retrieve: { method: 'GET', path: '/forecast-presets/{preset_id}', response: returns('Preset') },
  update: { method: 'PATCH', path: '/forecast-presets/{preset_id}', params: accepts('PresetUpdateParams'), response: returns('Preset') },
  delete: { method: 'DELETE', path: '/forecast-presets/{preset_id}', status: 204 },
}, group);

/** A preset's files, of the Forecast presets group. */
export const presetFileOperations = defineOperations('presets.files', {
  upload: { method: 'POST', path: '/forecast-presets/{preset_id}/files', params: accepts('PresetFileUploadParams'), response: returns('ContextFile'), status: 201, multipart: true },
  retrieve: { method: 'GET', path: '/forecast-presets/{preset_id}/files/{file_id}', response: returns('ContextFile') },
  update: { method: 'PATCH', path: '/forecast-presets/{preset_id}/files/{file_id}', params: accepts('ContextFileUpdateParams'), response: returns('ContextFile') },
  delete: { method: 'DELETE', path: '/forecast-presets/{preset_id}/files/{file_id}', status: 204 },
}, group);
