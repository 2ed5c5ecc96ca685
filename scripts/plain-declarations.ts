/**
 * Makes the published declarations stand without zod. zod is bundled into the runtime (private),
 * and the source derives each public type from its schema (`interface Question extends
 * z.output<typeof Question> {}`): declaration emit keeps that form, so the `.d.ts` files would
 * import zod's types, and users would need zod installed to compile. This rewrites every such
 * interface as the plain interface the schema means (each field with its notes, named types where
 * the file has a name for them), drops the schema constants (no entry exports them at run time),
 * and then compiles the result: a declaration that still names zod, or does not compile, fails the
 * build. test/package/plain-declarations.test.ts proves each rewritten type equals its source.
 */
import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';

const isDeclaration = (f: string) => /\.d\.(c|m)?ts$/.test(f);
const isZod = (specifier: string) => specifier === 'zod' || specifier.startsWith('zod/');

/** How the declarations are read and checked: strictly, as a consumer on Node or a bundler would. */
export const compilerOptions: ts.CompilerOptions = {
  strict: true,
  noEmit: true,
  skipLibCheck: false,
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.Preserve,
  moduleResolution: ts.ModuleResolutionKind.Bundler,
  lib: ['lib.es2023.d.ts', 'lib.dom.d.ts'],
  types: ['node'],
};

interface Edit {
  start: number;
  end: number;
  text: string;
}

/** What was rewritten in `dir`. */
export interface PlainDeclarationsResult {
  /** Declaration files changed. */
  files: string[];
  /** Interfaces written out in full (counted in each file: .d.ts and .d.cts). */
  interfaces: number;
  /** Schema constants dropped. */
  constants: number;
}

/**
 * Rewrites the declaration files under `dir` in place (see the file comment).
 * @param dir - the build's output, e.g. `dist`
 */
export function plainDeclarations(dir: string): PlainDeclarationsResult {
  const files = readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter(isDeclaration).map((f) => join(dir, f));
  const program = ts.createProgram(files, compilerOptions);
  const checker = program.getTypeChecker();
  const result: PlainDeclarationsResult = { files: [], interfaces: 0, constants: 0 };
  const rewritten = new Map<string, string>();
  for (const file of files) {
    const source = program.getSourceFile(file)!;
    const text = rewrite(source, checker, result);
    if (text !== undefined) rewritten.set(file, text);
  }
  for (const [file, text] of rewritten) writeFileSync(file, text);
  result.files = [...rewritten.keys()];
  verify(files);
  return result;
}

/** The file's text without zod, or undefined when it never imported zod. */
function rewrite(source: ts.SourceFile, checker: ts.TypeChecker, result: PlainDeclarationsResult): string | undefined {
  const imports = zodImports(source);
  if (imports.length === 0) return undefined;
  const zod = zodBindings(source);
  const edits = imports.map(removal);

  const printer = new TypePrinter(checker, source, namesOf(source, checker));
  for (const statement of source.statements) {
    if (ts.isImportDeclaration(statement) || !names(statement, zod)) continue;
    const base = ts.isInterfaceDeclaration(statement) ? zodBase(statement, zod) : undefined;
    if (ts.isInterfaceDeclaration(statement) && base) {
      edits.push(plainInterface(statement, base, printer, zod));
      result.interfaces++;
    } else if (ts.isVariableStatement(statement) && statement.declarationList.declarations.every((d) => d.type && names(d.type, zod))) {
      edits.push(removal(statement));
      result.constants++;
    } else {
      const { line } = source.getLineAndCharacterOfPosition(statement.getStart());
      throw new Error(`${source.fileName}:${line + 1}: a declaration names zod in a form plainDeclarations does not rewrite:\n${statement.getText().slice(0, 300)}`);
    }
  }
  let text = source.text;
  for (const edit of edits.sort((a, b) => b.start - a.start)) text = text.slice(0, edit.start) + edit.text + text.slice(edit.end);
  return text;
}

function zodImports(source: ts.SourceFile): ts.ImportDeclaration[] {
  return source.statements.filter((s): s is ts.ImportDeclaration => ts.isImportDeclaration(s) && ts.isStringLiteral(s.moduleSpecifier) && isZod(s.moduleSpecifier.text));
}

/** The local names a file binds to zod's modules (`z` of `import * as z from 'zod/mini'`). */
function zodBindings(source: ts.SourceFile): Set<string> {
  const zod = new Set<string>();
  for (const { importClause } of zodImports(source)) {
    if (importClause?.name) zod.add(importClause.name.text);
    const named = importClause?.namedBindings;
    if (named && ts.isNamespaceImport(named)) zod.add(named.name.text);
    else if (named) for (const element of named.elements) zod.add(element.name.text);
  }
  return zod;
}

