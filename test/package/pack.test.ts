// `npm pack` on a fresh clone builds dist/ first (prepack) and ships the package and nothing else: the
// build, the guides and examples the README links to, and source maps only for the runtime files of
// the client and the webhook entries, with the src/ files they map to.
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, posix } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const copy = mkdtempSync(join(tmpdir(), 'forecasting-sdk-pack-'));
afterAll(() => rmSync(copy, { recursive: true, force: true }));

it('builds dist/ when packing a clone that has none, and packs only dist/, the guides, the examples, README, CHANGELOG and LICENSE', () => {
  // The files a clone has (tracked, or new and not ignored: no dist/), with the installed dependencies.
  const tracked = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: root, encoding: 'utf8' }).split('\0').filter(Boolean);
  for (const file of tracked) if (existsSync(join(root, file))) cpSync(join(root, file), join(copy, file), { recursive: true });
  symlinkSync(join(root, 'node_modules'), join(copy, 'node_modules'), 'dir');
  expect(existsSync(join(copy, 'dist'))).toBe(false);
  // What running an example's tests leaves in a working copy (vitest's cache) is never packed.
  mkdirSync(join(copy, 'examples/vitest/node_modules/.vite/vitest'), { recursive: true });
  writeFileSync(join(copy, 'examples/vitest/node_modules/.vite/vitest/results.json'), '{}');

  const out = execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts=false'], { cwd: copy, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  const files = (JSON.parse(out) as [{ files: { path: string }[] }])[0].files.map((f) => f.path);
  expect(files).toContain('dist/index.js');
  expect(files).toContain('dist/index.cjs');
  expect(files).toContain('dist/index.d.ts');
  expect(files).toContain('dist/openapi.json'); // written by the build, from the operation declarations
  // The forecasting binary and the chunks of its commands.
  expect(files).toContain('dist/cli.js');
  expect(files.some((f) => /^dist\/cli\/questions-\w+\.js$/.test(f))).toBe(true);
  expect(files.filter((f) => f.includes('node_modules/'))).toEqual([]);
  const folder = (f: string) => /^(dist|docs|examples)\//.exec(f)?.[0] ?? f;
  expect(new Set(files.map(folder))).toEqual(new Set(['dist/', 'docs/', 'examples/', 'README.md', 'CHANGELOG.md', 'LICENSE', 'package.json']));
  // The user guides, not the contributors' one, and never the generated API reference.
  // The guides, and the console's screenshots docs/console.md shows.
  expect(files.filter((f) => f.startsWith('docs/')).every((f) => /^docs\/([\w-]+\.md|console\/[\w-]+\.png)$/.test(f))).toBe(true);
  expect(files).toContain('docs/getting-started.md');
  expect(files).not.toContain('docs/contributing.md');
  // Source maps for the files the client and the webhook entries run, in both formats; none for the mock or the CLI.
  const maps = files.filter((f) => f.endsWith('.map'));
  expect(maps).toEqual(expect.arrayContaining(['dist/index.js.map', 'dist/index.cjs.map', 'dist/webhooks/index.js.map', 'dist/webhooks/fetch.cjs.map']));
  expect(maps.filter((f) => /^dist\/(testing|cli)\b/.test(f))).toEqual([]);
  expect(maps.every((m) => files.includes(m.slice(0, -'.map'.length)))).toBe(true);
  const unmapped = files.filter((f) => /\.c?js$/.test(f) && !maps.includes(`${f}.map`));
  expect(unmapped.filter((f) => readFileSync(join(copy, f), 'utf8').includes('sourceMappingURL'))).toEqual([]);
  // The maps point at the text of src/ in full, shipped once under dist/src/ (not copied into each
  // map); a bundled library's lines are mapped, its text left to its own package.
  const sources = maps.flatMap((m) => {
    const map = JSON.parse(readFileSync(join(copy, m), 'utf8')) as { sources: string[]; sourcesContent?: unknown };
    expect(map.sourcesContent, m).toBeUndefined();
    return map.sources.map((source) => posix.normalize(posix.join(posix.dirname(m), source)));
  });
  expect(sources.filter((s) => s.includes('node_modules/zod/')).length).toBeGreaterThan(0);
  const ours = [...new Set(sources.filter((s) => !s.includes('node_modules/')))];
  expect(ours.length).toBeGreaterThan(100);
  expect(ours.filter((s) => !s.startsWith('dist/src/') || !files.includes(s))).toEqual([]);
  expect(ours.filter((s) => readFileSync(join(copy, s), 'utf8') !== readFileSync(join(root, s.slice('dist/'.length)), 'utf8'))).toEqual([]);
  // Only those: no file of src/ that no map names (the mock's, the CLI's).
  expect(files.filter((f) => f.startsWith('dist/src/') && !ours.includes(f))).toEqual([]);

  // Every relative link of the shipped Markdown leads to a shipped file: the README and the guides work
  // from node_modules/forecasting-sdk/ (and on the npm page) with no repository to resolve against.
  const broken: string[] = [];
  for (const doc of files.filter((f) => f.endsWith('.md'))) {
    const text = readFileSync(join(copy, doc), 'utf8').replace(/^(`{3,}|~{3,})[\s\S]*?^\1\s*$/gm, '');
    for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
      if (/^[a-z]+:/i.test(target!) || target!.startsWith('#')) continue;
      const path = posix.normalize(posix.join(posix.dirname(doc), target!.split('#')[0]!));
      if (!files.includes(path) && !files.some((f) => f.startsWith(`${path.replace(/\/$/, '')}/`))) broken.push(`${doc}: ${target}`);
    }
  }
  expect(broken).toEqual([]);
}, 120_000);
