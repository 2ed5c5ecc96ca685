/**
 * The mock's route table: every group's handler table, each keyed by its operations' names and
 * checked by the compiler (`handlersFor`). A new group is one file in this folder, listed here.
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
import type { OperationHandler } from './types.js';
import { webhookHandlers } from './webhooks.js';

/** Every handler, one per declared operation (the service refuses a second one or an undeclared one). */
export const allHandlers: readonly OperationHandler[] = [
  questionHandlers,
  tagHandlers,
  webhookHandlers,
  forecastHandlers,
  chatHandlers,
  scheduleHandlers,
  creditHandlers,
  decisionHandlers,
  contextHandlers,
  presetHandlers,
  templateHandlers,
  connectionHandlers,
  sharingHandlers,
].flat();
