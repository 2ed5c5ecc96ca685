/**
 * The forecast task and report state machines, as explicit transition tables driven by the mock
 * clock: a started task is queued, runs its subforecasts one by one, synthesizes, and completes (or
 * fails when a test asked it to); the report is written after the number. Every transition is a
 * clock callback, and each one that the spec names emits its event on the {@link MockEventBus}.
 * @module
 */
import { MAX_ACTIVE_FORECASTS } from '../../../api/limits.js';
import type { RunModeKey, TaskStatus } from '../../../schemas/forecasts.js';
import type { MockEnv } from '../../env.js';
import type { MockForecastEvent } from '../../events.js';
import { conflict, MockHttpError } from '../../http.js';
import { collectionKey, FORECASTS, type ForecastRecord, type MockStore, type QuestionRecord } from '../../store.js';
import { unfinishedFiles, useNotes } from '../context/files.js';
import { planConnections, recordConnections, type ConnectionSwitches } from '../connections.js';
import { chargeForecast } from '../credits.js';
import { resolvePreset, type PresetRecord } from '../presets.js';
import { recordRefusal, recordStart } from './activity.js';


/**
 * Legal moves of a task: the spec's table (moves between the running states are the mock's choice).
 * @example
 * ```ts
 * TASK_TRANSITIONS['queued']; // the states a task may move to from `queued`
 * ```
 */
export const TASK_TRANSITIONS: Readonly<Record<TaskStatus, readonly TaskStatus[]>> = {
  queued: ['running_subforecasts', 'cancelled', 'failed'],
  running_subforecasts: ['synthesizing', 'cancelled', 'failed'],
  synthesizing: ['completed', 'cancelled', 'failed'],
  completed: [],
  failed: [],
  cancelled: [],
};

/**
 * Legal moves of a report.
 * @example
 * ```ts
 * REPORT_TRANSITIONS['writing']; // the states a report may move to from `writing`
 * ```
 */
export const REPORT_TRANSITIONS: Readonly<Record<ForecastRecord['reportStatus'], readonly ForecastRecord['reportStatus'][]>> = {
  pending: ['writing'],
  writing: ['completed', 'failed'],
  completed: [],
  failed: [],
};

/** The event each final state emits. */
const EVENT_OF: Partial<Record<TaskStatus, MockForecastEvent['type']>> = {
  completed: 'forecast.completed',
  failed: 'forecast.failed',
  cancelled: 'forecast.cancelled',
};

const MINUTE = 60_000;
/**
 * Per run mode: rough duration, subforecasts run, and price in credits.
 * @example
 * ```ts
 * const { minutes, subforecasts, credits } = RUN_MODE_PLANS.max; // 90, 8, 20
 * ```
 */
export const RUN_MODE_PLANS: Readonly<Record<RunModeKey, { minutes: number; subforecasts: number; credits: number; name: string }>> = {
  light: { minutes: 5, subforecasts: 3, credits: 1, name: 'Light' },
  moderate: { minutes: 15, subforecasts: 4, credits: 2, name: 'Moderate' },
  standard: { minutes: 30, subforecasts: 5, credits: 5, name: 'Standard' },
  deep: { minutes: 60, subforecasts: 6, credits: 10, name: 'Deep' },
  max: { minutes: 90, subforecasts: 8, credits: 20, name: 'Max' },
};
/** The organization's default run mode in the mock. */
export const DEFAULT_RUN_MODE: RunModeKey = 'standard';
/** The report: `pending` this long after completion, then `writing` this long. */
export const REPORT_PENDING_MS = 30_000;
export const REPORT_WRITING_MS = 90_000;

/**
 * How a test wants the forecasts of a question to end (see `service.forecastControls.setOutcome`).
 * Default: the task and its report complete.
 * @example
 * ```ts
 * const outcome: Omit<ForecastOutcome, 'id'> = { task: 'failed', message: 'No sources found' };
 * service.forecastControls.setOutcome(questionId, outcome);
 * ```
 */
export interface ForecastOutcome {
  id: string;
  /** `failed`: the task fails halfway through its subforecasts; `cancelled`: it is cancelled there (as from the web app). */
  task?: 'completed' | 'failed' | 'cancelled';
  /** `failed`: the number is delivered, the report fails. */
  report?: 'completed' | 'failed';
  /** `error.message` of a failed task. */
  message?: string;
}
/**
 * Outcomes by question id.
 * @example
 * ```ts
 * service.forecastControls.setOutcome(questionId, { task: 'failed' }); // stored in FORECAST_OUTCOMES
 * service.store.collection(FORECAST_OUTCOMES).get(questionId);
 * ```
 */
export const FORECAST_OUTCOMES = collectionKey<ForecastOutcome>('forecastOutcomes');

const isFinal = (s: TaskStatus) => TASK_TRANSITIONS[s].length === 0;
const iso = (ms: number) => new Date(ms).toISOString();

