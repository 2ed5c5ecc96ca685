// The doc-test harness itself: what it extracts, where it points errors, and that a failing or
// hanging example fails.
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { extractExamples, runExample, typecheckExamples } from './harness.js';

const root = fileURLToPath(new URL('../..', import.meta.url));

const markdown = [
  '# Guide', //                                        1
  '',
  '```sh',
  'npm i forecasting-sdk',
  '```', //                                            5
  '',
  '<!-- doc-test',
  "import type { ForecastingClient } from 'forecasting-sdk';",
  'declare const client: ForecastingClient;',
  '-->', //                                           10
  '',
  '```ts',
  'const page = await client.questions.list();',
  'const n: string = page.data.length;',
  '```', //                                           15
  '',
  '- In a list:',
  '',
  '  ```ts run',
  "  console.log('run');", //                         20
  '  ```',
  '',
  'A paragraph clears a marker:',
  '<!-- doc-test',
  'declare const unused: number;', //                 25
  '-->',
  'Some text.',
  '~~~typescript',
  'export const x = 1;',
  '~~~', //                                           30
  '<!-- doc-test file=./helper.ts',
  'export const helper = (a: number) => a * 2;',
  '-->',
  '```ts',
  "import { helper } from './helper';", //            35
  'helper(2);',
  '```',
].join('\n');

describe('extractExamples', () => {
  const examples = extractExamples(markdown, 'guide.md');

  it('takes ts and typescript fences only, with their first line, run flag and list indentation removed', () => {
    expect(examples.map((e) => [e.line, e.run, e.code])).toEqual([
      [13, false, 'const page = await client.questions.list();\nconst n: string = page.data.length;'],
      [20, true, "console.log('run');"],
      [29, false, 'export const x = 1;'],
      [35, false, "import { helper } from './helper';\nhelper(2);"],
    ]);
  });

  it('attaches a preamble or a file to the fence right after it, and nothing across other text', () => {
    expect(examples[0]!.preamble).toEqual({ code: "import type { ForecastingClient } from 'forecasting-sdk';\ndeclare const client: ForecastingClient;", line: 8 });
    expect(examples[2]!.preamble).toBeUndefined();
    expect(examples[3]!.files).toEqual([{ path: './helper.ts', code: 'export const helper = (a: number) => a * 2;', line: 32 }]);
  });

  it('refuses a marker that is never closed', () => {
    expect(() => extractExamples('<!-- doc-test\nconst a = 1;\n', 'open.md')).toThrow(/open\.md:1: <!-- doc-test is never closed/);
  });
});

describe('typecheckExamples', () => {
  it('points each error at its line in the markdown, through the preamble and the files', () => {
    const broken = markdown.replace('a * 2;', 'a * "2";');
    expect(typecheckExamples(root, extractExamples(broken, 'guide.md'))).toEqual([
      "guide.md:14:7 TS2322: Type 'number' is not assignable to type 'string'.",
      expect.stringMatching(/^guide\.md:32:42 TS2363: The right-hand side of an arithmetic operation/),
    ]);
  }, 30_000);
});

describe('runExample', () => {
  const [example] = extractExamples('```ts run\nplaceholder\n```', 'run.md');
  const withCode = (code: string) => ({ ...example!, code });

  it('resolves the package by its name and reports output and exit code', async () => {
    const ok = await runExample(root, withCode("import { VERSION } from 'forecasting-sdk';\nconst v: string = VERSION;\nconsole.log(typeof v);"));
    expect(ok).toMatchObject({ code: 0, timedOut: false, stdout: 'string\n', stderr: '' });
    const failed = await runExample(root, withCode("throw new Error('broken example');"));
    expect(failed.code).not.toBe(0);
    expect(failed.stderr).toContain('broken example');
  });

  it('ends an example that never finishes', async () => {
    const hung = await runExample(root, withCode('setInterval(() => {}, 1000);'), 500);
    expect(hung.timedOut).toBe(true);
  });
});