/** The statement with its leading comment (its TSDoc) removed. */
function removal(node: ts.Node): Edit {
  return { start: node.getFullStart(), end: node.getEnd(), text: '' };
}

/** Whether `node` refers to one of the zod bindings (`z.input<…>`, `z.ZodMiniObject<…>`, `typeof z.x`). */
function names(node: ts.Node, zod: Set<string>): boolean {
  let found = false;
  const visit = (n: ts.Node): void => {
    if (found) return;
    if (ts.isQualifiedName(n) || ts.isPropertyAccessExpression(n)) {
      let left: ts.Node = n;
      while (ts.isQualifiedName(left) || ts.isPropertyAccessExpression(left)) left = ts.isQualifiedName(left) ? left.left : left.expression;
      if (ts.isIdentifier(left) && zod.has(left.text)) found = true;
    } else if ((ts.isTypeReferenceNode(n) && ts.isIdentifier(n.typeName)) || (ts.isExpressionWithTypeArguments(n) && ts.isIdentifier(n.expression))) {
      const name = ts.isTypeReferenceNode(n) ? (n.typeName as ts.Identifier) : (n.expression as ts.Identifier);
      if (zod.has(name.text)) found = true;
    }
    ts.forEachChild(n, visit);
  };
  visit(node);
  return found;
}

/** The `z.input<typeof X>` / `z.output<typeof X>` an interface extends, if any. */
function zodBase(node: ts.InterfaceDeclaration, zod: Set<string>): ts.ExpressionWithTypeArguments | undefined {
  return node.heritageClauses?.flatMap((c) => [...c.types]).find((t) => names(t.expression, zod));
}

function plainInterface(node: ts.InterfaceDeclaration, base: ts.ExpressionWithTypeArguments, printer: TypePrinter, zod: Set<string>): Edit {
  const others = node.heritageClauses!.flatMap((c) => [...c.types]).filter((t) => t !== base);
  if (others.some((t) => names(t, zod))) throw new Error(`${node.name.text} extends zod twice`);
  const own = new Set(node.members.map((m) => m.name?.getText()).filter((n): n is string => n !== undefined));
  const body = printer.members(printer.checker.getTypeAtLocation(base), 1, own);
  const kept = node.members.map((m) => `    ${m.getText()}\n`).join('');
  const heritage = others.length > 0 ? ` extends ${others.map((t) => t.getText()).join(', ')}` : '';
  const start = node.heritageClauses!.pos;
  return { start, end: node.getEnd(), text: `${heritage} {\n${body}${kept}}` };
}

/**
 * The names this file has for types a field may have, declared here or imported: each interface
 * built from a schema (by the schema's type), and each type alias of a literal union
 * (`TaskStatus`). A union two aliases share is left unnamed.
 */
function namesOf(source: ts.SourceFile, checker: ts.TypeChecker): { types: Map<ts.Type, string>; schemas: [ts.Type, string][] } {
  const found = new Map<ts.Type, string | null>();
  const schemas: [ts.Type, string][] = [];
  const add = (declaration: ts.Declaration, name: string) => {
    let type: ts.Type | undefined;
    if (ts.isInterfaceDeclaration(declaration)) {
      const base = zodBase(declaration, zodBindings(declaration.getSourceFile()));
      type = base && checker.getTypeAtLocation(base);
      if (type) schemas.push([type, name]);
    } else if (ts.isTypeAliasDeclaration(declaration)) {
      const alias = checker.getTypeAtLocation(declaration.name);
      if (alias.isUnion() && alias.types.every((t) => t.isLiteral() || t.flags & ts.TypeFlags.BooleanLiteral)) type = alias;
    }
    if (!type) return;
    const had = found.get(type);
    found.set(type, had === undefined || had === name ? name : null);
  };
  for (const statement of source.statements) {
    if (ts.isInterfaceDeclaration(statement) || ts.isTypeAliasDeclaration(statement)) add(statement, statement.name.text);
    if (ts.isImportDeclaration(statement) && statement.importClause?.namedBindings && ts.isNamedImports(statement.importClause.namedBindings)) {
      for (const element of statement.importClause.namedBindings.elements) {
        const symbol = checker.getSymbolAtLocation(element.name);
        const target = symbol && symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
        for (const declaration of target?.declarations ?? []) add(declaration, element.name.text);
      }
    }
  }
  return { types: new Map([...found].filter((e): e is [ts.Type, string] => e[1] !== null)), schemas };
}

/**
 * Prints a type the way it would be written by hand: named types by their name in this file, other
 * objects in full with their fields' notes. A nested schema's object, which declaration emit has
 * spelled out again, is found by its shape: it prints as the interface of that schema, when only
 * one has that shape.
 */
