/**
 * The names of the spec's operation groups: a leaf every group-keyed table is checked against (the
 * registry in `index.ts`, the record modules, the mock's handlers), importing nothing itself.
 * @module
 */

/** The spec's operation groups. */
export const GROUP_NAMES = ['questions', 'forecasts', 'chat', 'schedules', 'account', 'webhooks', 'decisions', 'context', 'presets', 'templates', 'connections', 'sharing'] as const;

/** The name of one of the spec's operation groups. */
export type GroupName = (typeof GROUP_NAMES)[number];
