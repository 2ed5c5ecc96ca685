/**
 * The operations' names as types. Written out rather than read off the declarations, so that the
 * published declarations, which hold no operation block, can name them;
 * test/types/operation-names.check.ts holds the two equal, so a declaration added, renamed or
 * removed without this list fails `tsc`.
 * @module
 */

/**
 * The dotted name of every operation, as its client method is called (`'forecasts.create'`,
 * `'questions.files.list'`): the `sdkMethod` of {@link operations}, the `forecasting.operation` of
 * a span, what the mock's fault rules and request filters take.
 *
 * @example
 * ```ts
 * import type { OperationName } from 'forecasting-sdk';
 * const slow: OperationName[] = ['forecasts.create', 'questions.forecasts.create'];
 * ```
 */
export type OperationName =
  | 'questions.list'
  | 'questions.create'
  | 'questions.retrieve'
  | 'questions.update'
  | 'questions.browse'
  | 'questions.import'
  | 'questions.normalize'
  | 'questions.clarify'
  | 'questions.revise'
  | 'tags.list'
  | 'runModes.list'
  | 'forecasts.list'
  | 'forecasts.create'
  | 'forecasts.retrieve'
  | 'forecasts.cancel'
  | 'forecasts.createBatch'
  | 'forecasts.cancelBatch'
  | 'questions.forecasts.list'
  | 'questions.forecasts.create'
  | 'forecasts.chat.list'
  | 'forecasts.chat.create'
  | 'forecasts.chat.retrieve'
  | 'forecasts.chat.acceptContext'
  | 'questions.schedule.retrieve'
  | 'questions.schedule.update'
  | 'questions.schedule.delete'
  | 'questions.watch.retrieve'
  | 'questions.watch.update'
  | 'questions.watch.delete'
  | 'schedules.list'
  | 'watches.list'
  | 'credits.retrieve'
  | 'webhooks.list'
  | 'webhooks.create'
  | 'webhooks.retrieve'
  | 'webhooks.update'
  | 'webhooks.delete'
  | 'webhooks.rotate'
  | 'webhooks.test'
  | 'webhooks.deliveries.list'
  | 'webhooks.deliveries.retrieve'
  | 'webhooks.deliveries.listAttempts'
  | 'webhooks.deliveries.replay'
  | 'decisions.list'
  | 'decisions.create'
  | 'decisions.retrieve'
  | 'decisions.update'
  | 'decisions.archive'
  | 'decisions.unarchive'
  | 'decisions.generate'
  | 'decisions.setLive'
  | 'decisions.setFollowing'
  | 'decisions.drafts.update'
  | 'decisions.drafts.discard'
  | 'decisions.drafts.keep'
  | 'decisions.forecasts.create'
  | 'decisions.forecasts.estimate'
  | 'decisions.nodes.create'
  | 'decisions.nodes.delete'
  | 'decisions.links.create'
  | 'decisions.links.update'
  | 'decisions.links.delete'
  | 'decisions.notes.create'
  | 'decisions.notes.update'
  | 'decisions.notes.delete'
  | 'decisions.comments.list'
  | 'decisions.comments.create'
  | 'decisions.comments.update'
  | 'decisions.comments.delete'
  | 'decisions.conditions.list'
  | 'decisions.conditions.create'
  | 'decisions.conditions.update'
  | 'decisions.conditions.delete'
  | 'decisions.summary.retrieve'
  | 'decisions.summary.refresh'
  | 'questions.context.list'
  | 'questions.context.create'
  | 'questions.context.update'
  | 'questions.context.delete'
  | 'questions.context.ready'
  | 'questions.files.list'
  | 'questions.files.upload'
  | 'questions.files.retrieve'
  | 'questions.files.update'
  | 'questions.files.delete'
  | 'questions.files.replace'
  | 'presets.list'
  | 'presets.create'
  | 'presets.retrieveDefaults'
  | 'presets.updateDefaults'
  | 'presets.retrieve'
  | 'presets.update'
  | 'presets.delete'
  | 'presets.files.upload'
  | 'presets.files.retrieve'
  | 'presets.files.update'
  | 'presets.files.delete'
  | 'questionTemplates.list'
  | 'questionTemplates.create'
  | 'questionTemplates.createFromQuestion'
  | 'questionTemplates.retrieve'
  | 'questionTemplates.update'
  | 'questionTemplates.delete'
  | 'questionTemplates.apply'
  | 'questionTemplates.fill'
  | 'questionTemplates.files.upload'
  | 'questionTemplates.files.retrieve'
  | 'questionTemplates.files.update'
  | 'questionTemplates.files.delete'
  | 'connections.list'
  | 'connections.create'
  | 'connections.retrieve'
  | 'connections.update'
  | 'connections.delete'
  | 'connections.test'
  | 'connections.memberSwitch'
  | 'connections.signIn'
  | 'questions.shareLinks.list'
  | 'questions.shareLinks.create'
  | 'questions.shareLinks.retrieve'
  | 'questions.shareLinks.update'
  | 'questions.shareLinks.delete'
  | 'questions.shareLinks.revoke'
  | 'questions.subscription.retrieve'
  | 'questions.subscription.follow'
  | 'questions.subscription.unfollow';

/**
 * The OpenAPI `operationId` of an operation (`'questionsForecastsCreate'` for
 * `'questions.forecasts.create'`): what a client generated in another language knows it by.
 *
 * @example
 * ```ts
 * import type { OperationId } from 'forecasting-sdk';
 * const id: OperationId = 'questionsForecastsCreate';
 * ```
 */
// Written without a helper type (the reference would list it): names have one or two dots.
export type OperationId = {
  [N in OperationName]: N extends `${infer A}.${infer B}.${infer C}` ? `${A}${Capitalize<B>}${Capitalize<C>}` : N extends `${infer A}.${infer B}` ? `${A}${Capitalize<B>}` : N;
}[OperationName];
