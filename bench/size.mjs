// Bundle size, install size and cold import time of forecasting-sdk against openai-node, measured in
// the same run. Sizes: an application importing the client and constructing it, bundled with its
// dependencies by esbuild (code splitting on, as application bundlers do), minified, gzip -9. The
// complete client (every chunk, as issue 29 measures it) comes first, then what loads at start;
// chunks loaded on demand (zod and the params schemas, with the first
// call that checks params; the record schemas, for `validateResponses`) are shown apart, with what a
// client has loaded once a call has checked params. Install: the packed package installed as
// `npm i forecasting-sdk --omit=dev` into an empty project (`npm run bench` builds first). Import
// time: median of fresh Node processes importing the package and constructing a client.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleSize, clientSizes } from './lib/bundle.mjs';
import { installSize } from './lib/install.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const openaiEntry = join(dirname(require.resolve('openai')), 'index.mjs');
const RUNS = Number(process.env.BENCH_RUNS ?? 15);
const SPEC_OPERATIONS = readFileSync(join(root, 'spec/operations.tsv'), 'utf8').trim().split('\n').length - 1;

function importMs(load) {
  const script = `const t = performance.now(); ${load} console.log(performance.now() - t);`;
  const times = [];
  for (let i = 0; i < RUNS; i++) times.push(Number(execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' })));
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)];
}
const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;
const mb = (bytes) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

/** The package packed from this build and installed alone, with what it unpacks to. */
async function install() {
  const work = mkdtempSync(join(tmpdir(), 'forecasting-sdk-install-'));
  try {
    execFileSync('npm', ['pack', '--ignore-scripts', '--pack-destination', work, '--loglevel=error'], { cwd: root, stdio: 'ignore' });
    const tarball = join(work, readdirSync(work).find((f) => f.endsWith('.tgz')));
    const project = join(work, 'app');
    mkdirSync(project);
    const { packages, bytes } = await installSize(tarball, project);
    const files = readdirSync(join(project, 'node_modules/forecasting-sdk'), { recursive: true, withFileTypes: true }).filter((e) => e.isFile());
    const maps = files.filter((e) => e.name.endsWith('.map')).reduce((n, e) => n + statSync(join(e.parentPath, e.name)).size, 0);
    return { packages, bytes, maps, tarball: readFileSync(tarball).length };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

const sizes = await clientSizes(root, SPEC_OPERATIONS);
const webhooks = await bundleSize(`export * from ${JSON.stringify(join(root, 'dist/webhooks/index.js'))};`, root);
const ours = importMs(`const m = await import(${JSON.stringify(join(root, 'dist/index.js'))}); new m.ForecastingClient({ apiKey: 'pre_x', baseURL: 'https://a.example/api/v1/external' });`);
const openai = importMs(`const m = await import(${JSON.stringify(openaiEntry)}); new m.default({ apiKey: 'sk-x' });`);
const installed = await install();

console.log(`\nThe complete client, bundled as an app ships it (gzip -9), against openai-node, same run:\n`);
console.log('| what | gzip | ratio to openai-node |');
console.log('| --- | ---: | ---: |');
const row = (name, bytes) => console.log(`| ${name} | ${kb(bytes)} | ${(bytes / sizes.openai.gzip).toFixed(2)}× |`);
row(`forecasting-sdk complete client: every chunk it pulls in, at start or on demand (issue 29's measure, budget 1.25×)`, sizes.client.completeGzip);
row(`forecasting-sdk client, ${sizes.declared} operations (at start)`, sizes.client.gzip);
console.log(`| … loaded on demand (zod and the schemas; the coordination and tracing code) | ${kb(sizes.client.lazyGzip)} | |`);
row('… once a call has checked params (zod and the params schemas loaded)', sizes.checked);
row(`forecasting-sdk client, projected at ${SPEC_OPERATIONS} operations`, sizes.projected);
row('openai-node client (every resource)', sizes.openai.gzip);
console.log(`\nCost per operation: ${sizes.perOperation.toFixed(0)} B gzip (the client against one of two small namespaces, ${kb(sizes.minimal.gzip)}).`);
console.log(`forecasting-sdk/webhooks: ${kb(webhooks.gzip)} gzip (budget 3 KB).`);
console.log(`\nCold import and construct (median of ${RUNS} fresh processes): forecasting-sdk ${ours.toFixed(1)} ms, openai-node ${openai.toFixed(1)} ms, ratio ${(ours / openai).toFixed(2)}×.`);
console.log(`\nInstall (npm i forecasting-sdk --omit=dev): ${installed.packages.length} package${installed.packages.length === 1 ? '' : 's'}, ${mb(installed.bytes)} on disk (source maps ${mb(installed.maps)} of the package), tarball ${mb(installed.tarball)}.`);
if (installed.packages.length > 1) console.log(`  ${installed.packages.join(', ')}`);
