/**
 * Doc-test harness: the TypeScript examples of a markdown file, type-checked against the built
 * package and, when marked, run. Markers (see test/docs/README.md):
 *
 * - a fence with info string `ts` (or `typescript`) is type-checked;
 * - `ts run` is also run, as an ES module from the repo root, so `forecasting-sdk` resolves to this
 *   package through its `exports`; it must exit 0 within the time limit;
 * - `<!-- doc-test` … `-->` just before a fence (blank lines between are fine) is a preamble,
 *   prepended to the block: imports and stubs (`declare const client: ForecastingClient;`) that a
 *   partial example leaves out. Hidden when the markdown is rendered;
 * - `<!-- doc-test file=<relative path>` … `-->` adds a module the block imports, at that path
 *   relative to the block (type-checking only).
 *
 * Every block of every file goes into one TypeScript program, so checking stays one compile.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import ts from 'typescript';

/** One fenced TypeScript block, with what the markers added to it. */
export interface DocExample {
  /** The markdown file, relative to the root (for messages). */
  file: string;
  /** 1-based line of the block's first code line in the markdown file. */
  line: number;
  /** Run it, or only type-check it. */
  run: boolean;
  code: string;
  /** Code prepended from a `<!-- doc-test` comment, and the 1-based line of its first code line. */
  preamble: { code: string; line: number } | undefined;
  /** Modules from `<!-- doc-test file=…` comments, by path relative to the block. */
  files: { path: string; code: string; line: number }[];
  /** `docs/testing.md:42`, for test names and messages. */
  name: string;
}

