// The webhook event types are written by hand (the published webhooks entry names no zod) and the
// mock's schemas are checked against them: a schema that parses to anything else fails to compile.
import * as z from 'zod/mini';
import { exact, schemaFor } from '../../src/schemas/common.js';
import * as schemas from '../../src/schemas/events.js';
import type { ForecastCompletedEvent, KnownWebhookEvent } from '../../src/webhooks/index.js';

interface Ping {
  id: string;
  note?: string | undefined;
}

// The schema of exactly the type compiles.
export const Ping = schemaFor<Ping>()(exact({ id: z.string(), note: z.optional(z.string()) }));

// @ts-expect-error a field the type does not declare
export const WithExtra = schemaFor<Ping>()(exact({ id: z.string(), note: z.optional(z.string()), extra: z.string() }));

// @ts-expect-error a field of the type the schema lacks
export const Missing = schemaFor<Ping>()(exact({ id: z.string() }));

// @ts-expect-error a field retyped (a number where the type says string)
export const Retyped = schemaFor<Ping>()(exact({ id: z.number(), note: z.optional(z.string()) }));

// @ts-expect-error an optional field made required
export const Required = schemaFor<Ping>()(exact({ id: z.string(), note: z.string() }));

// The mock's event schemas parse to the public event types.
export const completed: ForecastCompletedEvent = schemas.ForecastCompletedEvent.parse({});
export const known: KnownWebhookEvent = schemas.KnownWebhookEvent.parse({});
export const back: z.output<typeof schemas.KnownWebhookEvent> = known;