/** What starts a forecast: the question, who asks, how. */
export interface StartRequest {
  question: QuestionRecord;
  ownerId: string;
  organizationId: string;
  runMode?: RunModeKey | undefined;
  presetId?: string | null | undefined;
  allowIncompleteContext?: boolean | undefined;
  startedBy: ForecastRecord['startedBy'];
  /** This forecast's connection switches (`{off, on}` of the body). */
  connections?: ConnectionSwitches | undefined;
}

/**
 * The `warnings` a forecast gets when it starts, for a question its organization reads: personal
 * content (a personal preset's, or a personal template's the question was built from) may show in it.
 */
function startWarnings(question: QuestionRecord, preset: { scope: string } | null): string[] {
  if (question.question.visibility !== 'organization') return [];
  const warnings: string[] = [];
  if (question.question.sourceTemplate?.scope === 'personal') warnings.push('template_content_readable_by_others');
  if (preset?.scope === 'personal') warnings.push('preset_content_may_show_in_forecast');
  return warnings;
}

/**
 * Starts a forecast: refuses it as the spec says (a preset the starter cannot see, one running
 * forecast per question, files of the question or its preset still processing, 50 API-started
 * forecasts per user, too few credits with nothing charged), else charges it, stores it `queued`,
 * uses up the question's notes, schedules its moves and emits `forecast.started`.
 */
export function startForecast(env: MockEnv, req: StartRequest): ForecastRecord {
  const { store } = env;
  const questionId = req.question.id;
  const api = req.startedBy === 'api';
  // Each refusal of an API start is counted in the user's activity record, by reason.
  const refuse = (reason: string, err: MockHttpError) => {
    if (api) recordRefusal(store, req.ownerId, reason);
    return err;
  };
  const preset = resolvePreset(store, { userId: req.ownerId, organizationId: req.organizationId }, req.question, req.presetId);
  const active = store.forecasts.list((r) => r.questionId === questionId && !isFinal(r.status))[0];
  if (active) {
    const message = `questionId: question ${questionId} already has a forecast running`;
    throw refuse('forecast_already_running', conflict(message, 'forecast_already_running', { activeTaskId: active.id }));
  }
  const files = unfinishedFiles(store, questionId, preset?.id ?? null);
  if (files.length > 0 && !req.allowIncompleteContext) {
    const message = `${files.length} context file(s) still processing; pass allowIncompleteContext to run anyway`;
    throw refuse('context_not_ready', conflict(message, 'context_not_ready', { files }));
  }
  const running = api ? store.forecasts.list((r) => r.ownerId === req.ownerId && r.startedBy === 'api' && !isFinal(r.status)).length : 0;
  if (running >= MAX_ACTIVE_FORECASTS) {
    const message = `At most ${MAX_ACTIVE_FORECASTS} API-started forecasts may run at once`;
    throw refuse('too_many_active_forecasts', new MockHttpError(429, 'too_many_active_forecasts', message));
  }
  // Checked before charging: an unknown connection id answers 400 with nothing charged.
  const connections = planConnections(store, req, req.connections, preset?.disabledConnectionIds);
  let charged: number;
  try {
    charged = chargeForecast(store, req.organizationId, `forecast.${req.runMode ?? DEFAULT_RUN_MODE}`);
  } catch (err) {
    throw err instanceof MockHttpError ? refuse('insufficient_credits', err) : err;
  }
  return insertStarted(env, req, { preset, connections, charged, running });
}

/** What the checks of a start decided: its preset, its connections, its charge, and how many of the user's API starts ran before it. */
interface StartDecision {
  preset: PresetRecord | null;
  connections: ReturnType<typeof planConnections>;
  charged: number;
  running: number;
}

/** Stores a start the checks let through, `queued`, and sets it running on the clock. */
function insertStarted(env: MockEnv, req: StartRequest, { preset, connections, charged, running }: StartDecision): ForecastRecord {
  const { store, clock } = env;
  const questionId = req.question.id;
  const runMode = req.runMode ?? DEFAULT_RUN_MODE;
  const plan = RUN_MODE_PLANS[runMode];
  const now = clock.now();
  const record = store.forecasts.insert({
    id: crypto.randomUUID(),
    questionId,
    ownerId: req.ownerId,
    organizationId: req.organizationId,
    createdAt: iso(now),
    status: 'queued',
    runMode,
    startedAt: null,
    finishedAt: null,
    subforecasts: Array.from({ length: plan.subforecasts }, (_, i) => ({ sequenceIndex: i, status: 'running', completedAt: null })),
    forecastId: null,
    generatedAt: null,
    reportStatus: 'pending',
    failureMessage: null,
    creditsCharged: charged,
    presetId: preset?.id ?? null,
    warnings: startWarnings(req.question, preset),
    startedBy: req.startedBy,
    timers: [],
  });
  if (req.startedBy === 'api') recordStart(store, req.ownerId, running + 1, now);
  useNotes(env, questionId, record.id);
  recordConnections(store, record.id, connections);
  emit(env, record, 'forecast.started');
  scheduleRun(env, record, now, plan.minutes * MINUTE);
  return record;
}

/**
 * The timeline of a run of `total` ms: 5 % queued, 80 % subforecasts (finishing one by one), 15 %
 * synthesizing; then the report. A failing (or cancelling) outcome ends the task halfway through its subforecasts.
 */
