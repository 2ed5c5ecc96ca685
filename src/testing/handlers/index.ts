/**
 * The mock's route table: every group's handler table, each keyed by its operations' names and
 * checked by the compiler (`handlersFor`), and the groups checked against the registry's names.
 * @module
 */
import { chatHandlers } from './chat.js';
import { connectionHandlers } from './connections.js';
import { contextHandlers } from './context.js';
import { creditHandlers } from './credits.js';
import { decisionHandlers } from './decisions.js';
import { forecastHandlers } from './forecasts.js';
import { presetHandlers } from './presets.js';
import { questionHandlers } from './questions.js';
import { scheduleHandlers } from './schedules.js';
import { sharingHandlers } from './sharing.js';
import { tagHandlers } from './tags.js';
import { templateHandlers } from './templates.js';
import type { GroupName } from '../../api/groups.js';
import type { OperationHandler } from './types.js';
import { webhookHandlers } from './webhooks.js';

/**
 * Each group's handler tables, keyed like the registry of `src/api/index.ts`: a group added to
 * `src/api/groups.ts` is a compile error here until its handlers are listed.
 */
const handlersByGroup = {
  questions: [questionHandlers, tagHandlers],
  forecasts: [forecastHandlers],
  chat: [chatHandlers],
  schedules: [scheduleHandlers],
  account: [creditHandlers],
  webhooks: [webhookHandlers],
  decisions: [decisionHandlers],
  context: [contextHandlers],
  presets: [presetHandlers],
  templates: [templateHandlers],
  connections: [connectionHandlers],
  sharing: [sharingHandlers],
} satisfies Record<GroupName, ReadonlyArray<readonly OperationHandler[]>>;

/** Every handler, one per declared operation (the service refuses a second one or an undeclared one). */
export const allHandlers: readonly OperationHandler[] = Object.values(handlersByGroup).flat(2);
