// docs/getting-started.md, followed literally by a new user: what it says about installing and the
// project set-up stays true of this package (its version, its dependencies).
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const guide = readFileSync(`${root}docs/getting-started.md`, 'utf8');
const pkg = JSON.parse(readFileSync(`${root}package.json`, 'utf8')) as { version: string; dependencies: Record<string, string> };

/** Packages `npm i forecasting-sdk` installs besides itself: its dependencies and theirs, from package-lock.json. */
function installedPackages(): number {
  const lock = JSON.parse(readFileSync(`${root}package-lock.json`, 'utf8')) as { packages: Record<string, { dependencies?: Record<string, string>; optionalDependencies?: Record<string, string> }> };
  const seen = new Set<string>();
  const visit = (name: string, from: string) => {
    // Node's resolution: the nearest node_modules/<name> up from the dependant.
    for (let dir = from; ; dir = dir.includes('/node_modules/') ? dir.slice(0, dir.lastIndexOf('/node_modules/')) : '') {
      const key = `${dir ? `${dir}/` : ''}node_modules/${name}`;
      const entry = lock.packages[key];
      if (entry) {
        if (seen.has(key)) return;
        seen.add(key);
        for (const dep of Object.keys({ ...entry.dependencies, ...entry.optionalDependencies })) visit(dep, key);
        return;
      }
      if (!dir) throw new Error(`${name} is not in package-lock.json`);
    }
  };
  for (const dep of Object.keys(pkg.dependencies)) visit(dep, '');
  return seen.size;
}

describe('docs/getting-started.md', () => {
  it('says how to install from a tarball of this version until the package is published', () => {
    expect(guide).toContain('npm pack');
    expect(guide).toContain(`npm i ./forecasting-sdk-${pkg.version}.tgz`);
  });

  it("names exactly package.json's runtime dependencies, and how many packages install", () => {
    const sentence = /It brings (\w+) runtime dependenc[^.]*\.[^.]*\./.exec(guide.replace(/\s+/g, ' '))?.[0] ?? '';
    const names = Object.keys(pkg.dependencies);
    const words = ['none', 'one', 'two', 'three', 'four', 'five'];
    expect(sentence).toContain(`It brings ${words[names.length]} runtime`);
    for (const name of names) expect(sentence).toContain(name);
    expect(sentence).toContain(`${installedPackages()} packages in all`);
  });

  it('has a project set-up: "type": "module", the tsconfig options, and how to run the file', () => {
    const setup = guide.slice(guide.indexOf('### Set up the project'), guide.indexOf('## 2.'));
    expect(setup).toContain('"type": "module"');
    expect(setup).toMatch(/"module": "nodenext"/);
    expect(setup).toContain('node first.mjs');
    expect(setup).toContain('require');
  });

  it('shows the mock\'s export lines and the webhook step against --allow-loopback-receivers', () => {
    expect(guide).toContain('export FORECASTING_API_KEY=');
    expect(guide).toContain('npx forecasting mock --allow-loopback-receivers');
  });
});
