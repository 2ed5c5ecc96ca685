/**
 * The console's pages and actions, one table: a method, a path pattern, and what it answers. Each
 * page reads through the SDK; an error from the service becomes the page's error box (its message
 * and request id), never a stack and never the key.
 * @module
 */
import type { ForecastingClient } from '../../index.js';
import { html, type Html } from './html.js';
import type { MockControl } from './mock-control.js';
import { questionPage, questionsPage, taskPage } from './pages-questions.js';
import { cancelTask, creditsPage, deliveryPage, mockPage, mockAdvance, mockOutcome, replayDelivery, tasksPage, testWebhook, webhooksPage } from './pages-work.js';
import { errorBox, statusOf } from './view.js';

/** What a page or an action has to work with. */
export interface Context {
  client: ForecastingClient;
  mock: MockControl | undefined;
  url: URL;
  /** A posted form's fields (empty for a GET). */
  form: URLSearchParams;
  /** Blanks the key wherever a text quotes it. */
  redact(text: string): string;
  /** Where an action returns: the form's `back` when it is a path of the console, else `fallback`. */
  back(form: URLSearchParams, fallback: string): string;
}

/** A page to show, or where to go after an action. */
export type Answer = { title: string; body: Html; live?: number; status?: number } | { redirect: string };

interface Route {
  method: 'GET' | 'POST';
  pattern: RegExp;
  /** Only when the console talks to the mock. */
  mockOnly?: boolean;
  run(context: Context, params: string[]): Promise<Answer>;
}

/** Runs a page or an action; the service's error is shown on a page of its own, with a way back. */
const guarded =
  (title: string, run: (context: Context, params: string[]) => Promise<Answer>) =>
  async (context: Context, params: string[]): Promise<Answer> => {
    try {
      return await run(context, params);
    } catch (err) {
      const back = context.form.get('back');
      const body: Html = html`<h1>${title}</h1>${errorBox(err, context.redact)}${back ? html`<p><a href="${context.back(context.form, '/')}">Back</a></p>` : ''}`;
      return { title, body, status: statusOf(err) };
    }
  };

const ID = '([^/]+)';

/** Every page and action of the console. */
export const ROUTES: readonly Route[] = [
  { method: 'GET', pattern: /^\/questions$/, run: guarded('Questions', questionsPage) },
  { method: 'GET', pattern: new RegExp(`^/questions/${ID}$`), run: guarded('Question', questionPage) },
  { method: 'GET', pattern: /^\/tasks$/, run: guarded('Tasks', tasksPage) },
  { method: 'GET', pattern: new RegExp(`^/tasks/${ID}$`), run: guarded('Task', taskPage) },
  { method: 'POST', pattern: new RegExp(`^/tasks/${ID}/cancel$`), run: guarded('Cancel', cancelTask) },
  { method: 'GET', pattern: /^\/webhooks$/, run: guarded('Webhooks', webhooksPage) },
  { method: 'POST', pattern: new RegExp(`^/webhooks/${ID}/test$`), run: guarded('Test call', testWebhook) },
  { method: 'GET', pattern: new RegExp(`^/deliveries/${ID}$`), run: guarded('Delivery', deliveryPage) },
  { method: 'POST', pattern: new RegExp(`^/deliveries/${ID}/replay$`), run: guarded('Replay', replayDelivery) },
  { method: 'GET', pattern: /^\/credits$/, run: guarded('Credits', creditsPage) },
  { method: 'GET', pattern: /^\/mock$/, mockOnly: true, run: guarded('Mock clock', mockPage) },
  { method: 'POST', pattern: /^\/mock\/advance$/, mockOnly: true, run: guarded('Advance the clock', mockAdvance) },
  { method: 'POST', pattern: /^\/mock\/outcome$/, mockOnly: true, run: guarded('Set an outcome', mockOutcome) },
];
