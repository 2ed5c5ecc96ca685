// Every answer the mock recorded with a Retry-After header declares it in the OpenAPI document, with
// the recorded value as its example.
import { describe, expect, it } from 'vitest';
import { openApiDocument } from '../src/openapi.js';
import recorded from '../src/openapi-data.json' with { type: 'json' };

type Json = Record<string, unknown>;

describe('Retry-After in the OpenAPI document', () => {
  it('is declared on every answer that sends it', () => {
    const doc = openApiDocument() as { paths: Record<string, Record<string, { responses: Record<string, { headers?: Json }> }>> };
    const sent: string[] = [];
    for (const [key, operation] of Object.entries(recorded.operations as Record<string, { examples?: Array<{ response: { status: number; headers?: Record<string, string> } }> }>)) {
      for (const { response } of operation.examples ?? []) {
        if (response.headers?.['retry-after'] === undefined || response.status >= 400) continue;
        const [method, path] = key.split(' ') as [string, string];
        sent.push(key);
        expect([key, doc.paths[path]?.[method.toLowerCase()]?.responses[String(response.status)]?.headers?.['Retry-After']]).toEqual([key, expect.objectContaining({ schema: { type: 'integer', minimum: 0 } })]);
      }
    }
    expect(new Set(sent)).toEqual(new Set(['GET /forecasts/{task_id}', 'POST /forecasts', 'POST /forecasts/batch', 'POST /questions/{question_id}/forecasts', 'GET /questions/{question_id}/context/ready']));
  });
});
