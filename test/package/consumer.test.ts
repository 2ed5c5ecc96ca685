// The package as a consumer compiles it: packed (the prepack build), installed into an empty project
// that has only typescript and @types/node (the versions this repository uses), and compiled strictly
// with skipLibCheck: false, so any declaration file that imports a package the consumer does not have
// fails with TS2307. publint and attw do not see that. ./testing/msw is compiled in a second project
// that adds msw, its optional peer. Fixtures: test/package/consumer/. And the tarball alone, installed
// as a user does (`npm i forecasting-sdk --omit=dev`), brings no other package.
import { execFile, spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { rm } from 'node:fs/promises';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { installSize } from '../../bench/lib/install.mjs';

const run = promisify(execFile);
const root = fileURLToPath(new URL('../..', import.meta.url));
const fixtures = join(root, 'test/package/consumer');
const work = mkdtempSync(join(tmpdir(), 'forecasting-sdk-consumer-'));
// Two installed projects: removing them takes a while on a busy machine.
afterAll(() => rm(work, { recursive: true, force: true }), 120_000);

const { devDependencies: dev, version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { devDependencies: Record<string, string>; version: string };
const entries = ['index', 'webhooks/index', 'webhooks/express', 'webhooks/fetch', 'testing/index', 'testing/msw', 'redis/index'];

interface Project {
  dependencies: string[];
  files: string[];
  /** msw's own declarations use DOM types (Node's types lack some), so its users have the DOM lib. */
  lib: string[];
  /** The package's declaration files the compile must have read (both module formats). */
  reads: string[];
}
const projects: Record<'plain' | 'msw', Project> = {
  plain: { dependencies: ['typescript', '@types/node'], files: ['app.mts', 'app.cts'], lib: ['ES2022'], reads: entries.filter((e) => e !== 'testing/msw') },
  msw: { dependencies: ['typescript', '@types/node', 'msw'], files: ['msw.mts', 'msw.cts'], lib: ['ES2022', 'DOM'], reads: ['index', 'testing/index', 'testing/msw'] },
};
const modes = {
  node16: { module: 'node16', moduleResolution: 'node16' },
  bundler: { module: 'preserve', moduleResolution: 'bundler' },
};

/**
 * Errors tsc reports in a third party's own declarations, which no change here can fix: msw 2.15's
 * CommonJS declarations import the ESM-only `rettime` and `type-fest` (TS1479 under module node16).
 */
const theirs = (d: Diagnostic) => d.code === 'TS1479' && /^node_modules[\\/]msw[\\/]/.test(d.file);

/** `npm pack` on a copy of the repository (what a clone has, with its node_modules), so the prepack build runs there, not in this dist/. */
async function pack(): Promise<string> {
  const copy = join(work, 'repo');
  const { stdout } = await run('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: root, encoding: 'utf8' });
  for (const file of stdout.split('\0').filter(Boolean)) if (existsSync(join(root, file))) cpSync(join(root, file), join(copy, file), { recursive: true });
  symlinkSync(join(root, 'node_modules'), join(copy, 'node_modules'), 'dir');
  await run('npm', ['pack', '--pack-destination', work, '--ignore-scripts=false', '--loglevel=error'], { cwd: copy, encoding: 'utf8' });
  const tarball = readdirSync(work).find((f) => f.endsWith('.tgz'));
  if (!tarball) throw new Error(`npm pack wrote no tarball to ${work}`);
  return join(work, tarball);
}

/** An empty project with `dependencies` at this repository's versions and the tarball, installed once; the fixtures and a tsconfig per mode. */
async function install(name: string, project: Project, tarball: string): Promise<string> {
  const dir = join(work, name);
  mkdirSync(dir);
  const dependencies = Object.fromEntries(project.dependencies.map((d) => [d, dev[d]!]));
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: `consumer-${name}`, private: true, type: 'module', dependencies: { ...dependencies, 'forecasting-sdk': `file:${tarball}` } }));
  await run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', '--ignore-scripts', '--loglevel=error'], { cwd: dir, encoding: 'utf8' });
  for (const file of project.files) cpSync(join(fixtures, file), join(dir, file));
  for (const [mode, options] of Object.entries(modes)) {
    const compilerOptions = { ...options, strict: true, skipLibCheck: false, noEmit: true, target: 'ES2022', lib: project.lib, types: ['node'] };
    writeFileSync(join(dir, `tsconfig.${mode}.json`), JSON.stringify({ compilerOptions, files: project.files }, null, 2));
  }
  return dir;
}

interface Diagnostic {
  file: string;
  code: string;
  text: string;
}

