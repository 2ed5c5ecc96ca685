/**
 * The registry of the service's operation groups, as the spec's groups: every table keyed by group
 * (the declarations, the record schemas, the mock's handlers) is checked against these names by the
 * compiler, so a group cannot be missing from one of them.
 * @module
 */

/** The spec's operation groups. */
export const GROUP_NAMES = ['questions', 'forecasts', 'chat', 'schedules', 'account', 'webhooks', 'decisions', 'context', 'presets', 'templates', 'connections', 'sharing'] as const;

/** The name of one of the spec's operation groups. */
export type GroupName = (typeof GROUP_NAMES)[number];