function scheduleRun(env: MockEnv, record: ForecastRecord, start: number, total: number): void {
  const outcome = env.store.collection(FORECAST_OUTCOMES).get(record.questionId);
  const at = (ms: number, step: (r: ForecastRecord) => void) => {
    record.timers.push(
      env.clock.schedule(ms, () => {
        const current = env.store.forecasts.get(record.id);
        if (current) step(current);
      }),
    );
  };
  const running = start + total * 0.05;
  const synthesizing = running + total * 0.8;
  const done = synthesizing + total * 0.15;
  const n = record.subforecasts.length;
  at(running, (r) => move(env, r, 'running_subforecasts'));
  record.subforecasts.forEach((sub, i) => {
    if (outcome?.task === 'failed' && i === Math.floor(n / 2)) {
      at(running + ((i + 1) * (synthesizing - running)) / n, (r) => fail(env, r, outcome.message ?? 'The forecast failed: the research step could not finish'));
    }
    if (outcome?.task === 'cancelled' && i === Math.floor(n / 2)) at(running + ((i + 1) * (synthesizing - running)) / n, (r) => move(env, r, 'cancelled'));
    at(running + ((i + 1) * (synthesizing - running)) / n, (r) => {
      if (r.status !== 'running_subforecasts') return;
      sub.status = 'completed';
      sub.completedAt = iso(env.clock.now());
    });
  });
  at(synthesizing, (r) => move(env, r, 'synthesizing'));
  at(done, (r) => move(env, r, 'completed'));
  at(done + REPORT_PENDING_MS, (r) => moveReport(env, r, 'writing'));
  at(done + REPORT_PENDING_MS + REPORT_WRITING_MS, (r) => moveReport(env, r, outcome?.report ?? 'completed'));
}

/** Moves a task along its table; a move the table does not allow is ignored (the task moved on). */
export function move(env: MockEnv, record: ForecastRecord, to: TaskStatus): boolean {
  if (!TASK_TRANSITIONS[record.status].includes(to)) return false;
  const now = iso(env.clock.now());
  record.status = to;
  if (to === 'running_subforecasts') record.startedAt = now;
  if (to === 'completed') {
    record.forecastId = crypto.randomUUID();
    record.generatedAt = now;
  }
  if (isFinal(to)) {
    record.finishedAt = now;
    for (const sub of record.subforecasts) if (sub.status === 'running') sub.status = to === 'failed' ? 'failed' : 'cancelled';
    // The report keeps being written after completion; anything else ends every waiting move.
    if (to !== 'completed') for (const t of record.timers.splice(0)) t.cancel();
  }
  const event = EVENT_OF[to];
  if (event) emit(env, record, event);
  return true;
}

function fail(env: MockEnv, record: ForecastRecord, message: string): void {
  if (!TASK_TRANSITIONS[record.status].includes('failed')) return;
  record.failureMessage = message;
  move(env, record, 'failed');
}

function moveReport(env: MockEnv, record: ForecastRecord, to: ForecastRecord['reportStatus']): void {
  if (record.status !== 'completed' || !REPORT_TRANSITIONS[record.reportStatus].includes(to)) return;
  record.reportStatus = to;
  if (to === 'completed' || to === 'failed') emit(env, record, 'forecast.report.completed', to);
}

/** Cancels a queued or running task; `false` when it was already final. Nothing is refunded. */
export function cancelForecast(env: MockEnv, record: ForecastRecord): boolean {
  return move(env, record, 'cancelled');
}

function emit(env: MockEnv, r: ForecastRecord, type: MockForecastEvent['type'], reportStatus?: 'completed' | 'failed'): void {
  env.events.emit({
    type,
    taskId: r.id,
    questionId: r.questionId,
    forecastId: type === 'forecast.completed' || type === 'forecast.report.completed' ? r.forecastId : null,
    ...(reportStatus ? { reportStatus } : {}),
    ownerId: r.ownerId,
    at: env.clock.now(),
  });
}

/**
 * Records a forecast that already completed (report included), with no charge and no event: the
 * `markForecasted` test hook.
 */
export function insertCompletedForecast(store: MockStore, question: QuestionRecord, at: number): ForecastRecord {
  const now = iso(at);
  return store.collection(FORECASTS).insert({
    id: crypto.randomUUID(),
    questionId: question.id,
    ownerId: question.ownerId,
    organizationId: question.organizationId,
    createdAt: now,
    status: 'completed',
    runMode: DEFAULT_RUN_MODE,
    startedAt: now,
    finishedAt: now,
    subforecasts: Array.from({ length: RUN_MODE_PLANS[DEFAULT_RUN_MODE].subforecasts }, (_, i) => ({ sequenceIndex: i, status: 'completed', completedAt: now })),
    forecastId: crypto.randomUUID(),
    generatedAt: now,
    reportStatus: 'completed',
    failureMessage: null,
    creditsCharged: 0,
    presetId: null,
    startedBy: 'api',
    timers: [],
  });
}

/** Whether `r` is final. */
export const isFinalTask = (r: ForecastRecord): boolean => isFinal(r.status);
