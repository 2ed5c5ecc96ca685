/**
 * The spec's limits, each named once. The SDK checks input against them before sending and the
 * mock service enforces them on receipt. The core keeps its own copy of the two it needs
 * (`DEFAULT_OFFSET_PAGE_SIZE`, `MAX_IDEMPOTENCY_KEY_LENGTH`), so it reads nothing of the spec; a
 * test keeps them equal.
 * @module
 */

/** Items in one `POST /forecasts/batch`. */
export const MAX_BATCH_ITEMS = 25;
/** Task ids in one `POST /forecasts/cancel`. */
export const MAX_BULK_CANCEL_IDS = 25;
/** Characters in a question title. */
export const MAX_TITLE_LENGTH = 500;
/** Tags on a question. */
export const MAX_TAGS = 20;
/** Distinct options of a `multiple_choice` question. */
export const MIN_OPTIONS = 2;
export const MAX_OPTIONS = 200;
/** How far apart the bounds of a `discrete` question must be. */
export const MIN_DISCRETE_SPAN = 2;
export const MAX_DISCRETE_SPAN = 500;
/** Bytes in one question file: 10 MiB. (Literals, not products: a bundler keeps an unused product, which it cannot prove pure.) */
export const MAX_FILE_BYTES = 10_485_760;
/** Files per question, and their total bytes. */
export const MAX_FILES_PER_QUESTION = 10;
export const MAX_FILES_TOTAL_BYTES = 31_457_280; // 30 MiB
/** Characters in a file's `userNote`. */
export const MAX_USER_NOTE_LENGTH = 2000;
/** Cursor-paged lists: `limit` range and default. */
export const MIN_PAGE_SIZE = 1;
export const MAX_PAGE_SIZE = 100;
export const DEFAULT_PAGE_SIZE = 20;
/** Offset-paged lists (`/questions/browse`, `/decisions`): `limit` maximum and default. */
export const MAX_OFFSET_PAGE_SIZE = 200;
export const DEFAULT_OFFSET_PAGE_SIZE = 50;
/** Characters in an `Idempotency-Key`, and how long the service keeps one. */
export const MAX_IDEMPOTENCY_KEY_LENGTH = 128;
export const IDEMPOTENCY_RETENTION_MS = 86_400_000; // 24 h
/** Requests per minute per API key (the default; an operator may set another). */
export const REQUESTS_PER_MINUTE = 60;
/** AI drafting calls (`normalize`, `normalize/clarify`, `normalize/revise`) per minute per key. */
export const DRAFTING_PER_MINUTE = 20;
/** Forecast chat messages per minute per key. */
export const CHAT_MESSAGES_PER_MINUTE = 30;
/** Decision calls that use a model, per minute per key. */
export const DECISION_MODEL_CALLS_PER_MINUTE = 10;
/** Webhook tests and replays per minute per user. */
export const WEBHOOK_TEST_REPLAY_PER_MINUTE = 20;
/** API-started forecasts running at once per user. */
export const MAX_ACTIVE_FORECASTS = 50;
/** `Retry-After` of a task read while `queued`, and while running, in ms (the spec's 15 and 120 s). */
export const QUEUED_RETRY_AFTER_MS = 15_000;
export const RUNNING_RETRY_AFTER_MS = 120_000;
/** Wait between reads when the service asks for none (a report being written), in ms. */
export const DEFAULT_POLL_INTERVAL_MS = 15_000;
/** Schedules: shortest interval, and most forecasts in one schedule. */
export const MIN_SCHEDULE_INTERVAL_HOURS = 3;
export const MAX_SCHEDULE_OCCURRENCES = 50;
/** Webhooks per user, and characters in a webhook address. */
export const MAX_WEBHOOKS = 5;
export const MAX_WEBHOOK_URL_LENGTH = 500;
/** Decision options. */
export const MIN_DECISION_OPTIONS = 2;
export const MAX_DECISION_OPTIONS = 4;
/** How far a webhook signature's `t` may be from the receiver's clock, in seconds. */
export const WEBHOOK_TOLERANCE_SECONDS = 300;
