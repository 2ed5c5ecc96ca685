/**
 * The mock's webhook delivery engine: turns forecast events (and test calls) into deliveries, sends
 * each attempt as a signed `POST`, and moves deliveries through the spec's delivery state table on
 * the mock clock (retries after 30 s, 2 min, 10 min, 30 min, 2 h).
 *
 * Only loopback receivers are ever called, and only when the service was started with
 * `webhooks: { allowLoopbackReceivers: true }`: a webhook at a public address is kept and its
 * deliveries and attempts recorded, but nothing connects to it.
 * @module
 */
import { WEBHOOK_TEST_REPLAY_PER_MINUTE } from '../../api/limits.js';
import type { WebhookDelivery } from '../../schemas/records/webhooks.js';
import { signWebhook } from '../../webhooks/sign.js';
import type { MockClock, ScheduledCallback } from '../clock.js';
import type { MockEventBus, MockForecastEvent } from '../events.js';
import { RateLimiter } from '../rate-limit.js';
import type { MockStore } from '../store.js';
import { WEBHOOK_ATTEMPTS, WEBHOOK_DELIVERIES, WEBHOOKS, type MockWebhookCall, type WebhookDeliveryRecord, type WebhookRecord } from './records.js';
import { forecastEventBody, testEventBody } from './body.js';
import { sendWebhook, type Outcome } from './send.js';

/**
 * Waits before each retry, in ms: 30 s, 2 min, 10 min, 30 min, 2 h (6 attempts in all).
 * @example
 * ```ts
 * mock.clock.advance(WEBHOOK_RETRY_DELAYS_MS[0]!); // the first retry (30 s) falls due
 * await service.webhooks.idle();
 * ```
 */
export const WEBHOOK_RETRY_DELAYS_MS: readonly number[] = [30_000, 120_000, 600_000, 1_800_000, 7_200_000];
/** How long after a rotation the previous secret still signs, in ms. */
export const SECRET_OVERLAP_MS = 24 * 60 * 60 * 1000;
/**
 * The `User-Agent` of every call.
 * @example
 * ```ts
 * app.post('/hooks', (req, res) => { if (req.get('user-agent') !== WEBHOOK_USER_AGENT) console.warn('not from the service'); res.sendStatus(200); });
 * ```
 */
export const WEBHOOK_USER_AGENT = 'Service-Webhooks/1';

/**
 * Options of the mock's webhook engine (`createMockService({ webhooks })`).
 *
 * @example
 * ```ts
 * const service = createMockService({ webhooks: { allowLoopbackReceivers: true } });
 * ```
 */
export interface MockWebhookOptions {
  /**
   * Accept webhooks at `http://127.0.0.1:<port>/…` (or another loopback literal, or `localhost`) and
   * really call them: the mock's test mode, its only relaxation of the address rules. Default `false`:
   * loopback addresses are refused, as the service refuses them.
   */
  allowLoopbackReceivers?: boolean | undefined;
  /**
   * How to turn `allowLoopbackReceivers` on, as the 400 refusing a loopback address says it (default:
   * the option itself; `forecasting mock` names its `--allow-loopback-receivers` flag).
   * @internal
   */
  loopbackHint?: string | undefined;
  /**
   * The receiver's answer limit in real milliseconds (default 10 000, the spec's 10 seconds). Real
   * time, not the mock clock's: it bounds a real HTTP exchange. Lower it to test timeouts quickly.
   */
  answerTimeoutMs?: number | undefined;
  /** The Fetch used to call receivers (default `globalThis.fetch`). */
  fetch?: typeof fetch | undefined;
  /**
   * The real time in ms since the epoch (default `Date.now`), read for the signature's `t`. The one
   * wall-clock read of the engine: receivers check `t` against their own clock (5 minutes either
   * way), so it is the real time of sending whatever the mock clock does; the body's `createdAt`
   * and the attempt records keep mock time. Inject a source to test a receiver's age check.
   */
  realTime?: (() => number) | undefined;
}

/** Each store's engine: the handlers reach the engine of the service answering through `ctx.store`. */
const engines = new WeakMap<MockStore, MockWebhookEngine>();

/** The webhook engine bound to `store`. @internal */
export function webhookEngineOf(store: MockStore): MockWebhookEngine {
  const engine = engines.get(store);
  if (!engine) throw new Error('No webhook engine serves this store');
  return engine;
}

