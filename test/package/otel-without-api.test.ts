// docs/observability.md: an app without `@opentelemetry/api` that imports `forecasting-sdk/otel` gets
// Node's own error naming it, and the main entry never loads it. Run on the built package, installed
// alone in a folder with no other dependency (as `npm i forecasting-sdk` leaves an app without OpenTelemetry).
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const app = mkdtempSync(join(tmpdir(), 'forecasting-sdk-noapi-'));
const installed = join(app, 'node_modules/forecasting-sdk');
mkdirSync(installed, { recursive: true });
cpSync(join(root, 'package.json'), join(installed, 'package.json'));
cpSync(join(root, 'dist'), join(installed, 'dist'), { recursive: true });
afterAll(() => rmSync(app, { recursive: true, force: true }));

/** What a script run in the app prints (its last line). */
const run = (args: string[]) => execFileSync(process.execPath, args, { cwd: app, encoding: 'utf8' }).trim().split('\n').at(-1);

describe('forecasting-sdk/otel without @opentelemetry/api', () => {
  it('import: ERR_MODULE_NOT_FOUND naming @opentelemetry/api', () => {
    const script = `import('forecasting-sdk/otel').then(() => console.log('loaded'), (e) => console.log(e.code, /'@opentelemetry\\/api'/.test(e.message)));`;
    expect(run(['--input-type=module', '-e', script])).toBe('ERR_MODULE_NOT_FOUND true');
  });

  it('require: MODULE_NOT_FOUND naming @opentelemetry/api', () => {
    const script = `try { require('forecasting-sdk/otel'); console.log('loaded'); } catch (e) { console.log(e.code, /'@opentelemetry\\/api'/.test(e.message)); }`;
    expect(run(['-e', script])).toBe('MODULE_NOT_FOUND true');
  });

  it('the main entry, in both formats, never loads it: a client is made and its channels are there', () => {
    const esm = `const { ForecastingClient, CHANNELS } = await import('forecasting-sdk'); new ForecastingClient({ apiKey: 'k', baseURL: 'http://127.0.0.1:9/api/v1/external' }); console.log(CHANNELS.operation);`;
    expect(run(['--input-type=module', '-e', esm])).toBe('forecasting-sdk:operation');
    const cjs = `const { ForecastingClient, CHANNELS } = require('forecasting-sdk'); new ForecastingClient({ apiKey: 'k', baseURL: 'http://127.0.0.1:9/api/v1/external' }); console.log(CHANNELS.operation);`;
    expect(run(['-e', cjs])).toBe('forecasting-sdk:operation');
  });
});
