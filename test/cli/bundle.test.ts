// What the binary loads, read from the built files: `forecasting --help` loads the command table and
// commander only; each command loads its own chunk and, when it runs, only the entry it needs; no
// library entry ever references the CLI's libraries. The libraries are bundled into the CLI's files
// (no package of theirs is installed with the SDK).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, posix } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, ROOT } from './_cli.js';

const DIST = join(ROOT, 'dist');
const CLI_LIBRARIES = ['commander', 'log-update'];

/** The static and dynamic imports of a built ESM file. */
function importsOf(file: string): { static: string[]; dynamic: string[] } {
  const code = readFileSync(file, 'utf8');
  return {
    static: [...code.matchAll(/^import\s+(?:[^'"]*?\s+from\s+)?['"]([^'"]+)['"]/gm)].map((m) => m[1]!),
    dynamic: [...code.matchAll(/\bimport\(\s*['"]([^'"]+)['"]\s*\)/g)].map((m) => m[1]!),
  };
}

/** Every file a file loads before running (static imports, transitively), and the bare packages among them. */
function staticGraph(file: string): { files: Set<string>; packages: Set<string> } {
  const files = new Set<string>();
  const packages = new Set<string>();
  const visit = (f: string) => {
    if (files.has(f)) return;
    files.add(f);
    for (const spec of importsOf(f).static) {
      if (spec.startsWith('.')) visit(posix.normalize(join(dirname(f), spec)));
      else packages.add(spec);
    }
  };
  visit(file);
  return { files, packages };
}

/** The chunk a command's loader points at, e.g. `./cli/questions-XXXX.js`. */
function commandChunk(name: string): string {
  const spec = importsOf(BIN).dynamic.find((s) => new RegExp(`^\\./cli/${name}-[\\w]+\\.js$`).test(s));
  expect(spec, `a dynamic import of the ${name} command`).toBeDefined();
  return join(DIST, spec!);
}

describe('the built binary', () => {
  it('is package.json bin "forecasting": dist/cli.js, executable, with a node shebang', () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { bin: Record<string, string>; files: string[] };
    expect(pkg.bin).toEqual({ forecasting: './dist/cli.js' });
    expect(pkg.files).toContain('dist');
    expect(readFileSync(BIN, 'utf8').startsWith('#!/usr/bin/env node\n')).toBe(true);
    expect(statSync(BIN).mode & 0o111).not.toBe(0);
  });

  it('loads only commander (bundled) and the command table for --help: no SDK, no mock, no log-update', () => {
    const { packages, files } = staticGraph(BIN);
    expect([...packages].filter((p) => !p.startsWith('node:'))).toEqual([]);
    const code = [...files].map((f) => readFileSync(f, 'utf8')).join('\n');
    expect(code).toContain('node_modules/commander/lib/command.js');
    expect(code).not.toMatch(/node_modules\/(log-update|ansi-escapes|wrap-ansi)\//);
    // The command table stays small beside commander's own code.
    const commander = ['index.js', ...readdirSync(join(ROOT, 'node_modules/commander/lib'))].reduce((n, f) => n + statSync(join(ROOT, 'node_modules/commander', f.endsWith('index.js') ? f : `lib/${f}`)).size, 0);
    const size = [...files].reduce((n, f) => n + statSync(f).size, 0);
    expect(size).toBeLessThan(commander + 24 * 1024);
  });

  it('loads for each command only the entry it needs, when it runs', () => {
    const dynamicPackages = (name: string) => {
      const { files, packages } = staticGraph(commandChunk(name));
      // A bundled library's chunk (`./log-update-XXXX.js`) counts as that library.
      const named = (s: string) => /^\.\/(log-update)-\w+\.js$/.exec(s)?.[1] ?? s;
      const dynamic = new Set([...files].flatMap((f) => importsOf(f).dynamic).map(named).filter((s) => !s.startsWith('.')));
      return { static: [...packages].filter((p) => !p.startsWith('node:')).sort(), dynamic: [...dynamic].sort() };
    };
    expect(dynamicPackages('webhooks')).toEqual({ static: [], dynamic: ['forecasting-sdk/webhooks'] });
    expect(dynamicPackages('mock')).toEqual({ static: [], dynamic: ['forecasting-sdk/testing'] });
    expect(dynamicPackages('questions')).toEqual({ static: [], dynamic: ['forecasting-sdk'] });
    // Waiting shows progress: log-update (a chunk of its own), only once a bar is drawn.
    expect(dynamicPackages('wait')).toEqual({ static: [], dynamic: ['forecasting-sdk', 'log-update'] });
    expect(dynamicPackages('forecast')).toEqual({ static: [], dynamic: ['forecasting-sdk', 'log-update'] });
  });

  it('holds no copy of the SDK: the CLI imports the package\'s own entries', () => {
    const cliFiles = readdirSync(join(DIST, 'cli')).filter((f) => f.endsWith('.js'));
    for (const f of cliFiles) expect(readFileSync(join(DIST, 'cli', f), 'utf8')).not.toMatch(/class ForecastingClient|createMockService/);
  });
});

describe('the library entries', () => {
  it('never reference the CLI\'s libraries (commander, log-update) in any file they can load', () => {
    const library = readdirSync(DIST, { recursive: true, encoding: 'utf8' }).filter(
      (f) => /\.(c?js|d\.c?ts)$/.test(f) && f !== 'cli.js' && !f.startsWith(`cli${posix.sep}`) && !f.startsWith('cli/'),
    );
    expect(library.length).toBeGreaterThan(10);
    const offenders = library.filter((f) => CLI_LIBRARIES.some((lib) => new RegExp(`['"]${lib}['"/]`).test(readFileSync(join(DIST, f), 'utf8'))));
    expect(offenders).toEqual([]);
  });
});
