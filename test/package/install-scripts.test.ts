// Every dependency with an install script is reviewed in package.json's `allowScripts` (npm 11.16+
// lists the others after each install and, from npm 12, skips them): esbuild's runs, the rest are
// denied, and scarf's install analytics (which would call out beyond this machine) are off for any npm.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const read = (file: string) => JSON.parse(readFileSync(`${root}${file}`, 'utf8')) as Record<string, unknown>;

it('reviews every install script of the lock in allowScripts, allowing esbuild’s alone', () => {
  const lock = read('package-lock.json') as { packages: Record<string, { hasInstallScript?: boolean }> };
  const withScripts = Object.entries(lock.packages)
    .filter(([, p]) => p.hasInstallScript)
    .map(([path]) => path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length));
  const { allowScripts } = read('package.json') as { allowScripts: Record<string, boolean> };
  expect(Object.keys(allowScripts).sort()).toEqual([...new Set(withScripts)].sort());
  expect(Object.entries(allowScripts).filter(([, allowed]) => allowed).map(([name]) => name)).toEqual(['esbuild']);
});

it('turns scarf’s install analytics off', () => {
  expect(read('package.json')['scarfSettings']).toEqual({ enabled: false });
});
