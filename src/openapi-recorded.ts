/**
 * What the OpenAPI document takes from `openapi-data.json` (recorded from the mock service by
 * `scripts/openapi-examples.ts`): each operation's summary and examples, and one call per webhook event.
 * @module
 * @internal
 */
import data from './openapi-data.json' with { type: 'json' };

/** A part of an OpenAPI document, as JSON. */
export type Json = Record<string, unknown>;

/** One request the recorder sent to the mock and the answer it got (see `scripts/openapi-examples.ts`). */
export interface RecordedExchange {
  /** The example's name in the document (`example`, or what sets it apart: `running`, `completed`). */
  name: string;
  request: {
    /** Path parameters by their name in the template. */
    path?: Record<string, string>;
    query?: Record<string, unknown>;
    headers?: Record<string, string>;
    contentType?: string;
    /** The JSON body, or the fields of a multipart body (`file` as its text). */
    body?: unknown;
  };
  response: { status: number; headers?: Record<string, string>; body?: unknown };
}

/** What `openapi-data.json` holds. */
export interface OpenApiData {
  /** By `METHOD /path`: the spec's purpose text and the recorded exchanges. */
  operations: Record<string, { summary: string; examples: RecordedExchange[] }>;
  /** By event kind: one call the mock made, with the headers a receiver gets. */
  webhooks: Record<string, { headers: Record<string, string>; body: unknown }>;
}

/** The recorded summaries and examples. */
export const recorded = data as unknown as OpenApiData;

/** A parameter or header with its recorded value as `example`, when there is one. */
export function withExample(object: Json, example: unknown): Json {
  return example === undefined ? object : { ...object, example };
}

/** A media type's `examples`, by exchange name, from the exchanges that carry a value. */
export function examplesOf(exchanges: readonly RecordedExchange[], pick: (x: RecordedExchange) => unknown): Json {
  const examples: Record<string, Json> = {};
  for (const x of exchanges) {
    const value = pick(x);
    if (value !== undefined) examples[x.name] ??= { value };
  }
  return Object.keys(examples).length > 0 ? { examples } : {};
}