const WAITING: ReadonlySet<string> = new Set(['pending', 'in_progress', 'retrying']);

/** Retried answers: 408, 425, 429 and 5xx (no answer at all is retried too). */
const isRetried = (status: number | null) => status === null || status === 408 || status === 425 || status === 429 || status >= 500;

/**
 * Deliveries and attempts of the mock service. Reach it as `service.webhooks`.
 *
 * @example
 * ```ts
 * const service = createMockService({ webhooks: { allowLoopbackReceivers: true } });
 * service.events.emit({ type: 'forecast.completed', taskId, questionId, forecastId, ownerId, at: service.clock.now() });
 * await service.webhooks.idle(); // every call in flight has been answered
 * service.webhooks.calls(); // what the receivers got
 * ```
 */
export class MockWebhookEngine {
  readonly #store: MockStore;
  readonly #clock: MockClock;
  readonly #options: MockWebhookOptions;
  /** The shared 20-a-minute limit on test and replay, counted per user. */
  readonly #limiter: RateLimiter;
  readonly #timers = new Map<string, ScheduledCallback>();
  readonly #inFlight = new Set<Promise<void>>();
  #generation = 0;
  /** Ends the calls in flight: aborted by `endCalls()` (and `reset()`), then replaced. */
  #stopSends = new AbortController();

  constructor(deps: { store: MockStore; clock: MockClock; events: MockEventBus }, options: MockWebhookOptions = {}) {
    this.#store = deps.store;
    this.#clock = deps.clock;
    this.#options = options;
    this.#limiter = new RateLimiter(deps.clock);
    deps.events.on((event) => this.#onEvent(event));
    engines.set(deps.store, this);
  }

  /** Whether loopback receivers are accepted and called. */
  get allowLoopbackReceivers(): boolean {
    return this.#options.allowLoopbackReceivers ?? false;
  }

  /** How to accept loopback receivers, for the 400 that refuses one. @internal */
  get loopbackHint(): string {
    return this.#options.loopbackHint ?? 'start the mock with webhooks: { allowLoopbackReceivers: true }';
  }

  /** Resolves once no call is in flight (calls started meanwhile included). */
  async idle(): Promise<void> {
    while (this.#inFlight.size > 0) await Promise.allSettled([...this.#inFlight]);
  }

  /**
   * Every call made so far, oldest first; `deliveryId` picks one delivery's.
   * @example
   * ```ts
   * const [call] = service.webhooks.calls(deliveryId);
   * JSON.parse(call.body).type; // 'webhook.test'
   * ```
   */
  calls(deliveryId?: string): MockWebhookCall[] {
    const attempts = this.#store.collection(WEBHOOK_ATTEMPTS).list((a) => deliveryId === undefined || a.deliveryId === deliveryId);
    return attempts.reverse().map((a) => a.call);
  }

  /** Cancels waiting retries and ends in-flight calls, unrecorded (the store is cleared by the service). */
  reset(): void {
    for (const timer of this.#timers.values()) timer.cancel();
    this.#timers.clear();
    this.#generation++;
    this.endCalls();
    this.#limiter.reset();
  }

  /**
   * Ends the calls in flight at once, each recorded as an attempt that got no answer (and retried on
   * its schedule): `startMockServer`'s `close()`, so that no receiver keeps the process alive. @internal
   */
  endCalls(): void {
    this.#stopSends.abort();
    this.#stopSends = new AbortController();
  }

  /** Counts a test or a replay of `userId` against the shared limit; throws 429 `rate_limit_error` over it. The handlers' side. @internal */
  countTestOrReplay(userId: string): void {
    this.#limiter.hit('webhook tests and replays', userId, WEBHOOK_TEST_REPLAY_PER_MINUTE);
  }

  /** The secrets that sign a call now: the current one, and the previous one during the overlap. The handlers' side. @internal */
  signingSecrets(record: WebhookRecord): string[] {
    const now = this.#clock.now();
    return record.secrets.filter((s) => s.until === null || s.until > now).map((s) => s.secret);
  }

  /** Creates a `webhook.test` delivery and starts it; returns the delivery as it was created (`pending`). The handlers' side. @internal */
  startTest(record: WebhookRecord): WebhookDelivery {
    const id = crypto.randomUUID();
    const { id: eventId, body } = testEventBody(record.id, id, this.#clock.now());
    return this.#create(record, { id, eventKind: 'webhook.test', isTest: true, eventId, body });
  }

  /** Cancels every waiting delivery of a webhook (address change or deletion). The handlers' side. @internal */
  cancelWaiting(webhookId: string): void {
    for (const rec of this.#store.collection(WEBHOOK_DELIVERIES).list((d) => d.delivery.webhookId === webhookId)) {
      if (!WAITING.has(rec.delivery.status)) continue;
      this.#timers.get(rec.id)?.cancel();
      this.#timers.delete(rec.id);
      this.#update(rec, { status: 'cancelled', nextAttemptAt: null });
    }
  }

  /** Sends a `failed` or `cancelled` delivery again: same id and body, fresh retries. The caller checked the rules. The handlers' side. @internal */
  replay(rec: WebhookDeliveryRecord, webhook: WebhookRecord): WebhookDelivery {
    rec.round++;
    const delivery = this.#update(rec, {
      status: 'pending',
      endpointUrl: webhook.webhook.url,
      retriesRemaining: WEBHOOK_RETRY_DELAYS_MS.length,
      nextAttemptAt: null,
    });
    this.#attemptSoon(rec);
    return delivery;
  }

  #onEvent(event: MockForecastEvent): void {
    const hooks = this.#store
      .collection(WEBHOOKS)
      .list((w) => w.ownerId === event.ownerId && w.webhook.enabled && w.webhook.eventKinds.includes(event.type))
      .reverse(); // oldest webhook first, so deliveries are created in registration order
    for (const hook of hooks) {
      const { id: eventId, body } = forecastEventBody(event, hook.apiBase);
      this.#create(hook, { id: crypto.randomUUID(), eventKind: event.type, isTest: false, eventId, body });
    }
  }

  #create(hook: WebhookRecord, init: { id: string; eventKind: string; isTest: boolean; eventId: string; body: string }): WebhookDelivery {
    const delivery: WebhookDelivery = {
      id: init.id,
      webhookId: hook.id,
      endpointUrl: hook.webhook.url,
      eventKind: init.eventKind,
      status: 'pending',
      isTest: init.isTest,
      attemptCount: 0,
      retriesRemaining: WEBHOOK_RETRY_DELAYS_MS.length,
      nextAttemptAt: null,
      responseStatus: null,
      errorMessage: '',
      durationMs: null,
      deliveredAt: null,
      createdAt: this.#iso(this.#clock.now()),
    };
    const rec: WebhookDeliveryRecord = { id: init.id, ownerId: hook.ownerId, delivery, eventId: init.eventId, body: init.body, round: 0 };
    this.#store.collection(WEBHOOK_DELIVERIES).insert(rec);
    this.#attemptSoon(rec);
    return { ...delivery };
  }

