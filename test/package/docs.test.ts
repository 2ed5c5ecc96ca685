// The API reference must build without a warning: every type in a public signature is exported and
// documented. And every exported symbol of every entry (classes, functions, interfaces, type
// aliases, variables) has a TSDoc comment with an `@example`, read from typedoc's JSON output.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const out = mkdtempSync(join(tmpdir(), 'forecasting-sdk-typedoc-'));
afterAll(() => rmSync(out, { recursive: true, force: true }));

interface CommentPart {
  text: string;
}
interface Comment {
  summary?: CommentPart[];
  blockTags?: { tag: string }[];
}
interface Reflection {
  name: string;
  kind: number;
  comment?: Comment;
  signatures?: { comment?: Comment }[];
  children?: Reflection[];
}

/** typedoc's ReflectionKind values of what an entry exports (a re-export of another entry's symbol is a Reference, 4194304). */
const KINDS: Record<number, string> = { 128: 'class', 64: 'function', 256: 'interface', 2097152: 'type alias', 32: 'variable' };

describe('the API reference', () => {
  let output = '';
  let project: Reflection;
  beforeAll(() => {
    // One typedoc run: the HTML goes to a temporary folder (not docs/api), the JSON beside it.
    const typedoc = join(root, 'node_modules/typedoc/bin/typedoc');
    output = execFileSync(process.execPath, [typedoc, '--out', join(out, 'html'), '--json', join(out, 'api.json')], { cwd: root, encoding: 'utf8', timeout: 180_000 });
    project = JSON.parse(readFileSync(join(out, 'api.json'), 'utf8')) as Reflection;
  }, 200_000);

  it('builds without warnings', () => {
    expect(output).not.toMatch(/warning|error/i);
  });

  it('gives every exported symbol of every entry a TSDoc comment with an @example', () => {
    const text = (c: Comment | undefined) => (c?.summary ?? []).map((p) => p.text).join('').trim();
    const hasExample = (c: Comment | undefined) => (c?.blockTags ?? []).some((t) => t.tag === '@example');
    const entries = project.children ?? [];
    expect(entries.map((e) => e.name).sort()).toEqual(['index', 'testing', 'testing/msw', 'webhooks', 'webhooks/express', 'webhooks/fetch']);
    const symbols = entries.flatMap((entry) => (entry.children ?? []).filter((r) => KINDS[r.kind]).map((r) => ({ entry: entry.name, r })));
    expect(symbols.length).toBeGreaterThan(200);
    const gaps = symbols.flatMap(({ entry, r }) => {
      // A function's comment sits on its signature.
      const comment = r.kind === 64 ? r.signatures?.[0]?.comment : r.comment;
      const missing = [!text(comment) && 'a comment', !hasExample(comment) && 'an @example'].filter(Boolean);
      return missing.length > 0 ? [`${entry}: ${KINDS[r.kind]} ${r.name} lacks ${missing.join(' and ')}`] : [];
    });
    expect(gaps).toEqual([]);
  });
});
