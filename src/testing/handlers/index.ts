/**
 * Every handler group of the mock. A new group is one file in this folder, listed here.
 * @module
 */
import { draftingHandlers } from './drafting.js';
import { questionHandlers } from './questions.js';
import { tagHandlers } from './tags.js';
import type { OperationHandler } from './types.js';
import { webhookHandlers } from './webhooks.js';
import { forecastHandlers } from './forecasts.js';
import { chatHandlers } from './chat.js';
import { scheduleHandlers } from './schedules.js';
import { creditHandlers } from './credits.js';
import { decisionHandlers } from './decisions.js';
import { contextHandlers } from './context.js';
import { presetHandlers } from './presets.js';

export const allHandlers: readonly OperationHandler[] = [...questionHandlers, ...draftingHandlers, ...tagHandlers, ...webhookHandlers,
  ...forecastHandlers,
  ...chatHandlers,
  ...scheduleHandlers,
  ...creditHandlers,
  ...decisionHandlers,
  ...contextHandlers,
  ...presetHandlers,
];
