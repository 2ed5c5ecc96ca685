/**
 * The ids of a call as span attributes: those of its path (`forecasting.task_id`) and those its
 * answer names.
 * @module
 */
import type { Attributes } from '@opentelemetry/api';
import { ID_VALUE, type OperationMessage } from '../core/channels.js';

/** The longest id put in an attribute: ids come from answers, and an answer may be anything. */
export const MAX_ID_CHARS = 200;

/** An id as the core takes one from an answer: id characters only, at most {@link MAX_ID_CHARS}. */
export const isId = (value: unknown): value is string => typeof value == 'string' && ID_VALUE.test(value);

/** The attribute of each id of the path (`forecasting.task_id`), by parameter name: made once per name. */
const ID_ATTRIBUTES = new Map<string, string>();
export const idAttribute = (name: string): string => {
  let attribute = ID_ATTRIBUTES.get(name);
  if (attribute === undefined) ID_ATTRIBUTES.set(name, (attribute = `forecasting.${name}`));
  return attribute;
};

/** `forecasting.<name>` for each id a write's answer names that its path does not; the answer's own `id` named by {@link idName}. */
export function answerIdAttributes(m: OperationMessage, answer: Record<string, string>): Attributes {
  const out: Attributes = {};
  for (const name in answer) if (name !== 'id' && m.ids[name] === undefined) out[`forecasting.${name}`] = answer[name]!.slice(0, MAX_ID_CHARS);
  const own = answer['id'];
  const ownName = idName(m.operation);
  if (own !== undefined && ownName !== undefined && m.ids[ownName] === undefined) out[`forecasting.${ownName}`] = own.slice(0, MAX_ID_CHARS);
  return out;
}

/**
 * What the answer's `id` names, by the resource the operation is a method of (its name without the
 * method: `questions.forecasts` starts a task, `webhooks.deliveries` answers a delivery). A resource
 * not listed (a decision's comments, a task's chat) labels no id rather than a wrong one.
 */
const ID_NAMES: Readonly<Record<string, string>> = {
  forecasts: 'task_id',
  'questions.forecasts': 'task_id',
  questions: 'question_id',
  'questions.files': 'file_id',
  decisions: 'decision_id',
  webhooks: 'webhook_id',
  'webhooks.deliveries': 'delivery_id',
};
const idName = (operation: string): string | undefined => (Object.hasOwn(ID_NAMES, operation.slice(0, operation.lastIndexOf('.'))) ? ID_NAMES[operation.slice(0, operation.lastIndexOf('.'))] : undefined);