const FENCE = /^(\s*)(`{3,}|~{3,})\s*(.*)$/;
const TS_LANGS = new Set(['ts', 'typescript']);

interface Marker {
  attributes: Record<string, string>;
  code: string;
  line: number;
}

/**
 * The TypeScript examples of a markdown text. `file` names it in messages. Blocks of other languages
 * are skipped; markers apply to the fence right after them.
 */
export function extractExamples(markdown: string, file: string): DocExample[] {
  const lines = markdown.split(/\r?\n/);
  const examples: DocExample[] = [];
  let markers: Marker[] = [];
  for (let i = 0; i < lines.length; i++) {
    const text = lines[i]!;
    if (text.trimStart().startsWith('<!-- doc-test')) {
      const attributes = Object.fromEntries(
        [...text.trim().slice('<!-- doc-test'.length).matchAll(/(\w+)=(\S+)/g)].map((m) => [m[1]!, m[2]!.replace(/-->$/, '')]),
      );
      const body: string[] = [];
      const start = i + 2;
      for (i++; i < lines.length && lines[i]!.trim() !== '-->'; i++) body.push(lines[i]!);
      if (i >= lines.length) throw new Error(`${file}:${start - 1}: <!-- doc-test is never closed with a line holding only -->`);
      markers.push({ attributes, code: body.join('\n'), line: start });
      continue;
    }
    const fence = FENCE.exec(text);
    if (!fence) {
      if (text.trim() !== '') markers = [];
      continue;
    }
    const [, indent, marks, info] = fence as unknown as [string, string, string, string];
    const [lang = '', ...flags] = info.trim().split(/\s+/);
    const body: string[] = [];
    const first = i + 2;
    for (i++; i < lines.length; i++) {
      const close = FENCE.exec(lines[i]!);
      if (close && close[2]![0] === marks[0] && close[2]!.length >= marks.length && close[3]!.trim() === '') break;
      // Blocks inside lists are indented like their fence.
      body.push(lines[i]!.startsWith(indent) ? lines[i]!.slice(indent.length) : lines[i]!.trimStart());
    }
    if (TS_LANGS.has(lang.toLowerCase())) {
      const preamble = markers.find((m) => m.attributes['file'] === undefined);
      examples.push({
        file,
        line: first,
        run: flags.includes('run'),
        code: body.join('\n'),
        preamble: preamble && { code: preamble.code, line: preamble.line },
        files: markers.filter((m) => m.attributes['file'] !== undefined).map((m) => ({ path: m.attributes['file']!, code: m.code, line: m.line })),
        name: `${file}:${first}`,
      });
    }
    markers = [];
  }
  return examples;
}

/** Reads `file` (relative to `root`) and extracts its examples. */
export function examplesOf(root: string, file: string): DocExample[] {
  return extractExamples(readFileSync(resolve(root, file), 'utf8'), file);
}

/** The source of an example as compiled and run: preamble, then the block. */
export function sourceOf(example: DocExample): string {
  return example.preamble ? `${example.preamble.code}\n${example.code}` : example.code;
}

/** Where a line of the compiled source comes from in the markdown (both 0-based in, 1-based out). */
function markdownLine(example: DocExample, line: number): number {
  const preambleLines = example.preamble ? example.preamble.code.split('\n').length : 0;
  return line < preambleLines ? example.preamble!.line + line : example.line + line - preambleLines;
}

/** The compiler options examples are checked with: what a user's strict project would have. */
const CHECK_OPTIONS: ts.CompilerOptions = {
  ...ts.convertCompilerOptionsFromJson(
    {
      target: 'ES2022',
      module: 'ESNext',
      moduleResolution: 'Bundler',
      lib: ['ES2023', 'DOM', 'DOM.Iterable'],
      types: ['node'],
      strict: true,
      esModuleInterop: true,
      resolveJsonModule: true,
      skipLibCheck: true,
      noEmit: true,
      // Every example is a module of its own, so their top-level names never collide.
      moduleDetection: 'force',
    },
    '.',
  ).options,
};

/**
 * Type-checks every example in one program, against the built package (`forecasting-sdk` resolves
 * through the root package.json's `exports`). Returns the errors as `file:line:col TSnnnn: message`.
 */
export function typecheckExamples(root: string, examples: readonly DocExample[], stricter: ts.CompilerOptions = {}): string[] {
  const options = { ...CHECK_OPTIONS, ...stricter };
  const virtual = new Map<string, { text: string; where: (line: number) => string }>();
  examples.forEach((example, n) => {
    // Inside the package directory, so the package's name resolves to itself; never written to disk.
    const path = resolve(root, '.doc-examples', example.file.replace(/[^\w.-]+/g, '_'), String(n), 'example.ts');
    virtual.set(path, { text: sourceOf(example), where: (line) => `${example.file}:${markdownLine(example, line)}` });
    for (const extra of example.files) {
      virtual.set(resolve(dirname(path), extra.path), { text: extra.code, where: (line) => `${example.file}:${extra.line + line}` });
    }
  });
  const host = ts.createCompilerHost(options, true);
  const { fileExists, readFile, getSourceFile, directoryExists } = host;
  const virtualDirs = new Set([...virtual.keys()].flatMap((f) => ancestors(f, root)));
  host.fileExists = (f) => virtual.has(resolve(f)) || fileExists.call(host, f);
  host.directoryExists = (d) => virtualDirs.has(resolve(d)) || (directoryExists?.call(host, d) ?? true);
  host.readFile = (f) => virtual.get(resolve(f))?.text ?? readFile.call(host, f);
  host.getSourceFile = (f, language, onError, create) => {
    const own = virtual.get(resolve(f));
    return own ? ts.createSourceFile(f, own.text, language, true) : getSourceFile.call(host, f, language, onError, create);
  };
  host.getCurrentDirectory = () => root;
  const program = ts.createProgram({ rootNames: [...virtual.keys()], options, host });
  return ts.getPreEmitDiagnostics(program).map((d) => {
    const message = ts.flattenDiagnosticMessageText(d.messageText, '\n');
    if (!d.file || d.start === undefined) return `TS${d.code}: ${message}`;
    const { line, character } = d.file.getLineAndCharacterOfPosition(d.start);
    const own = virtual.get(resolve(d.file.fileName));
    const where = own ? own.where(line) : `${relative(root, d.file.fileName)}:${line + 1}`;
    return `${where}:${character + 1} TS${d.code}: ${message}`;
  });
}

/** The directories between `file` and `root`, `root` excluded. */
function ancestors(file: string, root: string): string[] {
  const out: string[] = [];
  for (let dir = dirname(file); dir.length > resolve(root).length; dir = dirname(dir)) out.push(dir);
  return out;
}

/** What a run gave. */
export interface RunResult {
  code: number | null;
  /** Set when the time limit ended it. */
  timedOut: boolean;
  stdout: string;
  stderr: string;
}

/**
 * Runs an example as an ES module with Node, from `root` (so `forecasting-sdk` is this package, as
 * built), after stripping its types, with `env` added to the environment. Ends it after `timeoutMs`.
 */
export function runExample(root: string, example: DocExample, timeoutMs = 30_000, env: Record<string, string> = {}): Promise<RunResult> {
  const js = ts.transpileModule(sourceOf(example), {
    compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022, verbatimModuleSyntax: false },
    fileName: 'example.ts',
  }).outputText;
  return new Promise((done) => {
    execFile(
      process.execPath,
      ['--input-type=module', '-e', js],
      { cwd: root, timeout: timeoutMs, killSignal: 'SIGKILL', env: { ...process.env, NO_COLOR: '1', ...env } },
      (error, stdout, stderr) => {
        const timedOut = Boolean(error && (error as { killed?: boolean }).killed);
        done({ code: error ? ((error as { code?: number }).code ?? null) : 0, timedOut, stdout, stderr });
      },
    );
  });
}
