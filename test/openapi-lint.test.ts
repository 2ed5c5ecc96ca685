// The shipped OpenAPI document (dist/openapi.json) against Spectral's `spectral:oas` ruleset, the
// recommended OpenAPI rules, as `spectral lint` runs them.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import spectralCore, { type RulesetDefinition } from '@stoplight/spectral-core';
import spectralParsers from '@stoplight/spectral-parsers';
import spectralRulesets from '@stoplight/spectral-rulesets';
import { describe, expect, it } from 'vitest';

const { Spectral, Document } = spectralCore;
const root = fileURLToPath(new URL('..', import.meta.url));
const SEVERITY = ['error', 'warn', 'info', 'hint'] as const;

/** Spectral's findings as `severity rule path: message`. */
async function lint(text: string): Promise<string[]> {
  const spectral = new Spectral();
  // The ruleset's own type says less than Spectral accepts (its rules' `recommended` flags pick the set).
  spectral.setRuleset({ extends: [[spectralRulesets.oas as RulesetDefinition, 'recommended']] });
  const results = await spectral.run(new Document(text, spectralParsers.Json, 'openapi.json'));
  return results.map((r) => `${SEVERITY[r.severity]} ${String(r.code)} ${r.path.join('.')}: ${r.message}`);
}

describe('dist/openapi.json under Spectral (spectral:oas)', () => {
  it('has no error and no warning', async () => {
    expect(await lint(readFileSync(`${root}dist/openapi.json`, 'utf8'))).toEqual([]);
  }, 60_000);

  it('is checked: the mistakes this document once had are reported', async () => {
    const shipped = JSON.parse(readFileSync(`${root}dist/openapi.json`, 'utf8')) as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
    // Three of its paths are enough (linting every example takes a while).
    const kept = ['/questions/{question_id}', '/tags', '/forecasts/{task_id}'];
    const doc: Record<string, any> = { ...shipped, webhooks: undefined, paths: Object.fromEntries(kept.map((path) => [path, shipped['paths'][path]])) }; // eslint-disable-line @typescript-eslint/no-explicit-any
    // zod's `prefixItems: []` for an empty tuple, a role on a scheme without scopes, an example of the wrong type.
    doc['paths']['/questions/{question_id}']['patch']['requestBody']['content']['application/json']['schema']['properties']['options'] = { type: 'array', prefixItems: [] };
    doc['paths']['/tags']['get']['security'] = [{ bearerAuth: ['questions:read'] }];
    doc['paths']['/forecasts/{task_id}']['get']['responses']['200']['headers']['Retry-After']['example'] = '120';
    delete doc['info']['contact'];
    const found = (await lint(JSON.stringify(doc))).map((line) => line.split(':')[0]);
    expect(found).toEqual(
      expect.arrayContaining([
        'error oas3-schema paths./questions/{question_id}.patch.requestBody.content.application/json.schema.properties.options.prefixItems',
        'warn oas3-operation-security-defined paths./tags.get.security.0.bearerAuth.0',
        'error oas3-valid-media-example paths./forecasts/{task_id}.get.responses.200.headers.Retry-After.example',
        'warn info-contact info',
      ]),
    );
  }, 60_000);
});
