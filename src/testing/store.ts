/**
 * The mock service's in-memory store: one {@link Collection} per resource kind. A handler group
 * declares its own collection with {@link collectionKey}, so adding a group needs no edit here.
 * @module
 */
import type { Question } from '../schemas/records/questions.js';
import type { RunModeKey, TaskStatus } from '../schemas/forecasts.js';
import type { ScheduledCallback } from './clock.js';

/**
 * Records of one resource kind, by id, newest first.
 *
 * @example
 * ```ts
 * const questions = service.store.questions;
 * questions.get(id)?.question.title;
 * ```
 */
export class Collection<T extends { id: string }> {
  private readonly items = new Map<string, T>();

  /** Adds a record (it becomes the newest). */
  insert(item: T): T {
    if (this.items.has(item.id)) throw new Error(`duplicate id ${item.id}`);
    this.items.set(item.id, item);
    return item;
  }

  /** Replaces a record, keeping its place in the order. */
  replace(item: T): T {
    if (!this.items.has(item.id)) throw new Error(`no record ${item.id}`);
    this.items.set(item.id, item);
    return item;
  }

  get(id: string): T | undefined {
    return this.items.get(id);
  }

  delete(id: string): boolean {
    return this.items.delete(id);
  }

  /** Every record, newest first (insertion order reversed: timestamps can tie on a manual clock). */
  list(filter?: (item: T) => boolean): T[] {
    const all = [...this.items.values()].reverse();
    return filter ? all.filter(filter) : all;
  }

  some(test: (item: T) => boolean): boolean {
    for (const item of this.items.values()) if (test(item)) return true;
    return false;
  }

  get size(): number {
    return this.items.size;
  }

  clear(): void {
    this.items.clear();
  }
}

/**
 * Names a collection and the type of its records.
 * @example
 * ```ts
 * const NOTES: CollectionKey<{ id: string; text: string }> = collectionKey('notes');
 * service.store.collection(NOTES).insert({ id: 'n1', text: 'seeded' });
 * ```
 */
export interface CollectionKey<T extends { id: string }> {
  readonly name: string;
  /** Type carrier only; never set. */
  readonly _type?: T;
}

/**
 * Declares a collection, typically at the top of a handler file.
 *
 * @example
 * ```ts
 * const WEBHOOKS = collectionKey<WebhookRecord>('webhooks');
 * ctx.store.collection(WEBHOOKS).insert(record);
 * ```
 */
export function collectionKey<T extends { id: string }>(name: string): CollectionKey<T> {
  return { name };
}

/**
 * Who a stored resource belongs to.
 * @example
 * ```ts
 * const mine = (r: Ownership) => r.ownerId === 'user-1';
 * service.store.questions.list(mine);
 * ```
 */
export interface Ownership {
  /** The user whose key created it. */
  ownerId: string;
  organizationId: string;
}

/**
 * A stored question: the question as the service shows it, plus who owns it.
 * @example
 * ```ts
 * const record: QuestionRecord | undefined = service.store.questions.get(questionId);
 * console.log(record?.ownerId, record?.question.title);
 * ```
 */
export interface QuestionRecord extends Ownership {
  id: string;
  question: Question;
  /**
   * The question's own preset, which its forecasts use when they name none (before the caller's and
   * the organization's defaults): the preset of the template it was built from. A test sets it with
   * `service.contextControls.setQuestionPreset`.
   */
  presetId?: string | null;
}

/**
 * A forecast task on a question (its `id` is the task id). A question with any forecast record has
 * its locked fields frozen. The state machine that moves it is `models/forecast-task.ts`; what a read
 * shows is built from it there.
 * @example
 * ```ts
 * const record: ForecastRecord | undefined = service.store.forecasts.get(taskId);
 * console.log(record?.status, record?.runMode);
 * ```
 */
export interface ForecastRecord extends Ownership {
  id: string;
  questionId: string;
  createdAt: string;
  status: TaskStatus;
  runMode: RunModeKey;
  startedAt: string | null;
  finishedAt: string | null;
  /** One per planned subforecast, in `sequenceIndex` order. */
  subforecasts: Array<{ sequenceIndex: number; status: 'running' | 'completed' | 'cancelled' | 'failed'; completedAt: string | null }>;
  /** The forecast's own id and time, once completed. */
  forecastId: string | null;
  generatedAt: string | null;
  reportStatus: 'pending' | 'writing' | 'completed' | 'failed';
  /** `error.message` once failed. */
  failureMessage: string | null;
  creditsCharged: number;
  presetId: string | null;
  /** `warnings[].code` of the task (such as `preset_content_may_show_in_forecast`), decided when it started. */
  warnings?: string[];
  /** What started it: the API, a schedule or a watch. */
  startedBy: 'api' | 'schedule' | 'watch';
  /** Clock callbacks still waiting to move it; cancelled when it ends early. */
  timers: ScheduledCallback[];
}

/**
 * The questions collection.
 * @example
 * ```ts
 * const titles = service.store.collection(QUESTIONS).list().map((r) => r.question.title);
 * ```
 */
export const QUESTIONS = collectionKey<QuestionRecord>('questions');
/**
 * The forecasts collection: the question edit lock looks here.
 * @example
 * ```ts
 * const running = service.store.collection(FORECASTS).list((t) => t.status === 'running_subforecasts');
 * ```
 */
export const FORECASTS = collectionKey<ForecastRecord>('forecasts');

/**
 * Every resource the mock holds, in memory.
 *
 * @example
 * ```ts
 * service.store.questions.list().length; // questions created so far
 * ```
 */
export class MockStore {
  private readonly collections = new Map<string, Collection<{ id: string }>>();
  /**
   * The service's seed (`createMockService({ seed })`): forecast numbers then derive from it and the
   * question's content, not from random ids. `undefined`: random, as ids are. Kept by `clear()`.
   */
  seed: string | undefined;

  /** The collection named by `key`, created empty on first use. */
  collection<T extends { id: string }>(key: CollectionKey<T>): Collection<T> {
    let found = this.collections.get(key.name);
    if (!found) {
      found = new Collection<{ id: string }>();
      this.collections.set(key.name, found);
    }
    // One key name maps to one record type: collectionKey is the only way to name a collection.
    return found as Collection<T>;
  }

  get questions(): Collection<QuestionRecord> {
    return this.collection(QUESTIONS);
  }

  get forecasts(): Collection<ForecastRecord> {
    return this.collection(FORECASTS);
  }

  /** Whether any forecast exists for the question (its locked fields can no longer change). */
  hasForecast(questionId: string): boolean {
    return this.forecasts.some((f) => f.questionId === questionId);
  }

  /** Empties every collection. */
  clear(): void {
    for (const c of this.collections.values()) c.clear();
  }
}
