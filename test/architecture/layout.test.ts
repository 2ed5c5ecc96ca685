// The layout rules of docs/contributing.md, checked on every run so the structure cannot drift:
// small files and functions, the mock apart from the client, a core that knows no operation, and
// no circle among the value imports of src/.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const MAX_FILE_LINES = 400;
const MAX_FUNCTION_LINES = 100;

interface SourceFile {
  /** Path from the repository root, with `/`. */
  path: string;
  text: string;
  ast: ts.SourceFile;
}

function listTs(dir: string): string[] {
  return readdirSync(join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return listTs(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

const files: SourceFile[] = listTs('src').map((path) => {
  const text = readFileSync(join(root, path), 'utf8');
  return { path, text, ast: ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true) };
});
const byPath = new Map(files.map((f) => [f.path, f]));

interface Import {
  /** The imported file, from the repository root; `undefined` for a package. */
  target: string | undefined;
  specifier: string;
  /** `import type` / `export type`, or every named binding marked `type`: erased at build. */
  typeOnly: boolean;
}

function importsOf(file: SourceFile): Import[] {
  const out: Import[] = [];
  const add = (specifier: string, typeOnly: boolean) => {
    const target = specifier.startsWith('.') ? relative(root, resolve(root, dirname(file.path), specifier)).replace(/\.js$/, '.ts') : undefined;
    out.push({ target: target?.split('\\').join('/'), specifier, typeOnly });
  };
  for (const node of file.ast.statements) {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      const clause = node.importClause;
      const named = clause?.namedBindings && ts.isNamedImports(clause.namedBindings) ? clause.namedBindings.elements : undefined;
      const allNamedTypes = !!named && named.length > 0 && !clause?.name && named.every((e) => e.isTypeOnly);
      add(node.moduleSpecifier.text, !!clause?.isTypeOnly || allNamedTypes);
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      const named = node.exportClause && ts.isNamedExports(node.exportClause) ? node.exportClause.elements : undefined;
      add(node.moduleSpecifier.text, node.isTypeOnly || (!!named && named.length > 0 && named.every((e) => e.isTypeOnly)));
    }
  }
  return out;
}

/** The import circles among `scope`: each strongly connected component of more than one file (Tarjan). */
function circlesAmong(scope: SourceFile[], withTypes: boolean): string[][] {
  const edges = new Map(scope.map((f) => [f.path, importsOf(f).filter((i) => (withTypes || !i.typeOnly) && i.target && byPath.has(i.target)).map((i) => i.target!)]));
  // Tarjan's strongly connected components: each component of more than one file is a circle.
  let index = 0;
  const order = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const circles: string[][] = [];
  const connect = (v: string) => {
    order.set(v, index);
    low.set(v, index++);
    stack.push(v);
    onStack.add(v);
    for (const w of edges.get(v) ?? []) {
      if (!order.has(w)) {
        connect(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, order.get(w)!));
    }
    if (low.get(v) === order.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1 || edges.get(v)?.includes(v)) circles.push(component.sort());
    }
  };
  for (const f of scope) if (!order.has(f.path)) connect(f.path);
  return circles;
}

const under = (path: string, folder: string) => path.startsWith(`${folder}/`);