/** Runs the project's own tsc: its diagnostics (each with its continuation lines), what else it said, and the files it read (`--listFiles`). */
async function compile(dir: string, mode: string): Promise<{ diagnostics: Diagnostic[]; output: string; exitCode: number; read: string[] }> {
  const tsc = join(dir, 'node_modules/typescript/bin/tsc');
  const { stdout, exitCode } = await run(process.execPath, [tsc, '-p', `tsconfig.${mode}.json`, '--pretty', 'false', '--listFiles'], { cwd: dir, encoding: 'utf8', timeout: 230_000 }).then(
    ({ stdout }) => ({ stdout, exitCode: 0 }),
    (err: { stdout?: string; stderr?: string; code?: number; signal?: string }) => ({
      stdout: `${err.stdout ?? ''}${err.stderr ?? ''}${err.signal ? `\ntsc was stopped (${err.signal})` : ''}`,
      exitCode: err.code ?? 1,
    }),
  );
  const lines = stdout.split('\n').filter(Boolean);
  const listed = (line: string) => line.startsWith(dir) && existsSync(line);
  const read = lines.filter(listed).map((l) => l.slice(dir.length + 1).split(sep).join('/'));
  const said = lines.filter((l) => !listed(l));
  const diagnostics: Diagnostic[] = [];
  for (const line of said) {
    const m = /^(?:(.*)\(\d+,\d+\): )?error (TS\d+):/.exec(line);
    if (m) diagnostics.push({ file: m[1] ?? '', code: m[2]!, text: line });
    else if (diagnostics.length > 0 && /^\s/.test(line)) diagnostics.at(-1)!.text += `\n${line}`;
    else diagnostics.push({ file: '', code: '', text: line }); // anything else tsc says is a failure too
  }
  return { diagnostics, output: said.join('\n'), exitCode, read };
}

describe('a strict consumer of the packed package (skipLibCheck: false)', () => {
  const dirs: Partial<Record<keyof typeof projects, string>> = {};
  let alone: Awaited<ReturnType<typeof installSize>>;
  beforeAll(async () => {
    const tarball = await pack();
    const bare = join(work, 'bare');
    mkdirSync(bare);
    await Promise.all([
      ...Object.entries(projects).map(async ([name, project]) => (dirs[name as keyof typeof projects] = await install(name, project, tarball))),
      installSize(tarball, bare).then((r) => (alone = r)),
    ]);
  }, 240_000);

  it('installs alone with --omit=dev: no dependency (zod is bundled, the CLI bundles commander and log-update), under 7 MB', ({ expect }) => {
    expect(alone.packages.length).toBeLessThanOrEqual(2);
    expect(alone.packages).toEqual([`forecasting-sdk@${version}`]);
    expect(alone.bytes).toBeLessThan(7 * 1024 * 1024);
  });

  it('has only typescript, @types/node and the package installed: no zod, no CLI library, no express types, no msw', ({ expect }) => {
    const has = (pkg: string) => existsSync(join(dirs.plain!, 'node_modules', pkg, 'package.json'));
    expect(['forecasting-sdk', 'typescript', '@types/node'].filter((p) => !has(p))).toEqual([]);
    expect(['zod', 'commander', 'log-update', 'express', '@types/express', '@types/express-serve-static-core', 'msw', 'eventemitter3', 'ky'].filter(has)).toEqual([]);
    const version = (pkg: string) => (JSON.parse(readFileSync(join(dirs.plain!, 'node_modules', pkg, 'package.json'), 'utf8')) as { version: string }).version;
    expect([version('typescript'), version('@types/node')]).toEqual([dev['typescript'], dev['@types/node']]);
  });

  it('runs the forecasting binary as installed (node_modules/.bin, what npx runs): help, and the mock over HTTP', async ({ expect }) => {
    const bin = join(dirs.plain!, 'node_modules', '.bin', 'forecasting');
    const { stdout } = await run(bin, ['--help'], { cwd: dirs.plain!, encoding: 'utf8' });
    expect(stdout).toContain('Usage: forecasting');
    // The mock loads forecasting-sdk/testing through the package's own name, from the installed copy.
    const child = spawn(bin, ['mock', '--json'], { cwd: dirs.plain!, stdio: ['ignore', 'pipe', 'pipe'] });
    const line = await new Promise<string>((resolve, reject) => {
      child.stdout.once('data', (d: Buffer) => resolve(d.toString()));
      child.once('close', (code) => reject(new Error(`forecasting mock exited ${code}`)));
    });
    const { baseURL, apiKey } = JSON.parse(line) as { baseURL: string; apiKey: string };
    const res = await fetch(`${baseURL}/questions`, { headers: { authorization: `Bearer ${apiKey}` } });
    expect(res.status).toBe(200);
    child.kill('SIGTERM');
    expect(await new Promise((resolve) => child.once('close', resolve))).toBe(0);
  });

  const compiles = Object.keys(modes).flatMap((mode) => (Object.keys(projects) as (keyof typeof projects)[]).map((name): [keyof typeof projects, string] => [name, mode]));
  it.concurrent.for(compiles)('compiles the %s consumer, ESM (.mts) and CommonJS (.cts), under moduleResolution %s', { timeout: 240_000 }, async ([name, mode], { expect }) => {
    const { diagnostics, read, output, exitCode } = await compile(dirs[name]!, mode);
    const errors = diagnostics.filter((d) => !theirs(d));
    expect(errors.map((d) => d.text), `tsc -p tsconfig.${mode}.json in the ${name} consumer (exit ${exitCode}):\n${output}`).toEqual([]);
    if (diagnostics.length === 0) expect(exitCode, output).toBe(0);
    // Both module formats resolved: the import condition's .d.ts and the require condition's .d.cts of each entry.
    const wanted = projects[name].reads.flatMap((e) => [`node_modules/forecasting-sdk/dist/${e}.d.ts`, `node_modules/forecasting-sdk/dist/${e}.d.cts`]);
    expect(wanted.filter((f) => !read.includes(f)), `files tsc read:\n${read.join('\n')}`).toEqual([]);
    expect(read.filter((f) => /node_modules\/(@types\/)?express/.test(f))).toEqual([]);
  });
});
