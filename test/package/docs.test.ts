// The API reference must build without a warning: every type in a public signature is exported and documented.
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

it('builds the API reference without warnings', () => {
  const root = fileURLToPath(new URL('../..', import.meta.url));
  const typedoc = join(root, 'node_modules/typedoc/bin/typedoc');
  const out = execFileSync(process.execPath, [typedoc, '--emit', 'none'], { cwd: root, encoding: 'utf8', timeout: 120_000 });
  expect(out).not.toMatch(/warning|error/i);
}, 120_000);
