// Compiled by `tsc --noEmit` (never run): a comparison with a misspelled value of an open set fails to
// compile, the right comparison narrows, and a value newer than the SDK stays usable as a string.
import { expectTypeOf } from 'vitest';
import type {
  AcceptedItemResult,
  BatchItemResult,
  CancelItemResult,
  ForecastListItem,
  ForecastingClient,
  RejectedItemResult,
  UnknownItemResult,
  UnknownValue,
  Webhook,
  WebhookDelivery,
} from '../../src/index.js';

declare const client: ForecastingClient;

export async function batchResults(): Promise<void> {
  const results: BatchItemResult[] = await client.forecasts.createMany([{ questionId: 'q' }]);
  for (const r of results) {
    // @ts-expect-error 'acepted' is not a status: the comparison has no overlap
    if (r.status === 'acepted') continue;
    if (r.status === 'accepted') {
      // Narrowed: the task id is there, no `!` needed.
      expectTypeOf(r).toEqualTypeOf<AcceptedItemResult>();
      expectTypeOf(r.taskId).toEqualTypeOf<string>();
    } else if (r.status === 'rejected') {
      expectTypeOf(r).toEqualTypeOf<RejectedItemResult>();
      expectTypeOf(r.error.message).toEqualTypeOf<string>();
    } else {
      // A status the service added later: typed apart, still a string.
      expectTypeOf(r).toEqualTypeOf<UnknownItemResult>();
      const text: string = r.status;
      void text;
    }
    // Before narrowing, both fields read as optional.
    expectTypeOf(r.taskId).toEqualTypeOf<string | undefined>();
    switch (r.status) {
      case 'accepted':
        break;
      // @ts-expect-error 'rejectd' is not a status
      case 'rejectd':
        break;
    }
  }
}

export function otherOpenSets(item: ForecastListItem, cancel: CancelItemResult, delivery: WebhookDelivery, hook: Webhook): void {
  // @ts-expect-error 'complete' is not a task status ('completed' is)
  if (item.status === 'complete') return;
  if (item.status === 'completed') expectTypeOf(item.status).toEqualTypeOf<'completed'>();
  // @ts-expect-error 'canceled' is not a cancel outcome ('cancelled' is)
  if (cancel.status === 'canceled') return;
  // @ts-expect-error 'faild' is not a delivery status
  if (delivery.status === 'faild') return;
  // @ts-expect-error 'forecast.complete' is not an event kind
  if (hook.eventKinds.includes('forecast.complete')) return;
  // Any of them is still a string, and a value newer than the SDK is compared as one.
  const text: string = item.status;
  if ((item.status as string) === 'paused') void text;
  expectTypeOf<UnknownValue>().toMatchTypeOf<string>();
}
