/**
 * `forecasting fleet status --redis <url>`: what the processes sharing a key through a Redis
 * coordinator are doing, from `coordinator.stats()`: requests in the window, active slots and their
 * tasks, starts waiting, receivers seen, events published and deduplicated, and the mode. Loads
 * node-redis (the optional peer `redis`) only here, and never prints the API key or the URL's password.
 * @module
 */
import type { Command } from 'commander';
import { positiveNumber } from '../args.js';
import type { CoordinatorStats } from '../../redis/index.js';
import { CliError, EXIT, type ExitCode } from '../exit-codes.js';
import { json, out } from '../output.js';
import { addSecret, redact } from '../report.js';
import { connectFleetRedis, TIMEOUT_MS } from './fleet-connect.js';

interface FleetFlags {
  redis?: string;
  prefix?: string;
  userPrefix?: string;
  cluster?: boolean;
  sentinel?: string;
  timeScale?: string;
  json?: boolean;
}

/** `text` percent-decoded, or `undefined` when it is no valid percent-encoding. */
function decoded(text: string): string | undefined {
  try {
    return decodeURIComponent(text);
  } catch {
    return undefined;
  }
}

/**
 * Checks `--redis` is a Redis URL, and keeps its password out of every line (as written and decoded,
 * however short), and its user name too when it is long enough not to blank out common words.
 * A user or password that is no valid percent-encoding is a usage error that shows neither.
 */
function hideCredentials(url: string): void {
  const parsed = URL.canParse(url) ? new URL(url) : undefined;
  if (parsed?.protocol !== 'redis:' && parsed?.protocol !== 'rediss:') {
    throw new CliError('--redis must be a URL: redis://host:6379 (or rediss://, with user:password@ when needed)');
  }
  const password = decoded(parsed.password);
  const username = decoded(parsed.username);
  addSecret(parsed.password);
  addSecret(password);
  if (parsed.username.length >= 4) addSecret(parsed.username);
  if (username !== undefined && username.length >= 4) addSecret(username);
  if (password === undefined || username === undefined) {
    throw new CliError('--redis has a user name or password that is not valid percent-encoding: write a reserved character of it as %XX (an @ as %40, a % as %25)');
  }
}

/** The stats with every secret out of their text (task ids are whatever Redis holds). */
function redacted(stats: CoordinatorStats): CoordinatorStats {
  return { ...stats, activeTaskIds: stats.activeTaskIds.map(redact) };
}

/** The `redis` package, or a usage error saying how to install it. */
async function loadRedis(): Promise<typeof import('redis')> {
  try {
    return await import('redis');
  } catch (err) {
    if ((err as { code?: unknown }).code === 'ERR_MODULE_NOT_FOUND') {
      throw new CliError('fleet status needs the `redis` package (node-redis), an optional peer dependency: npm install redis');
    }
    throw err;
  }
}

/** Task ids shown in the text output; `--json` lists every one, whole. */
const SHOWN_TASK_IDS = 10;

/** The active task ids as a line a terminal keeps readable: the first ten, an id over 16 characters (a UUID) cut to 8. */
function taskIdsLine(ids: readonly string[]): string {
  if (ids.length === 0) return '-';
  const shown = ids.slice(0, SHOWN_TASK_IDS).map((id) => (id.length > 16 ? `${id.slice(0, 8)}…` : id));
  const more = ids.length - shown.length;
  return more > 0 ? `${shown.join(' ')} … and ${more} more (--json lists them all)` : shown.join(' ');
}

/** The lines of the text output. */
export function statusLines(stats: CoordinatorStats, prefix: string): string[] {
  return [
    `mode                ${stats.mode}`,
    `prefix              ${prefix}`,
    `requests in window  ${stats.requestsInWindow}`,
    `active slots        ${stats.activeSlots}`,
    `active task ids     ${taskIdsLine(stats.activeTaskIds)}`,
    `starts waiting      ${stats.startsWaiting}`,
    `receivers seen      ${stats.receiversSeen}`,
    `events published    ${stats.eventsPublished}`,
    `events deduplicated ${stats.eventsDeduplicated}`,
  ];
}

