// What `npm i forecasting-sdk --omit=dev` brings: the packed tarball installed into an empty project
// (from the file, so no registry is needed for the package itself), then the packages npm placed and
// the bytes they take on disk. Shared by the install test (test/package/consumer.test.ts) and
// bench/size.mjs.
import { execFile } from 'node:child_process';
import { existsSync, lstatSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/**
 * @param {string} tarball - the packed package (`npm pack`)
 * @param {string} dir - an empty directory, which becomes the project
 * @returns {Promise<{ packages: string[], bytes: number }>} packages: every installed package
 *   (`name@version`, the tarball's own included); bytes: the files of node_modules
 */
export async function installSize(tarball, dir) {
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'install-size', private: true }));
  await run('npm', ['install', tarball, '--omit=dev', '--prefer-offline', '--no-audit', '--no-fund', '--ignore-scripts', '--loglevel=error'], { cwd: dir, encoding: 'utf8' });
  // npm's own record of what it placed, nested copies included.
  const lock = join(dir, 'node_modules', '.package-lock.json');
  const placed = existsSync(lock) ? JSON.parse(readFileSync(lock, 'utf8')).packages : {};
  const packages = Object.entries(placed)
    .filter(([path, info]) => path.startsWith('node_modules/') && !info.link)
    .map(([path, info]) => `${path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length)}@${info.version}`)
    .sort();
  return { packages, bytes: sizeOf(join(dir, 'node_modules')) };
}

/** Bytes of the files under `dir` (symbolic links, such as node_modules/.bin, not followed). */
function sizeOf(dir) {
  let bytes = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) bytes += sizeOf(path);
    else if (entry.isFile()) bytes += lstatSync(path).size;
  }
  return bytes;
}