  /** The first attempt starts right after the current request is answered (a microtask later). */
  #attemptSoon(rec: WebhookDeliveryRecord): void {
    const generation = this.#generation;
    this.#track(Promise.resolve().then(() => (generation === this.#generation ? this.#attempt(rec) : undefined)));
  }

  #track(run: Promise<void>): void {
    const tracked = run.finally(() => this.#inFlight.delete(tracked));
    this.#inFlight.add(tracked);
  }

  async #attempt(rec: WebhookDeliveryRecord): Promise<void> {
    const deliveries = this.#store.collection(WEBHOOK_DELIVERIES);
    const hook = this.#store.collection(WEBHOOKS).get(rec.delivery.webhookId);
    if (deliveries.get(rec.id) !== rec || !hook || !WAITING.has(rec.delivery.status)) return;
    const round = rec.round;
    const generation = this.#generation;
    // Taken now: a close or a reset while the call is signed ends it too.
    const stop = this.#stopSends.signal;
    const startedAt = this.#clock.now();
    const attemptNumber = rec.delivery.attemptCount + 1;
    this.#update(rec, { status: 'in_progress', attemptCount: attemptNumber, nextAttemptAt: null });

    const url = rec.delivery.endpointUrl;
    const sentAt = Math.floor((this.#options.realTime ?? Date.now)() / 1000);
    const signature = await signWebhook(rec.body, this.signingSecrets(hook), { timestamp: sentAt });
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      'user-agent': WEBHOOK_USER_AGENT,
      'x-service-signature': signature,
      'x-service-event-id': rec.eventId,
      'x-service-event-type': rec.delivery.eventKind,
      'x-service-delivery-id': rec.id,
    };
    const callable = this.#callable(url);
    const call: MockWebhookCall = { url, headers, body: rec.body, sent: callable };
    const outcome: Outcome = callable
      ? await sendWebhook(this.#options, url, headers, rec.body, stop)
      : { status: null, error: `not sent: the mock service calls only loopback receivers, and only with allowLoopbackReceivers (${url})` };
    if (generation !== this.#generation) return; // the service was reset meanwhile

    const endedAt = this.#clock.now();
    const durationMs = endedAt - startedAt;
    this.#store.collection(WEBHOOK_ATTEMPTS).insert({
      id: crypto.randomUUID(),
      deliveryId: rec.id,
      call,
      attempt: {
        id: crypto.randomUUID(),
        deliveryId: rec.id,
        attemptNumber,
        responseStatus: outcome.status,
        errorMessage: outcome.error,
        durationMs,
        startedAt: this.#iso(startedAt),
        completedAt: this.#iso(endedAt),
      },
    });
    // Cancelled or replayed while this call was out: it is recorded above, and moves nothing.
    if (rec.round !== round || rec.delivery.status !== 'in_progress') return;

    const ok = outcome.status !== null && outcome.status >= 200 && outcome.status < 300;
    const retry = !ok && isRetried(outcome.status) && rec.delivery.retriesRemaining > 0;
    const common = { responseStatus: outcome.status, errorMessage: outcome.error, durationMs, deliveredAt: this.#iso(endedAt) };
    if (retry) {
      const wait = WEBHOOK_RETRY_DELAYS_MS[WEBHOOK_RETRY_DELAYS_MS.length - rec.delivery.retriesRemaining]!;
      const at = endedAt + wait;
      this.#update(rec, { ...common, status: 'retrying', retriesRemaining: rec.delivery.retriesRemaining - 1, nextAttemptAt: this.#iso(at) });
      this.#timers.set(
        rec.id,
        this.#clock.schedule(at, () => {
          this.#timers.delete(rec.id);
          this.#track(this.#attempt(rec));
        }),
      );
    } else {
      // After the last retry the status is `failed` (the spec leaves it open): no further attempt is made.
      this.#update(rec, { ...common, status: ok ? 'succeeded' : 'failed', nextAttemptAt: null });
    }
    this.#touchWebhook(hook, endedAt, rec.delivery.status);
  }

  /**
   * Loopback literals and `localhost` only, and only in test mode: nothing beyond this machine is
   * called. Other `*.localhost` names (and `localhost.`) count as loopback for the address rules but
   * are not called, since a resolver may send them elsewhere. So are the IPv6 forms that merely carry
   * 127.0.0.1 (`[::127.0.0.1]`, NAT64 `[64:ff9b::7f00:1]`, 6to4, Teredo): a socket sends those to a
   * router, not to this machine. Only `[::ffff:127.x.x.x]` is delivered to IPv4 loopback.
   */
  #callable(raw: string): boolean {
    if (!this.allowLoopbackReceivers) return false;
    try {
      return isLoopbackHost(new URL(raw).hostname);
    } catch {
      return false;
    }
  }

  #update(rec: WebhookDeliveryRecord, patch: Partial<WebhookDelivery>): WebhookDelivery {
    rec.delivery = { ...rec.delivery, ...patch };
    return { ...rec.delivery };
  }

  #touchWebhook(hook: WebhookRecord, at: number, status: string): void {
    const current = this.#store.collection(WEBHOOKS).get(hook.id);
    if (current) current.webhook = { ...current.webhook, lastDeliveryAt: this.#iso(at), lastDeliveryStatus: status };
  }

  #iso(ms: number): string {
    return new Date(ms).toISOString();
  }
}

/**
 * Whether a URL's hostname (as `new URL` writes it: IPv4 dotted, IPv6 compressed in brackets) is this
 * machine: `localhost`, `127.0.0.0/8`, `[::1]` or the IPv4-mapped `[::ffff:7f00:0]/104`.
 */
function isLoopbackHost(hostname: string): boolean {
  return hostname === 'localhost' || /^127(\.\d{1,3}){3}$/.test(hostname) || hostname === '[::1]' || /^\[::ffff:7f[\da-f]{2}:[\da-f]{1,4}\]$/.test(hostname);
}
