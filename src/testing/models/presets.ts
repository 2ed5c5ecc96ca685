/**
 * Forecast presets in the mock: who sees and changes them, the default presets, and which preset a
 * forecast uses: the `presetId` it was given (`none` for none), else the question's own preset, else
 * the caller's default, else the organization's.
 * @module
 */
import type { OwnershipScope, Treatment } from '../../schemas/enums.js';
import type { Preset } from '../../schemas/records/presets.js';
import type { Principal } from '../auth.js';
import { MockHttpError, notFound } from '../http.js';
import { collectionKey, type MockStore, type QuestionRecord } from '../store.js';
import { deleteFile, fileView, filesOf } from './context/files.js';

/**
 * A stored preset and who owns it.
 * @example
 * ```ts
 * const record: PresetRecord | undefined = service.store.collection(PRESETS).get(presetId);
 * console.log(record?.ownerId, record?.scope, record?.notes);
 * ```
 */
export interface PresetRecord {
  id: string;
  scope: OwnershipScope;
  name: string;
  disabledConnectionIds: string[];
  notes: Array<{ text: string; treatment: Treatment }>;
  ownerId: string;
  organizationId: string;
  createdAt: string;
  updatedAt: string;
}
/**
 * The presets.
 * @example
 * ```ts
 * const orgPresets = service.store.collection(PRESETS).list((p) => p.scope === 'organization');
 * ```
 */
export const PRESETS = collectionKey<PresetRecord>('presets');

/**
 * A default preset: `id` is `user:<userId>` or `organization:<organizationId>`.
 * @example
 * ```ts
 * await client.presets.updateDefaults({ userPresetId: presetId });
 * const record: PresetDefaultRecord | undefined = service.store.collection(PRESET_DEFAULTS).get(`user:${userId}`); // { id, presetId }
 * ```
 */
export interface PresetDefaultRecord {
  id: string;
  presetId: string | null;
}
/**
 * The default presets, of users and organizations.
 * @example
 * ```ts
 * const orgDefault = service.store.collection(PRESET_DEFAULTS).get('organization:org1')?.presetId ?? null;
 * ```
 */
export const PRESET_DEFAULTS = collectionKey<PresetDefaultRecord>('presetDefaults');

/** Who is asking: a principal, or the owner of a schedule or watch. */
export type Viewer = Pick<Principal, 'userId' | 'organizationId'>;

/** A personal preset is its owner's; an organization preset is everyone's in the organization. */
export const canSeePreset = (p: PresetRecord, v: Viewer): boolean =>
  p.scope === 'organization' ? p.organizationId === v.organizationId : p.ownerId === v.userId;

/** The preset `id` if the viewer sees it; otherwise 404 naming `field`. */
export function findPreset(store: MockStore, v: Viewer, id: string, field = 'presetId'): PresetRecord {
  const preset = store.collection(PRESETS).get(id);
  if (!preset || !canSeePreset(preset, v)) throw notFound(`${field}: no forecast preset ${id}`);
  return preset;
}

/** 403 unless the caller may change the preset: its owner, or an organization admin for an organization preset. */
export function requireEditable(p: PresetRecord, principal: Principal): void {
  if (p.scope === 'organization' && !principal.organizationAdmin) {
    throw new MockHttpError(403, 'permission_denied', 'scope: an organization preset can be changed only by an organization admin');
  }
}

const defaultKey = (kind: 'user' | 'organization', id: string) => `${kind}:${id}`;

/** The default preset of a user or an organization (null when none). */
export function defaultPreset(store: MockStore, kind: 'user' | 'organization', id: string): string | null {
  return store.collection(PRESET_DEFAULTS).get(defaultKey(kind, id))?.presetId ?? null;
}

/** Sets (or, with null, clears) a default preset. */
export function setDefaultPreset(store: MockStore, kind: 'user' | 'organization', id: string, presetId: string | null): void {
  const defaults = store.collection(PRESET_DEFAULTS);
  defaults.delete(defaultKey(kind, id));
  defaults.insert({ id: defaultKey(kind, id), presetId });
}

/** Deletes a preset with its files; defaults and questions pointing to it no longer do. */
export function deletePreset(store: MockStore, p: PresetRecord): void {
  for (const file of filesOf(store, { presetId: p.id })) deleteFile(store, file);
  for (const d of store.collection(PRESET_DEFAULTS).list((d) => d.presetId === p.id)) d.presetId = null;
  for (const q of store.questions.list((q) => q.presetId === p.id)) q.presetId = null;
  store.collection(PRESETS).delete(p.id);
}

/**
 * The preset a forecast uses: `presetId` as given (`none`: none; an id the starter cannot see: 404),
 * else the question's own preset (see `QuestionRecord.presetId`), else the starter's default, else
 * the organization's.
 *
 * Only presets the starter may see are ever used: a question's own preset (or a default) that the
 * starter cannot see — deleted, or someone else's personal preset on a question the organization
 * reads — is skipped as if it were not set, and the next choice applies. So a forecast never runs
 * with, nor reports the files of, a preset its starter could not pick.
 */
export function resolvePreset(store: MockStore, starter: Viewer, question: QuestionRecord, presetId: string | null | undefined): PresetRecord | null {
  if (presetId === 'none') return null;
  if (presetId) return findPreset(store, starter, presetId);
  const presets = store.collection(PRESETS);
  const candidates = [question.presetId, defaultPreset(store, 'user', starter.userId), defaultPreset(store, 'organization', starter.organizationId)];
  for (const id of candidates) {
    const preset = id ? presets.get(id) : undefined;
    if (preset && canSeePreset(preset, starter)) return preset;
  }
  return null;
}

/** The preset as a read shows it, with its files. */
export function presetView(store: MockStore, { ownerId: _o, organizationId: _g, ...p }: PresetRecord): Preset {
  return { ...p, files: filesOf(store, { presetId: p.id }).map(fileView) };
}
