// publint and arethetypeswrong on the packed tarball, as a registry would receive it. Packed once
// here (dist/ is built by `npm test`'s pretest) and passed to both: attw deletes a tarball it packs itself.
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const root = fileURLToPath(new URL('../..', import.meta.url));
const work = mkdtempSync(join(tmpdir(), 'forecasting-sdk-lint-'));
afterAll(() => rm(work, { recursive: true, force: true }));
const bin = (pkg: string, file: string) => join(root, 'node_modules', pkg, file);

describe('the packed tarball', () => {
  let tarball: string;
  beforeAll(async () => {
    await run('npm', ['pack', '--ignore-scripts', '--pack-destination', work, '--loglevel=error'], { cwd: root });
    tarball = join(work, readdirSync(work).find((f) => f.endsWith('.tgz'))!);
  }, 120_000);

  it('passes publint --strict', async () => {
    const { stdout } = await run(process.execPath, [bin('publint', 'src/cli.js'), 'run', tarball, '--strict'], { cwd: work, encoding: 'utf8' });
    expect(stdout).toContain('All good!');
  }, 60_000);

  it('passes arethetypeswrong under every profile (node10, node16 from CJS and ESM, bundler) for every entry', async () => {
    const result = await run(process.execPath, [bin('@arethetypeswrong/cli', 'dist/index.js'), tarball, '--format', 'json'], { cwd: work, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 }).then(
      ({ stdout }) => ({ stdout, code: 0 }),
      (err: { stdout: string; code: number }) => ({ stdout: err.stdout, code: err.code }),
    );
    const { analysis, problems } = JSON.parse(result.stdout) as { analysis: { entrypoints: Record<string, unknown> }; problems: Record<string, { resolutionKind?: string; kind: string; entrypoint?: string }[]> };
    // node10 (no `exports`) included: each subpath, ./openapi.json too, has its typesVersions path.
    expect(Object.values(problems).flat()).toEqual([]);
    expect(result.code).toBe(0);
    expect(Object.keys(analysis.entrypoints).sort()).toEqual(['.', './openapi.json', './otel', './package.json', './redis', './testing', './testing/msw', './webhooks', './webhooks/express', './webhooks/fetch']);
  }, 120_000);
});
