/**
 * The options of `createRedisCoordinator`, their defaults, and the key namespace.
 * @module
 */
import { createHash } from 'node:crypto';
import type { CoordinatedWindow } from '../core/coordination.js';
import { MAX_TIMER_MS } from '../core/clock.js';
import { ValidationError } from '../core/errors.js';
import { trimKey, UNUSABLE_KEY } from '../core/redact.js';

/**
 * Options of {@link createRedisCoordinator}. Every process that shares a key must use the same
 * limits: each one enforces its own figures against the shared counts.
 * @example
 * ```ts
 * const coordinator = createRedisCoordinator(redis, { prefix: 'forecasts-prod', maxActive: 40, eventRetentionMs: 6 * 3_600_000 });
 * ```
 */
export interface RedisCoordinatorOptions {
  /**
   * The key namespace: every key is `{<prefix>}:<name>`, one Redis Cluster hash tag. Default
   * `fsdk:` and the first 16 hex digits of the SHA-256 of the API key: of the attached client's key,
   * or, in a process with no client (a webhook receiver), of `FORECASTING_API_KEY`. Never the key.
   * 1 to 100 letters, digits and `-_.:` (a `ValidationError` on `prefix` otherwise).
   */
  prefix?: string | undefined;
  /**
   * The namespace of what the service counts per user, not per key: the active-forecast slots
   * (`maxActive`, 50 per user), and the tasks' webhook events with their receivers (webhooks belong
   * to the user). Coordinators of different API keys of one user that give the same `userPrefix`
   * share those, while each key keeps its own request windows (under `prefix`). Default: `prefix`,
   * so one key is one fleet. A name of your choosing (the service tells no user id); letters,
   * digits and `-_.:` only.
   */
  userPrefix?: string | undefined;
  /** Requests a minute for all processes together (the service's limit per key). Default 60. */
  requestsPerMinute?: number | undefined;
  /** API-started forecasts running at once, all processes together. Default 50. */
  maxActive?: number | undefined;
  /** Decisions' model calls a minute, all processes together. Default 10. */
  modelCallsPerMinute?: number | undefined;
  /** Calls drafting questions with AI (`questions.normalize`, `clarify`, `revise`) a minute, all processes together. Default 20. */
  draftingPerMinute?: number | undefined;
  /** Forecast chat messages (`forecasts.chat.create`) a minute, all processes together. Default 30. */
  chatMessagesPerMinute?: number | undefined;
  /**
   * Webhook tests and delivery replays a minute, all processes together. The service counts these
   * per user, so the window lives under `userPrefix`. Default 20.
   */
  webhookTestsPerMinute?: number | undefined;
  /**
   * How long a handled webhook event id (its handler succeeded) stays known, so a repeat delivery is
   * answered without running it. Default 24 hours, as the in-process de-duplicator
   * (`createDeliveryDeduper`): the service retries a delivery for about 3 hours, and a replay
   * (`client.webhooks.deliveries.replay`) may come much later. A delivery of an event older than
   * this runs its handler again. A claim whose handler is still running lives at most a minute.
   * Whole milliseconds (Redis's `PX`): a month or more is fine.
   */
  eventRetentionMs?: number | undefined;
  /** How long a webhook receiver counts as seen after it last published an event. Default 15 minutes. */
  receiverTtlMs?: number | undefined;
  /**
   * How many times faster than real time the service runs, for a process with no client attached
   * (a webhook receiver, `forecasting fleet status --time-scale`) in a fleet whose clients talk to a
   * sped-up mock with `clientClockFor(600)`: the per-minute windows it reads (`stats()`'s
   * `requestsInWindow`) then last a minute of the mock's time, as the clients count them. An attached
   * client's clock replaces it. Default 1 (the real service); a positive number.
   */
  serviceTimeScale?: number | undefined;
  /**
   * At most one check of held slots against the service per this many ms, by one process of the
   * fleet, while starts wait for a slot. Checks that find no ended task double the gap to the next
   * (up to 8 times this: the events and reads that free slots are working); one that does brings it
   * back to this. Default 30 s of the service's time (50 ms for a client of the mock's 600x fast
   * clock: see `ClientClock.serviceTimeScale`).
   */
  reconcileIntervalMs?: number | undefined;
  /**
   * How long a request still counts after its minute, in ms: the slack for the way to the service (a
   * request may reach it that much later than its process counted it; the machines' clocks do not
   * matter, the window is counted on Redis's). Default 250. Raise it on a slow network, or when the
   * clock is a scaled test clock, on which a real millisecond of latency is many milliseconds.
   */
  windowMarginMs?: number | undefined;
  /**
   * A slot taken for a start not yet bound to its task stays taken while its process lives (renewed
   * every third of this, at most a minute apart, on the client's clock), however long the start
   * waits for its turn in the request budget; it goes back
   * this long after the process stopped renewing it (it died), or after the start ended without an
   * answer (a timeout, a 5xx: the service may have started the task). Default 5 minutes.
   */
  pendingHoldTtlMs?: number | undefined;
  /** Real-time limit on one Redis command: past it, the coordinator turns `local` (the call still answers). Default 2 s; whole milliseconds. */
  commandTimeoutMs?: number | undefined;
  /** Real-time interval of the probe that looks for Redis again while in `local` mode. Default 1 s. */
  probeIntervalMs?: number | undefined;
}

