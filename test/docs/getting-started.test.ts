// docs/getting-started.md, followed literally by a new user: what it says about installing and the
// project set-up stays true of this package (its version, what it installs).
import { readFileSync } from 'node:fs';
import { Script } from 'node:vm';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const guide = readFileSync(`${root}docs/getting-started.md`, 'utf8');
const pkg = JSON.parse(readFileSync(`${root}package.json`, 'utf8')) as { version: string; dependencies?: Record<string, string> };

describe('docs/getting-started.md', () => {
  it('says how to install from a tarball of this version until the package is published', () => {
    expect(guide).toContain('npm pack');
    expect(guide).toContain(`npm i ./forecasting-sdk-${pkg.version}.tgz`);
  });

  it('says what installing brings, as package.json declares it: this one package, no dependencies', () => {
    const text = guide.replace(/\s+/g, ' ');
    // The sentence and the manifest must change together: a runtime dependency added later fails here.
    expect(Object.keys(pkg.dependencies ?? {})).toEqual([]);
    expect(text).toContain('It installs as this one package, with no dependencies');
  });

  // "every example of this guide but one is plain JavaScript": a newcomer saved the local webhook
  // receiver as .mjs and met `const chunks: Buffer[]`.
  it('holds only TypeScript blocks that are plain JavaScript too, but the route handler of step 4', () => {
    const blocks = [...guide.matchAll(/```ts[^\n]*\n([\s\S]*?)```/g)].map((m) => m[1]!);
    // Parsed as the body of an async function: imports and exports out, top-level await allowed.
    const parses = (code: string) => {
      try {
        new Script(`(async () => {\n${code.replace(/^import .*$/gm, '').replace(/^export /gm, '')}\n})`);
        return true;
      } catch {
        return false;
      }
    };
    const typed = blocks.filter((b) => !parses(b));
    expect(blocks.length).toBeGreaterThan(3);
    expect(typed).toHaveLength(1);
    expect(typed[0]).toContain('export async function POST(request: Request): Promise<Response>');
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
