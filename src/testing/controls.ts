/**
 * The mock's test hooks: one control object per group, built once per service from
 * {@link CONTROL_GROUPS} and reached as `service.controls.<group>`.
 * @module
 */
import type { MockEnv } from './env.js';
import { ConnectionControls } from './models/connections.js';
import { ContextControls, type UploadSwitch } from './models/context/controls.js';
import { DecisionControls } from './models/decision.js';
import { ForecastControls } from './models/forecasts/controls.js';

/** What the controls are built on: the world, the upload setting and who they act for by default. */
export interface ControlEnv extends MockEnv {
  uploads: UploadSwitch;
  /** The default key's organization and user, read at each call (a revoked key falls back). */
  defaultCaller(): { organizationId: string; userId: string };
}

/**
 * The test hooks of a mock service, one object per group: `forecasts` (outcomes, credits, news,
 * activity), `decisions` (prices, link outcomes), `context` (failing files, uploads off, a question's
 * preset) and `connections` (the simulated network).
 * @example
 * ```ts
 * service.controls.forecasts.setOutcome(questionId, { task: 'failed' });
 * service.controls.decisions.setPrice('forecast.light', 3);
 * ```
 */
export interface MockControls {
  readonly forecasts: ForecastControls;
  readonly decisions: DecisionControls;
  readonly context: ContextControls;
  readonly connections: ConnectionControls;
}

/** Each group's control object, from the service's world. A new group's controls are one row here (and one field above). */
const CONTROL_GROUPS: { readonly [G in keyof MockControls]: (env: ControlEnv) => MockControls[G] } = {
  forecasts: (env) => new ForecastControls(env, () => env.defaultCaller()),
  decisions: (env) => new DecisionControls(env.store),
  context: (env) => new ContextControls(env, env.uploads),
  connections: (env) => new ConnectionControls(env.store, () => new Date(env.clock.now()).toISOString()),
};

/** Builds every group's controls once. */
export function buildControls(env: ControlEnv): MockControls {
  const built = Object.fromEntries(Object.entries(CONTROL_GROUPS).map(([group, build]) => [group, build(env)]));
  return Object.freeze(built) as unknown as MockControls;
}
