// Runs every benchmark in bench/, one after another. `npm run bench` builds first.
import { execFileSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const only = process.argv[2];
for (const file of readdirSync(here).filter((f) => f.endsWith('.mjs') && f !== 'run.mjs').sort()) {
  if (only && !file.includes(only)) continue;
  console.log(`\n## ${file}`);
  execFileSync(process.execPath, [join(here, file)], { stdio: 'inherit' });
}