/** The options with their defaults, less the namespaces (resolved later: they may come from the attached client). */
export type ResolvedOptions = Required<Omit<RedisCoordinatorOptions, 'prefix' | 'userPrefix' | 'serviceTimeScale'>>;

/**
 * A `prefix` or `userPrefix` is a name in a Redis Cluster hash tag and an ACL pattern: nothing that
 * could end or widen either (an empty tag `{}` hashes each key whole, and a Cluster refuses the scripts).
 */
const PREFIX = /^[A-Za-z0-9_.:-]{1,100}$/;

/** A refused prefix as its message shows it: text quoted (clipped), anything else by its type. */
const shown = (value: unknown): string => (typeof value === 'string' ? JSON.stringify(value.slice(0, 120)) : typeof value);

/** @internal */
export function resolveOptions(options: RedisCoordinatorOptions): ResolvedOptions {
  if (typeof options !== 'object' || options === null) throw new ValidationError(`must be an object of options, got ${options === null ? 'null' : typeof options}`, 'options');
  const { prefix, userPrefix } = options;
  if (prefix !== undefined && (typeof prefix !== 'string' || !PREFIX.test(prefix))) {
    throw new ValidationError(`must be 1 to 100 letters, digits or -_.: (the key namespace, in a hash tag), got ${shown(prefix)}`, 'prefix');
  }
  if (userPrefix !== undefined && (typeof userPrefix !== 'string' || !PREFIX.test(userPrefix))) {
    throw new ValidationError(`must be 1 to 100 letters, digits or -_.: (a name shared by the coordinators of one user's keys), got ${shown(userPrefix)}`, 'userPrefix');
  }
  const { serviceTimeScale } = options;
  if (serviceTimeScale !== undefined && !(typeof serviceTimeScale === 'number' && Number.isFinite(serviceTimeScale) && serviceTimeScale > 0)) {
    throw new ValidationError(`must be a positive number (how many times faster than real time the service runs), got ${typeof serviceTimeScale === 'number' ? String(serviceTimeScale) : shown(serviceTimeScale)}`, 'serviceTimeScale');
  }
  const resolved: ResolvedOptions = {
    requestsPerMinute: options.requestsPerMinute ?? 60,
    maxActive: options.maxActive ?? 50,
    modelCallsPerMinute: options.modelCallsPerMinute ?? 10,
    draftingPerMinute: options.draftingPerMinute ?? 20,
    chatMessagesPerMinute: options.chatMessagesPerMinute ?? 30,
    webhookTestsPerMinute: options.webhookTestsPerMinute ?? 20,
    eventRetentionMs: options.eventRetentionMs ?? 24 * 60 * 60_000,
    receiverTtlMs: options.receiverTtlMs ?? 15 * 60_000,
    reconcileIntervalMs: options.reconcileIntervalMs ?? 30_000,
    windowMarginMs: options.windowMarginMs ?? 250,
    pendingHoldTtlMs: options.pendingHoldTtlMs ?? 5 * 60_000,
    commandTimeoutMs: options.commandTimeoutMs ?? 2_000,
    probeIntervalMs: options.probeIntervalMs ?? 1_000,
  };
  for (const [name, value] of Object.entries(resolved)) {
    if (!Number.isFinite(value) || value <= 0) throw new ValidationError(`must be a positive number, got ${typeof value === 'number' ? String(value) : shown(value)}`, name);
    // Past Node's longest timer a wait fires at once: every command timed out, the coordinator local
    // for good. A retention is Redis's `PX` alone (a month is fine), checked below.
    if (name.endsWith('Ms') && name !== 'eventRetentionMs' && value > MAX_TIMER_MS) {
      throw new ValidationError(`must be at most ${MAX_TIMER_MS} ms (about 24.8 days, Node's longest timer), got ${value}`, name);
    }
  }
  // Whole milliseconds where Redis or its client counts them (a `SET … PX 0.5` is an error, so is a
  // `PX` of 1e20, and a command timeout of 0.5 ms).
  for (const name of ['eventRetentionMs', 'commandTimeoutMs'] as const) {
    if (!Number.isInteger(resolved[name])) throw new ValidationError(`must be a whole number of milliseconds, got ${resolved[name]}`, name);
  }
  if (resolved.eventRetentionMs > Number.MAX_SAFE_INTEGER) {
    throw new ValidationError(`must be at most ${Number.MAX_SAFE_INTEGER} ms, got ${resolved.eventRetentionMs}`, 'eventRetentionMs');
  }
  // Counts of whole requests and slots: a fraction would index between two window entries.
  for (const name of ['maxActive', ...Object.values(WINDOW_LIMITS)] as const) {
    if (!Number.isInteger(resolved[name])) throw new ValidationError(`must be a whole number, got ${String(resolved[name])}`, name);
  }
  return resolved;
}

