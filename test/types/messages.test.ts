// What the compiler says about a user's mistake: the message (or its chain) names the field at fault,
// not a field of another branch of a union. One in-memory program against src/, checked with tsc's API.
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const cases = {
  typoInCreate: `await client.questions.create({ type: 'binary', title: 'Will it rain?', resolutionCriterea: 'x' });`,
  missingTitle: `await client.questions.create({ type: 'binary' });`,
  wrongRunMode: `await client.forecasts.create({ questionId: 'q', runMode: 'fast' });`,
  wrongScale: `await client.questions.create({ type: 'numeric', title: 't', lowerBound: 1, upperBound: 2, scaleType: 'log' });`,
  missingBounds: `await client.questions.create({ type: 'numeric', title: 't', scaleType: 'linear' });`,
  typoInRead: `const q = await client.questions.retrieve('q'); q.titel;`,
  typoInNested: `await client.forecasts.create({ question: { type: 'binary', title: 't', visiblity: 'private' } });`,
};

/** The diagnostics of each case, as flat text: where each points (`at: …`), its message chain and related information. */
function diagnose(): Record<keyof typeof cases, string> {
  const files = new Map(
    Object.entries(cases).map(([name, body]) => [
      `${root}test/types/__${name}.ts`,
      `import { ForecastingClient } from '../../src/index.js';\ndeclare const client: ForecastingClient;\nexport async function f() {\n${body}\n}\n`,
    ]),
  );
  const options: ts.CompilerOptions = {
    strict: true,
    noEmit: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    lib: ['lib.es2023.d.ts', 'lib.dom.d.ts'],
    types: ['node'],
    skipLibCheck: true,
  };
  const host = ts.createCompilerHost(options);
  const readFile = host.readFile.bind(host);
  const fileExists = host.fileExists.bind(host);
  host.readFile = (f) => files.get(f) ?? readFile(f);
  host.fileExists = (f) => files.has(f) || fileExists(f);
  const program = ts.createProgram([...files.keys()], options, host);
  const out = {} as Record<keyof typeof cases, string>;
  for (const [name] of Object.entries(cases)) {
    const source = program.getSourceFile(`${root}test/types/__${name}.ts`)!;
    out[name as keyof typeof cases] = ts
      .getPreEmitDiagnostics(program, source)
      .map((d) =>
        [
          `at: ${source.text.slice(d.start ?? 0, (d.start ?? 0) + (d.length ?? 0))}`,
          ts.flattenDiagnosticMessageText(d.messageText, '\n'),
          ...(d.relatedInformation ?? []).map((r) => ts.flattenDiagnosticMessageText(r.messageText, '\n')),
        ].join('\n'),
      )
      .join('\n---\n');
  }
  return out;
}

describe('compile errors name the field at fault', () => {
  const found = diagnose();

  it('suggests the field a typo in params meant', () => {
    expect(found.typoInCreate).toMatch(/'resolutionCriterea' does not exist/);
    expect(found.typoInCreate).toMatch(/Did you mean to write 'resolutionCriteria'\?/);
  });

  it('names a missing title, in the branch of the type given, not templateId', () => {
    expect(found.missingTitle).toMatch(/'title' is missing/);
    expect(found.missingTitle).not.toMatch(/templateId/);
  });

  it('names runMode for a run mode that does not exist', () => {
    expect(found.wrongRunMode).toMatch(/'"fast"' is not assignable/);
    expect(found.wrongRunMode).toMatch(/^at: runMode$/m);
  });

  it('names scaleType for a scale that does not exist, and the missing bounds', () => {
    expect(found.wrongScale).toMatch(/'"log"' is not assignable/);
    expect(found.wrongScale).toMatch(/^at: scaleType$/m);
    expect(found.missingBounds).toMatch(/missing the following properties .*: lowerBound, upperBound/);
  });

  it('suggests the field a typo in a read meant', () => {
    expect(found.typoInRead).toMatch(/Property 'titel' does not exist on type '(Binary|MultipleChoice|Numeric|Discrete|Date)?Question'/);
  });

  it('catches a typo inside an inline question', () => {
    expect(found.typoInNested).toMatch(/'visiblity' does not exist/);
  });
});

describe('hovers show the names users write', () => {
  it('shows Question, ForecastTask and Page<Question>, not expanded structures', () => {
    const file = `${root}test/types/__hover.ts`;
    const text = [
      `import { ForecastingClient } from '../../src/index.js';`,
      `declare const client: ForecastingClient;`,
      `export async function f() {`,
      `  const question = await client.questions.retrieve('q');`,
      `  const task = await client.forecasts.retrieve('t');`,
      `  const page = await client.questions.list();`,
      `  return [question, task, page];`,
      `}`,
    ].join('\n');
    const options: ts.CompilerOptions = { strict: true, target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext, moduleResolution: ts.ModuleResolutionKind.Bundler, types: ['node'], skipLibCheck: true };
    const service = ts.createLanguageService({
      getScriptFileNames: () => [file],
      getScriptVersion: () => '1',
      getScriptSnapshot: (name) => {
        const content = name === file ? text : ts.sys.readFile(name);
        return content === undefined ? undefined : ts.ScriptSnapshot.fromString(content);
      },
      getCurrentDirectory: () => root,
      getCompilationSettings: () => options,
      getDefaultLibFileName: (o) => ts.getDefaultLibFilePath(o),
      fileExists: (name) => name === file || ts.sys.fileExists(name),
      readFile: (name) => (name === file ? text : ts.sys.readFile(name)),
    });
    const hover = (word: string) => ts.displayPartsToString(service.getQuickInfoAtPosition(file, text.indexOf(`const ${word}`) + 6)?.displayParts);
    expect(hover('question')).toBe('const question: Question');
    expect(hover('task')).toBe('const task: ForecastTask');
    expect(hover('page')).toBe('const page: Page<Question>');
  });
});