class TypePrinter {
  /** The interfaces built from schemas, by the shape of their objects (printed without notes). */
  private readonly shapes = new Map<string, string | null>();
  private readonly bare: TypePrinter | undefined;

  constructor(
    readonly checker: ts.TypeChecker,
    private readonly source: ts.SourceFile,
    private readonly named: { types: Map<ts.Type, string>; schemas: [ts.Type, string][] },
    private readonly notes = true,
  ) {
    if (!notes) return;
    this.bare = new TypePrinter(checker, source, named, false);
    for (const [type, name] of named.schemas) {
      let shape: string;
      try {
        shape = this.bare.members(type, 0, new Set());
      } catch {
        continue; // a schema of another file whose fields this file cannot name: no field here has its shape then
      }
      const had = this.shapes.get(shape);
      this.shapes.set(shape, had === undefined || had === name ? name : null);
    }
  }

  type(type: ts.Type, depth: number): string {
    const name = this.named.types.get(type);
    if (name) return name;
    if (type.isUnion()) return this.union(type, depth);
    if (this.checker.isArrayType(type)) {
      const element = this.checker.getTypeArguments(type as ts.TypeReference)[0]!;
      const printed = this.type(element, depth);
      const readonly = type.getSymbol()?.name === 'ReadonlyArray' ? 'readonly ' : '';
      return `${readonly}${(element.isUnion() || element.isIntersection() || this.isFunction(element)) && !/^[\w$]+$/.test(printed) ? `(${printed})` : printed}[]`;
    }
    if (this.checker.isTupleType(type)) {
      const target = (type as ts.TupleTypeReference).target;
      const elements = this.checker.getTypeArguments(type as ts.TypeReference).map((t, i) => {
        const flags = target.elementFlags[i]!;
        if (flags & ts.ElementFlags.Rest) return `...${this.type(t, depth)}[]`;
        return `${this.type(t, depth)}${flags & ts.ElementFlags.Optional ? '?' : ''}`;
      });
      return `${target.readonly ? 'readonly ' : ''}[${elements.join(', ')}]`;
    }
    if (type.isIntersection() && fromZod(type.aliasSymbol)) return type.types.map((t) => this.type(t, depth)).join(' & ');
    if (this.isObjectLiteral(type)) {
      const schema = this.bare && this.shapes.get(this.bare.members(type, 0, new Set()));
      return schema ?? `{\n${this.members(type, depth + 1, new Set())}${'    '.repeat(depth)}}`;
    }
    // TypeScript 5.7 prints a byte array with its default buffer type (`Uint8Array<ArrayBufferLike>`),
    // which compilers before 5.7 refuse (TS2315); the bare name is the same type on either.
    const printed = this.checker.typeToString(type, this.source, ts.TypeFormatFlags.NoTruncation | ts.TypeFormatFlags.UseFullyQualifiedType).replace(/\b(Uint8Array|Buffer)<ArrayBufferLike>/g, '$1');
    // `import("./chunk.js").X` names a type of the package's own files; anything of zod's is a miss.
    if (/\bimport\(["'][^.]|\$Zod|\bZod[A-Z]|\$strip|\$strict/.test(printed)) throw new Error(`A field's type has no plain form in ${this.source.fileName}: ${printed}`);
    return printed;
  }

  /** The members of an object type, one per line with their notes, indented `depth` levels; `skip` names members the interface declares itself. */
  members(type: ts.Type, depth: number, skip: Set<string>): string {
    const indent = '    '.repeat(depth);
    let out = '';
    for (const info of this.checker.getIndexInfosOfType(type)) {
      out += `${indent}${info.isReadonly ? 'readonly ' : ''}[key: ${this.checker.typeToString(info.keyType)}]: ${this.type(info.type, depth)};\n`;
    }
    for (const property of this.checker.getPropertiesOfType(type)) {
      if (skip.has(property.name)) continue;
      const declaration = property.declarations?.[0];
      const optional = property.flags & ts.SymbolFlags.Optional ? '?' : '';
      const readonly = declaration && ts.getCombinedModifierFlags(declaration) & ts.ModifierFlags.Readonly ? 'readonly ' : '';
      const key = /^[A-Za-z_$][\w$]*$/.test(property.name) ? property.name : JSON.stringify(property.name);
      out += `${this.notes ? docOf(declaration, indent) : ''}${indent}${readonly}${key}${optional}: ${this.type(this.checker.getTypeOfSymbol(property), depth)};\n`;
    }
    return out;
  }

  private union(type: ts.UnionType, depth: number): string {
    // An enum's literals may be a named part of a larger union (`TaskStatus | null`).
    const named = this.namedPart(type);
    const parts = named ? [named.name] : [];
    const members = named ? type.types.filter((t) => !named.covers.has(t)) : type.types;
    const isBoolean = (t: ts.Type, value: string) => Boolean(t.flags & ts.TypeFlags.BooleanLiteral) && this.checker.typeToString(t) === value;
    const boolean = members.some((t) => isBoolean(t, 'true')) && members.some((t) => isBoolean(t, 'false'));
    const nullish: string[] = [];
    for (const t of members) {
      if (boolean && t.flags & ts.TypeFlags.BooleanLiteral) {
        if (!parts.includes('boolean')) parts.push('boolean');
      } else if (t.flags & ts.TypeFlags.Null) nullish.unshift('null');
      else if (t.flags & ts.TypeFlags.Undefined) nullish.push('undefined');
      else {
        const printed = this.type(t, depth);
        parts.push(t.isIntersection() || this.isFunction(t) ? `(${printed})` : printed);
      }
    }
    return [...parts, ...nullish].join(' | ');
  }

  /** A named literal union all of whose members are in `type` (`TaskStatus` in `TaskStatus | null`). */
  private namedPart(type: ts.UnionType): { name: string; covers: Set<ts.Type> } | undefined {
    let best: { name: string; covers: Set<ts.Type> } | undefined;
    for (const [candidate, name] of this.named.types) {
      if (!candidate.isUnion() || candidate === type) continue;
      if (candidate.types.every((t) => type.types.includes(t)) && (!best || candidate.types.length > best.covers.size)) best = { name, covers: new Set(candidate.types) };
    }
    return best;
  }

  private isFunction(type: ts.Type): boolean {
    return this.checker.getSignaturesOfType(type, ts.SignatureKind.Call).length > 0;
  }

  /** An object type written in place (a schema's, or an anonymous one), not a named interface, class or function. */
  private isObjectLiteral(type: ts.Type): boolean {
    if (!(type.flags & ts.TypeFlags.Object) || this.isFunction(type)) return false;
    if (type.aliasSymbol) return fromZod(type.aliasSymbol);
    const flags = (type as ts.ObjectType).objectFlags;
    return Boolean(flags & (ts.ObjectFlags.Anonymous | ts.ObjectFlags.Mapped)) || fromZod(type.getSymbol());
  }
}

function fromZod(symbol: ts.Symbol | undefined): boolean {
  return Boolean(symbol?.declarations?.some((d) => /[\\/]node_modules[\\/]zod[\\/]/.test(d.getSourceFile().fileName)));
}

/** The TSDoc comment written above a declaration, indented for its new place ('' if none). */
function docOf(declaration: ts.Declaration | undefined, indent: string): string {
  if (!declaration) return '';
  const source = declaration.getSourceFile();
  const ranges = ts.getLeadingCommentRanges(source.text, declaration.getFullStart()) ?? [];
  const doc = ranges.filter((r) => source.text.startsWith('/**', r.pos)).at(-1);
  if (!doc) return '';
  const lines = source.text.slice(doc.pos, doc.end).split('\n').map((l, i) => (i === 0 ? l.trim() : ` ${l.trim()}`));
  return lines.map((l) => `${indent}${l}\n`).join('');
}

/** Whether a file imports zod in any form (`import … from`, `import 'zod'`, `import("zod").X`). */
function namesZodModule(source: ts.SourceFile): boolean {
  let found = zodImports(source).length > 0;
  const visit = (n: ts.Node): void => {
    if (ts.isImportTypeNode(n) && ts.isLiteralTypeNode(n.argument) && ts.isStringLiteral(n.argument.literal) && isZod(n.argument.literal.text)) found = true;
    if (!found) ts.forEachChild(n, visit);
  };
  visit(source);
  return found;
}

/** Compiles the rewritten files: any error, or any import of zod left, fails the build. */
function verify(files: string[]): void {
  const program = ts.createProgram(files, compilerOptions);
  const problems: string[] = [];
  for (const file of files) {
    const source = program.getSourceFile(file)!;
    const diagnostics = [...program.getSyntacticDiagnostics(source), ...program.getSemanticDiagnostics(source)];
    for (const d of diagnostics) {
      const where = d.start === undefined ? '' : `:${source.getLineAndCharacterOfPosition(d.start).line + 1}`;
      problems.push(`${file}${where}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`);
    }
    if (namesZodModule(source)) problems.push(`${file}: still imports zod`);
  }
  if (problems.length > 0) throw new Error(`The plain declarations do not compile:\n${problems.slice(0, 30).join('\n')}`);
}