/** The option that holds each shared window's limit a minute. @internal */
export const WINDOW_LIMITS = {
  requests: 'requestsPerMinute',
  modelCalls: 'modelCallsPerMinute',
  drafting: 'draftingPerMinute',
  chatMessages: 'chatMessagesPerMinute',
  webhookTests: 'webhookTestsPerMinute',
} as const satisfies Record<CoordinatedWindow, keyof ResolvedOptions>;

/** Each shared window's limit a minute, as the options set it. @internal */
export const windowLimits = (options: ResolvedOptions): Record<CoordinatedWindow, number> => {
  const limits = {} as Record<CoordinatedWindow, number>;
  for (const [window, name] of Object.entries(WINDOW_LIMITS) as [CoordinatedWindow, keyof ResolvedOptions][]) limits[window] = options[name];
  return limits;
};

/** `fsdk:` and 16 hex digits of the key's SHA-256: enough to keep keys apart, nothing to recover a key from. */
export const prefixFromKeyHash = (keyHash: string): string => `fsdk:${keyHash.slice(0, 16)}`;

/** The prefix of a process with no client attached: from `FORECASTING_API_KEY`, else a `ValidationError` naming `prefix` (a receiver logs its message). */
export function prefixFromEnvironment(): string {
  let given: string | undefined;
  try {
    given = globalThis.process?.env?.['FORECASTING_API_KEY'];
  } catch (err) {
    // Deno without --allow-env refuses to read it.
    throw new ValidationError(`createRedisCoordinator has no key namespace: pass the \`prefix\` option, or attach a client (FORECASTING_API_KEY could not be read: ${(err as Error)?.message ?? String(err)})`, 'prefix');
  }
  const apiKey = given === undefined ? undefined : trimKey(given); // as the client takes it
  // As the client refuses it (a CRLF .env file's `\r`): else a namespace no client of the key has.
  if (apiKey && UNUSABLE_KEY.test(apiKey)) {
    throw new ValidationError('FORECASTING_API_KEY must be printable ASCII text with no quote, backslash, line break, NUL or other control character (a `\\r` from a CRLF .env file?)', 'prefix');
  }
  if (!apiKey) {
    throw new ValidationError('createRedisCoordinator has no key namespace: pass the `prefix` option, attach a client (new ForecastingClient({ coordinator })), or set FORECASTING_API_KEY.', 'prefix');
  }
  return prefixFromKeyHash(sha256Hex(apiKey));
}

/** SHA-256 of `text` as lowercase hex: what a client's API key is known by. @internal */
export const sha256Hex = (text: string): string => createHash('sha256').update(text).digest('hex');
