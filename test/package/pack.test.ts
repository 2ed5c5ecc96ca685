// `npm pack` on a fresh clone builds dist/ first (prepack) and ships the package and nothing else.
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const copy = mkdtempSync(join(tmpdir(), 'forecasting-sdk-pack-'));
afterAll(() => rmSync(copy, { recursive: true, force: true }));

it('builds dist/ when packing a clone that has none, and packs only dist/, README, CHANGELOG and LICENSE', () => {
  // The files a clone has (tracked, or new and not ignored: no dist/), with the installed dependencies.
  const tracked = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: root, encoding: 'utf8' }).split('\0').filter(Boolean);
  for (const file of tracked) if (existsSync(join(root, file))) cpSync(join(root, file), join(copy, file), { recursive: true });
  symlinkSync(join(root, 'node_modules'), join(copy, 'node_modules'), 'dir');
  expect(existsSync(join(copy, 'dist'))).toBe(false);

  const out = execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts=false'], { cwd: copy, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  const files = (JSON.parse(out) as [{ files: { path: string }[] }])[0].files.map((f) => f.path);
  expect(files).toContain('dist/index.js');
  expect(files).toContain('dist/index.cjs');
  expect(files).toContain('dist/index.d.ts');
  expect(files).toContain('dist/openapi.json'); // written by the build, from the operation declarations
  // The forecasting binary and the chunks of its commands.
  expect(files).toContain('dist/cli.js');
  expect(files.some((f) => /^dist\/cli\/questions-\w+\.js$/.test(f))).toBe(true);
  expect(new Set(files.map((f) => (f.startsWith('dist/') ? 'dist/' : f)))).toEqual(
    new Set(['dist/', 'README.md', 'CHANGELOG.md', 'LICENSE', 'package.json']),
  );
  expect(dirname(files.find((f) => f.endsWith('.map'))!)).toBe('dist');
}, 120_000);