describe('the layout of src/', () => {
  it(`keeps every file within ${MAX_FILE_LINES} lines`, () => {
    const long = files.map((f) => ({ path: f.path, lines: f.text.split('\n').length - (f.text.endsWith('\n') ? 1 : 0) })).filter((f) => f.lines > MAX_FILE_LINES);
    expect(long).toEqual([]);
  });

  it(`keeps every function within ${MAX_FUNCTION_LINES} lines`, () => {
    const long: string[] = [];
    for (const file of files) {
      const visit = (node: ts.Node) => {
        if (ts.isFunctionLike(node) && 'body' in node && node.body) {
          const start = file.ast.getLineAndCharacterOfPosition(node.getStart(file.ast)).line;
          const end = file.ast.getLineAndCharacterOfPosition(node.getEnd()).line;
          if (end - start + 1 > MAX_FUNCTION_LINES) long.push(`${file.path}:${start + 1} (${end - start + 1} lines)`);
        }
        ts.forEachChild(node, visit);
      };
      visit(file.ast);
    }
    expect(long).toEqual([]);
  });

  it('keeps the mock apart from the client: src/testing imports nothing from src/resources', () => {
    const crossing = files
      .filter((f) => under(f.path, 'src/testing'))
      .flatMap((f) => importsOf(f).filter((i) => i.target && under(i.target, 'src/resources')).map((i) => `${f.path} -> ${i.target}`));
    expect(crossing).toEqual([]);
  });

  it('keeps the core to itself: src/core imports only src/core, src/version.ts and packages', () => {
    const outside = files
      .filter((f) => under(f.path, 'src/core'))
      .flatMap((f) =>
        importsOf(f)
          .filter((i) => i.target !== undefined && !under(i.target, 'src/core') && i.target !== 'src/version.ts')
          .map((i) => `${f.path} -> ${i.target}`),
      );
    expect(outside).toEqual([]);
  });

  it("keeps the service out of the core: no route of the spec, no spec error class or code in src/core", () => {
    const routes = new Set(
      readFileSync(join(root, 'spec/operations.tsv'), 'utf8')
        .split('\n')
        .slice(1)
        .map((line) => line.split('\t')[1]?.split('/')[1])
        .filter((segment): segment is string => !!segment),
    );
    expect(routes.size).toBeGreaterThan(5);
    // The spec's own error classes and codes are declared beside the operations, under src/api/.
    const specFiles = files.filter((f) => under(f.path, 'src/api'));
    const classes = specFiles.flatMap((f) => [...f.text.matchAll(/\bclass (\w+Error)\b/g)].map((m) => m[1]!));
    // The codes: every snake_case word in a string of the spec's error tables (`'409 context_not_ready'`).
    const errorFiles = specFiles.filter((f) => /errors?(-\w+)?\.ts$/.test(f.path));
    expect(errorFiles.length).toBeGreaterThan(0);
    const codes = errorFiles.flatMap((f) => [...f.text.matchAll(/['"`][^'"`\n]*?\b([a-z]+(?:_[a-z]+)+)\b/g)].map((m) => m[1]!));
    expect(classes.length).toBeGreaterThan(0);
    const found: string[] = [];
    for (const file of files.filter((f) => under(f.path, 'src/core'))) {
      const visit = (node: ts.Node) => {
        const literal =
          ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node) || ts.isRegularExpressionLiteral(node) || ts.isTemplateHead(node) || ts.isTemplateMiddle(node) || ts.isTemplateTail(node)
            ? node.text
            : undefined;
        if (literal !== undefined) {
          for (const route of routes) if (new RegExp(`/${route.replace(/-/g, '\\-')}(?![\\w-])`).test(literal)) found.push(`${file.path}: route /${route} in ${JSON.stringify(literal)}`);
          for (const code of codes) if (new RegExp(`\\b${code}\\b`).test(literal)) found.push(`${file.path}: code ${code}`);
        }
        if (ts.isIdentifier(node) && classes.includes(node.text)) found.push(`${file.path}: ${node.text}`);
        ts.forEachChild(node, visit);
      };
      visit(file.ast);
    }
    expect([...new Set(found)]).toEqual([]);
  });

  it('has no circle among the value imports of src/', () => {
    expect(circlesAmong(files, false)).toEqual([]);
  });

  it("has no circle at all, type imports included, among the mock's models", () => {
    expect(circlesAmong(files.filter((f) => under(f.path, 'src/testing/models')), true)).toEqual([]);
  });

  it('reads the imports it judges (a check of the checker)', () => {
    const client = byPath.get('src/core/base-client.ts');
    expect(client).toBeDefined();
    expect(importsOf(client!).some((i) => i.target === 'src/core/transport.ts' && !i.typeOnly)).toBe(true);
  });
});