export async function status(cmd: Command): Promise<ExitCode> {
  const flags = cmd.opts<FleetFlags>();
  // REDIS_URL is where the docs' snippets (and most deployments) keep it.
  flags.redis ??= process.env['REDIS_URL'] || undefined;
  if (!flags.redis) throw new CliError('--redis (or REDIS_URL) is required: the Redis the coordinators share, e.g. --redis redis://127.0.0.1:6390');
  hideCredentials(flags.redis);
  // As the client and the coordinator take it: spaces at either end dropped.
  const apiKey = process.env['FORECASTING_API_KEY']?.replace(/^ +| +$/g, '');
  addSecret(apiKey);
  const serviceTimeScale = positiveNumber(flags.timeScale, '--time-scale');
  if (flags.prefix === undefined && !apiKey) {
    throw new CliError('the key namespace is unknown: pass --prefix (as given to createRedisCoordinator), or set FORECASTING_API_KEY (the default prefix derives from its hash)');
  }
  if (flags.cluster && flags.sentinel !== undefined) throw new CliError('--cluster and --sentinel exclude each other: --redis is a node of the cluster, or a sentinel');
  const redisModule = await loadRedis();
  const { createRedisCoordinator } = await import('../../redis/index.js');
  const redis = await connectFleetRedis(redisModule, { redis: flags.redis, cluster: flags.cluster, sentinel: flags.sentinel });
  try {
    // No client attaches: the namespace is --prefix, or the coordinator's own from FORECASTING_API_KEY.
    const coordinator = createRedisCoordinator(redis, {
      commandTimeoutMs: TIMEOUT_MS,
      ...(flags.prefix === undefined ? {} : { prefix: flags.prefix }),
      ...(flags.userPrefix === undefined ? {} : { userPrefix: flags.userPrefix }),
      ...(serviceTimeScale === undefined ? {} : { serviceTimeScale }),
    });
    const stats = await coordinator.stats();
    // `local`: Redis stopped answering after the connection, or answered errors (a cluster node that
    // does not hold the namespace: MOVED); these would be this process's own zeros.
    const hint = flags.cluster || flags.sentinel !== undefined ? '' : ' (a node of a Redis Cluster needs --cluster; a sentinel, --sentinel <name>)';
    if (stats.mode === 'local') {
      await coordinator.close();
      throw new CliError(`the Redis of --redis did not answer in time, or answered an error${hint}`, EXIT.api, 'RedisConnectionError');
    }
    let used: boolean;
    try {
      used = await coordinator.used();
    } catch (err) {
      throw new CliError(`the Redis of --redis answered an error (${String((err as Error).message ?? err).split(' ')[0]})${hint}`, EXIT.api, 'RedisConnectionError');
    } finally {
      await coordinator.close();
    }
    // No key under the namespace: no fleet has used it on this Redis (a wrong prefix or key, another database), not an idle fleet.
    if (!used) {
      const which = flags.prefix === undefined ? "the namespace of FORECASTING_API_KEY's hash" : `--prefix ${flags.prefix}`;
      if (flags.json) json({ ...redacted(stats), mode: 'unused' });
      else out(redact(`no fleet has used ${which} on this Redis (no keys under it): check the prefix (as given to createRedisCoordinator), the API key, and the Redis database`));
      return EXIT.ok;
    }
    if (flags.json) json(redacted(stats));
    // Secrets out of the ids first: an id cut short would keep a piece of one.
    else for (const line of statusLines(redacted(stats), flags.prefix ?? "derived from FORECASTING_API_KEY's hash")) out(redact(line));
    return EXIT.ok;
  } finally {
    redis.destroy();
  }
}
