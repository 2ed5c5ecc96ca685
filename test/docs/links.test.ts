// Links between the README and the guides go somewhere: every relative link names a file of the
// repository, and every #fragment a heading of that file (GitHub's anchors).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const DOCS = ['README.md', ...readdirSync(`${root}docs`).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];
/** Guides written on other branches, linked before they land (the question context branch writes docs/context.md). */
const PENDING = new Set(['docs/context.md']);

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens. */
function slug(heading: string): string {
  return heading
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, '')
    .replace(/ /g, '-');
}

function anchorsOf(file: string): Set<string> {
  const text = readFileSync(join(root, file), 'utf8').replace(/^(`{3,}|~{3,})[\s\S]*?^\1\s*$/gm, '');
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  for (const [, heading] of text.matchAll(/^#{1,6}\s+(.+?)\s*$/gm)) {
    const base = slug(heading!);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    anchors.add(n === 0 ? base : `${base}-${n}`);
  }
  return anchors;
}

it('has every relative link of the README and docs/*.md lead to a file, and every #fragment to a heading', () => {
  const broken: string[] = [];
  for (const file of DOCS) {
    const text = readFileSync(join(root, file), 'utf8').replace(/^(`{3,}|~{3,})[\s\S]*?^\1\s*$/gm, '');
    for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
      if (/^[a-z]+:/i.test(target!)) continue; // https:, mailto:
      const [path, fragment] = target!.split('#') as [string, string | undefined];
      const resolved = path === '' ? file : relative(root, normalize(join(root, dirname(file), path)));
      if (PENDING.has(resolved)) continue;
      if (!existsSync(join(root, resolved))) broken.push(`${file}: ${target} (no file ${resolved})`);
      else if (fragment && resolved.endsWith('.md') && !anchorsOf(resolved).has(fragment)) broken.push(`${file}: ${target} (no heading #${fragment})`);
    }
  }
  expect(broken).toEqual([]);
});
