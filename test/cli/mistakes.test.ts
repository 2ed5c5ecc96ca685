// The mistakes users make, caught by the built binary against the mock over HTTP: a misspelled key in
// a --from-file line is named on stderr, and a date bound in milliseconds is refused.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/testing/index.js';
import { envFor, run, useMockAndFolder } from './_cli.js';

const h = useMockAndFolder({ clock: new ManualClock() });
const S_2027 = Date.UTC(2027, 0, 1) / 1000;
const S_2028 = Date.UTC(2028, 0, 1) / 1000;

function jsonl(name: string, lines: unknown[]): string {
  const file = join(h.dir, name);
  writeFileSync(file, lines.map((l) => JSON.stringify(l)).join('\n'));
  return file;
}

describe('forecasting forecast --from-file: unknown keys', () => {
  it('names a misspelled key on stderr, once, with the field it resembles, and still starts the forecasts', async () => {
    const line = { type: 'binary', title: 'Will it rain?', resolutionCriterea: 'Any rain at Montsouris' };
    const file = jsonl('typo.jsonl', [line, { ...line, title: 'Will it snow?' }]);
    const r = await run(['forecast', '--from-file', file], { env: envFor(h.mock) });
    expect(r.code).toBe(0);
    expect(r.stderr).toBe(`${file} line 1: unknown field \`question.resolutionCriterea\` sent as is; did you mean \`question.resolutionCriteria\`?\n`);
    expect(r.stdout.trim().split('\n')).toHaveLength(2);
  });

  it('names lines as the file numbers them (blank lines count), and a refused line’s fields without its batch place', async () => {
    const typo = { type: 'binary', title: 'Will it rain?', resolutionCriterea: 'Any rain at Montsouris' };
    const discrete = { type: 'discrete', title: 'How many goals?', lowerBound: 0, upperBound: 1 };
    const file = join(h.dir, 'gaps.jsonl');
    writeFileSync(file, ['', JSON.stringify(typo), '', JSON.stringify(discrete), ''].join('\n'));
    const r = await run(['forecast', '--from-file', file], { env: envFor(h.mock) });
    expect(r.code).toBe(4);
    expect(r.stderr).toBe(`${file} line 2: unknown field \`question.resolutionCriterea\` sent as is; did you mean \`question.resolutionCriteria\`?\n`);
    expect(r.stdout.trimEnd().split('\n')[1]).toBe('rejected  line 4  question.upperBound: discrete bounds must be 2 to 500 apart');
  });

  it('says nothing for a file of known keys', async () => {
    const file = jsonl('clean.jsonl', [{ question: { type: 'binary', title: 'Will it hail?', resolutionCriteria: 'x' }, runMode: 'light' }]);
    const r = await run(['forecast', '--from-file', file], { env: envFor(h.mock) });
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
  });
});

describe('date bounds in milliseconds', () => {
  it('questions create refuses them before sending (exit 2), naming the flag’s field', async () => {
    const before = h.mock.service.store.questions.list().length;
    const r = await run(['questions', 'create', '--type', 'date', '--title', 'When?', '--lower-bound', String(S_2027 * 1000), '--upper-bound', String(S_2028)], { env: envFor(h.mock) });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('lowerBound: looks like milliseconds; date bounds are Unix seconds');
    expect(h.mock.service.store.questions.list()).toHaveLength(before);
  });

  it('questions create takes seconds, and ISO dates as before', async () => {
    const r = await run(['questions', 'create', '--type', 'date', '--title', 'When?', '--lower-bound', '2027-01-01', '--upper-bound', String(S_2028), '--json'], { env: envFor(h.mock) });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ lowerBound: S_2027, upperBound: S_2028 });
  });

  it('forecast --from-file reports a line in milliseconds as rejected, naming the bound', async () => {
    const file = jsonl('ms.jsonl', [{ type: 'date', title: 'When?', lowerBound: S_2027, upperBound: S_2028 * 1000 }]);
    const r = await run(['forecast', '--from-file', file], { env: envFor(h.mock) });
    expect(r.code).toBe(4);
    expect(r.stdout).toMatch(/^rejected {2}line 1 {2}.*question\.upperBound: looks like milliseconds/);
  });
});
