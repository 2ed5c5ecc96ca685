/**
 * Test hooks of the forecast lifecycle, reached as `service.forecastControls`.
 * @module
 */
import type { MockEnv } from '../../env.js';
import type { ForecastRecord } from '../../store.js';
import { newsMoved } from '../automation.js';
import { creditsOf, type CreditsRecord } from '../credits.js';
import { CONTEXT_FILES, type ContextFileRecord } from '../context/files.js';
import { FORECAST_OUTCOMES, type ForecastOutcome } from './task.js';
import { activityOf, type ForecastActivityRecord } from './activity.js';

/**
 * Steers the mock's forecasts from a test.
 * @example
 * ```ts
 * const controls = service.forecastControls;
 * controls.setOutcome(questionId, { task: 'failed', message: 'No sources found' });
 * controls.setCredits({ balance: 3 });
 * const fileId = controls.addContextFile(questionId);       // forecasts now answer 409 context_not_ready
 * controls.setContextFileStatus(fileId, 'ready');
 * controls.moveNews(questionId, 0.2);                        // a watch with a lower threshold starts a forecast
 * controls.activity().maxActive;                             // most API forecasts running at once so far
 * ```
 */
export class ForecastControls {
  /** `caller` names who the hooks act for by default, read at each call (the service's default key). */
  constructor(
    private readonly env: MockEnv,
    private readonly caller: () => { organizationId: string; userId: string },
  ) {}

  /**
   * The mock's record of a user's API-started forecasts (default: the user of the service's default
   * key): how many started, the most that ran at once (`maxActive`, counted at each start, and
   * `maxActiveAt`), how many are running now (`active`), and the starts it refused by reason
   * (`too_many_active_forecasts`, `insufficient_credits`, `forecast_already_running`, …).
   * `service.reset()` clears it.
   * @example
   * ```ts
   * const { maxActive, refused } = service.forecastControls.activity();
   * if (maxActive > 50 || refused['too_many_active_forecasts']) throw new Error('over the limit');
   * ```
   */
  activity(userId = this.caller().userId): ForecastActivityRecord & { active: number } {
    const active = this.env.store.forecasts.list((r) => r.ownerId === userId && r.startedBy === 'api' && r.finishedAt === null).length;
    const record = activityOf(this.env.store, userId);
    return { ...record, refused: { ...record.refused }, active };
  }

  /**
   * How later forecasts on `questionId` end: `task: 'failed'` fails them halfway through their
   * subforecasts (with `message`), `task: 'cancelled'` cancels them there; `report: 'failed'`
   * delivers the number and fails the report.
   */
  setOutcome(questionId: string, outcome: Omit<ForecastOutcome, 'id'>): void {
    const outcomes = this.env.store.collection(FORECAST_OUTCOMES);
    outcomes.delete(questionId);
    outcomes.insert({ ...outcome, id: questionId });
  }

  /** Sets an organization's balance or unlimited flag (default: the organization of the service's default key). */
  setCredits(change: { balance?: number; unlimited?: boolean }, organizationId = this.caller().organizationId): CreditsRecord {
    return Object.assign(creditsOf(this.env.store, organizationId), change);
  }

  /** Reads an organization's credits record. */
  credits(organizationId = this.caller().organizationId): CreditsRecord {
    return creditsOf(this.env.store, organizationId);
  }

  /**
   * Adds an empty context file to a question (default `processing`), as if uploaded, that stays in
   * its state until {@link setContextFileStatus} moves it; returns its id. (An upload through the API
   * finishes processing on the clock; see `service.contextControls`.)
   */
  addContextFile(questionId: string, status: ContextFileRecord['status'] = 'processing', filename = 'notes.pdf'): string {
    const now = new Date(this.env.clock.now()).toISOString();
    return this.env.store.collection(CONTEXT_FILES).insert({
      id: crypto.randomUUID(),
      questionId,
      status,
      filename,
      contentType: 'application/pdf',
      sizeBytes: 0,
      content: new Uint8Array(),
      artifactType: 'user_context',
      treatment: 'consider',
      userNote: null,
      failureReason: null,
      failWith: null,
      createdAt: now,
      updatedAt: now,
      timer: null,
    }).id;
  }

  /** Moves a context file to `ready` or `failed` at once. */
  setContextFileStatus(fileId: string, status: ContextFileRecord['status']): void {
    const file = this.env.store.collection(CONTEXT_FILES).get(fileId);
    if (!file) throw new Error(`No context file ${fileId}`);
    file.status = status;
  }

  /** Simulates news moving a question by `shift` in its own units; returns the task a watch started, or `null`. */
  moveNews(questionId: string, shift: number): ForecastRecord | null {
    return newsMoved(this.env, questionId, shift);
  }
}
