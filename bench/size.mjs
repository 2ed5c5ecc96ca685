// Bundle size and cold import time of forecasting-sdk against openai-node, measured in the same run.
// Sizes: each package bundled with its dependencies, minified, gzipped. Import time: median of fresh
// Node processes importing the package and constructing a client.
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleSize } from './lib/bundle.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const openaiEntry = join(dirname(require.resolve('openai')), 'index.mjs');
const RUNS = Number(process.env.BENCH_RUNS ?? 15);

const subjects = {
  'forecasting-sdk (a client)': {
    bundle: `import { ForecastingClient } from ${JSON.stringify(join(root, 'dist/index.js'))}; export const c = new ForecastingClient({ apiKey: 'k', baseURL: 'https://a.example' });`,
    load: `const m = await import(${JSON.stringify(join(root, 'dist/index.js'))}); new m.ForecastingClient({ apiKey: 'pre_x', baseURL: 'https://a.example/api/v1/external' });`,
  },
  'forecasting-sdk (every root export)': {
    bundle: `export * from ${JSON.stringify(join(root, 'dist/index.js'))};`,
    load: `await import(${JSON.stringify(join(root, 'dist/index.js'))});`,
  },
  'forecasting-sdk/webhooks': {
    bundle: `export * from ${JSON.stringify(join(root, 'dist/webhooks/index.js'))};`,
    load: `await import(${JSON.stringify(join(root, 'dist/webhooks/index.js'))});`,
  },
  'openai-node (a client)': {
    bundle: `import OpenAI from ${JSON.stringify(openaiEntry)}; export const c = new OpenAI({ apiKey: 'sk-x' });`,
    load: `const m = await import(${JSON.stringify(openaiEntry)}); new m.default({ apiKey: 'sk-x' });`,
  },
};

function importMs(load) {
  const script = `const t = performance.now(); ${load} console.log(performance.now() - t);`;
  const times = [];
  for (let i = 0; i < RUNS; i++) {
    times.push(Number(execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' })));
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)];
}

const rows = [];
for (const [name, s] of Object.entries(subjects)) {
  const { gzip, bytes } = await bundleSize(s.bundle, root);
  rows.push({ name, minified: bytes, gzip, importMs: importMs(s.load) });
}
const base = rows.find((r) => r.name.startsWith('openai-node'));
console.log(`\nBundle size and import time (median of ${RUNS} cold imports), ratio against openai-node:\n`);
console.log('| package | minified | gzip | gzip ratio | import ms | import ratio |');
console.log('| --- | ---: | ---: | ---: | ---: | ---: |');
for (const r of rows) {
  console.log(`| ${r.name} | ${(r.minified / 1024).toFixed(1)} KB | ${(r.gzip / 1024).toFixed(1)} KB | ${(r.gzip / base.gzip).toFixed(2)}× | ${r.importMs.toFixed(1)} | ${(r.importMs / base.importMs).toFixed(2)}× |`);
}
console.log('\nBudgets: a client < 30 KB gzip, forecasting-sdk/webhooks < 3 KB gzip (test/package/size.test.ts).');
