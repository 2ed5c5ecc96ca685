// The published declarations name no zod (scripts/plain-declarations.ts rewrites them), and each
// rewritten type is the very type the source derives from its schema: a check file asserts, for
// every exported interface built from a schema (`extends z.input<…>` / `z.output<…>` in src/), that
// the source's type and each built one (.d.ts and .d.cts) are identical, and the compiler must agree.
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { afterAll, describe, expect, it } from 'vitest';
import { compilerOptions, plainDeclarations } from '../../scripts/plain-declarations.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const work = mkdtempSync(join(tmpdir(), 'forecasting-sdk-plain-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));
// The fixtures below import zod's types as the built declarations do: from this repository's node_modules.
symlinkSync(join(root, 'node_modules'), join(work, 'node_modules'), 'dir');

// zod's own declarations and the DOM's are not what is under test.
const options: ts.CompilerOptions = { ...compilerOptions, skipLibCheck: true };
const ENTRIES = ['index', 'webhooks/index', 'webhooks/express', 'webhooks/fetch', 'testing/index', 'testing/msw', 'redis/index'];

/** The exported interfaces of an entry of src/ that are built from a zod schema. */
function schemaInterfaces(program: ts.Program, entry: string): string[] {
  const checker = program.getTypeChecker();
  const module = checker.getSymbolAtLocation(program.getSourceFile(join(root, `src/${entry}.ts`))!)!;
  return checker
    .getExportsOfModule(module)
    .filter((symbol) => {
      const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
      return (target.declarations ?? []).some(
        (d) => ts.isInterfaceDeclaration(d) && (d.heritageClauses ?? []).some((c) => c.types.some((t) => /^z\.(input|output)$/.test(t.expression.getText()))),
      );
    })
    .map((s) => s.name)
    .sort();
}

describe('the published declarations', () => {
  it('write every type built from a schema as the same type, with no zod, for ESM and CommonJS', () => {
    const sources = ts.createProgram(ENTRIES.map((e) => join(root, `src/${e}.ts`)), options);
    const lines = ['type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends (<T>() => T extends B ? 1 : 2) ? true : false;', 'type Same<T extends true> = T;'];
    let count = 0;
    ENTRIES.forEach((entry, i) => {
      lines.push(`import type * as S${i} from ${JSON.stringify(join(root, `src/${entry}.js`))};`);
      lines.push(`import type * as M${i} from ${JSON.stringify(join(root, `dist/${entry}.js`))};`);
      lines.push(`import type * as C${i} from ${JSON.stringify(join(root, `dist/${entry}.cjs`))};`);
      for (const name of schemaInterfaces(sources, entry)) {
        lines.push(`export type M${i}_${name} = Same<Equal<S${i}.${name}, M${i}.${name}>>;`, `export type C${i}_${name} = Same<Equal<S${i}.${name}, C${i}.${name}>>;`);
        count++;
      }
    });
    // Every entry's schema types are checked, and there are many (the params and records of 126 operations).
    expect(count).toBeGreaterThan(140);
    const file = join(work, 'same.ts');
    writeFileSync(file, lines.join('\n'));
    const program = ts.createProgram([file], options);
    // Each error names the type that differs: the line of its assertion.
    const source = program.getSourceFile(file)!;
    const errors = ts.getPreEmitDiagnostics(program, source).map((d) =>
      d.start === undefined ? ts.flattenDiagnosticMessageText(d.messageText, '\n') : lines[source.getLineAndCharacterOfPosition(d.start).line],
    );
    expect(errors).toEqual([]);
  }, 240_000);

  it('fail the build on a declaration that names zod in a form the rewrite does not know', () => {
    const dir = mkdtempSync(join(work, 'dist-'));
    writeFileSync(join(dir, 'index.d.ts'), `import * as z from 'zod/mini';\ndeclare const Tag: z.ZodMiniString;\ntype Loose = z.output<typeof Tag>;\nexport type { Loose };\n`);
    expect(() => plainDeclarations(dir)).toThrow(/index\.d\.ts:3: a declaration names zod .*\n.*type Loose/);
  }, 60_000);

  it('rewrite an interface built from a schema as its fields, with their notes, and drop the schema', () => {
    const dir = mkdtempSync(join(work, 'dist-'));
    writeFileSync(
      join(dir, 'index.d.ts'),
      `import * as z from 'zod/mini';
declare const Tag: z.ZodMiniObject<{
    /** The label as written. */
    name: z.ZodMiniString<string>;
    color: z.ZodMiniOptional<z.ZodMiniNullable<z.ZodMiniString<string>>>;
}, z.core.$strip>;
/** A tag. */
interface Tag extends z.output<typeof Tag> {
}
declare const Question: z.ZodMiniObject<{
    tags: z.ZodMiniArray<z.ZodMiniObject<{
        /** The label as written. */
        name: z.ZodMiniString<string>;
        color: z.ZodMiniOptional<z.ZodMiniNullable<z.ZodMiniString<string>>>;
    }, z.core.$strip>>;
}, z.core.$strip>;
interface Question extends z.output<typeof Question> {
}
export { Question, Tag };
`,
    );
    expect(plainDeclarations(dir)).toMatchObject({ interfaces: 2, constants: 2 });
    const text = ts.sys.readFile(join(dir, 'index.d.ts'))!;
    expect(text).toBe(`
/** A tag. */
interface Tag {
    /** The label as written. */
    name: string;
    color?: string | null | undefined;
}
interface Question {
    tags: Tag[];
}
export { Question, Tag };
`);
  }, 60_000);
});
