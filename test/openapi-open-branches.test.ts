// The document stays open to new values (an unknown status, question type or extra field validates)
// while a known value must carry its known shape: a completed task its forecast, a numeric question
// its bounds, a percentile a number. Checked with a JSON Schema 2020-12 validator.
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { beforeAll, describe, expect, it } from 'vitest';
import { openApiDocument } from '../src/openapi.js';

type Json = Record<string, unknown>;
let valid: (component: string, value: unknown) => boolean;
let completedTask: Json;
let binaryQuestion: Json;

beforeAll(() => {
  const doc = openApiDocument() as Json;
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addFormat('base64', /^[A-Za-z0-9+/]*={0,2}$/);
  ajv.addSchema({ $id: 'openapi.json', components: doc['components'] });
  valid = (component, value) => ajv.validate({ $ref: `openapi.json#/components/schemas/${component}` }, value);
  // The document's own recorded examples: a completed task, and the binary question it forecast.
  const walk = (x: unknown): void => {
    if (typeof x !== 'object' || x === null) return;
    const o = x as Json;
    if (o['status'] === 'completed' && o['forecast'] && o['question']) completedTask ??= o;
    for (const child of Object.values(o)) walk(child);
  };
  walk(doc['paths']);
  binaryQuestion = completedTask['question'] as Json;
});

const numericData = (p50: unknown) => ({
  questionType: 'numeric',
  format: 'probability_mass_function',
  payload: { percentiles: { p10: 1, p50, p90: 3 }, probability_mass_function: [1], cumulative_distribution_function: [1], bucket_edges: [0, 4], above_upper_probability: 0, scaleType: null },
});

describe('open branches of the OpenAPI document', () => {
  it('accepts its own completed task, and one with an unknown status and no forecast', () => {
    expect(valid('ForecastTask', completedTask)).toBe(true);
    const { forecast: _forecast, ...rest } = completedTask;
    expect(valid('ForecastTask', { ...rest, status: 'paused_for_review' })).toBe(true);
  });

  it('rejects a completed task with no forecast', () => {
    const { forecast: _forecast, ...rest } = completedTask;
    expect(valid('ForecastTask', rest)).toBe(false);
  });

  it('rejects a numeric forecast whose p50 is no number, and accepts an unknown question type with any payload', () => {
    expect(valid('ForecastData', numericData(2))).toBe(true);
    expect(valid('ForecastData', numericData('x'))).toBe(false);
    expect(valid('ForecastData', { questionType: 'ranking', format: 'ranks', payload: { order: ['a'] } })).toBe(true);
  });

  it('rejects a numeric question without bounds, and accepts an unknown question type or an unknown extra field', () => {
    expect(valid('Question', binaryQuestion)).toBe(true);
    expect(valid('Question', { ...binaryQuestion, type: 'numeric' })).toBe(false);
    expect(valid('Question', { ...binaryQuestion, type: 'ranking' })).toBe(true);
    expect(valid('Question', { ...binaryQuestion, brandNewField: { nested: true } })).toBe(true);
  });

  it("carries no zod artefact: no safe-integer bounds, and a count is never negative", () => {
    const text = JSON.stringify(openApiDocument());
    expect(text).not.toContain('9007199254740991');
    const task = (openApiDocument() as { components: { schemas: Record<string, { properties: Record<string, { minimum?: number }> }> } }).components.schemas['ActiveForecastTask']!;
    expect(task.properties['completedSubforecastCount']!.minimum).toBe(0);
  });
});
