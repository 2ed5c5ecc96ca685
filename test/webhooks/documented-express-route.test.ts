// The hand-written Express route of docs/webhooks.md, run as the guide writes it (its code block,
// compiled): a genuine call is verified, a body that is not an event gets a final 400, and the same
// route behind `express.json()` answers a 5xx, so that the service retries once the route is fixed.
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { transform } from 'esbuild';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { signWebhook } from '../../src/index.js';
import { examplesOf } from '../docs/harness.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const SECRET = 'whsec_documented_express_route';
const EVENT = JSON.stringify({ id: 'evt:forecast.completed:t1', type: 'forecast.completed', createdAt: '2026-01-01T00:00:00.000Z', data: { taskId: 't1' } });

/** The guide's block, as a module factory: `json` registers `express.json()` before the route, the mistake the guide warns of. */
let block: string;
beforeAll(async () => {
  const example = examplesOf(root, 'docs/webhooks.md').find((e) => e.code.includes("express.raw({ type: 'application/json' })"));
  expect(example, 'the Express route example of docs/webhooks.md').toBeDefined();
  block = (await transform(example!.code, { loader: 'ts', format: 'esm' })).code;
});

let server: Server | undefined;
afterEach(async () => {
  await new Promise((r) => (server ? server.close(r) : r(undefined)));
  server = undefined;
});

/** Runs the block (imports resolved as a user's would, from the repo) with `queue` supplied, and serves its app. */
async function serve(jsonFirst: boolean): Promise<{ base: string; queued: unknown[] }> {
  const queued: unknown[] = [];
  const code = block
    .replace('const app = express();', jsonFirst ? 'const app = express(); app.use(express.json());' : 'const app = express();')
    .replace(/^import (.+) from "(express|forecasting-sdk\/webhooks)";$/gm, (_, names: string, from: string) => `const ${names.replace(/ as /g, ': ')} = await load(${JSON.stringify(from)});`);
  expect(code).not.toMatch(/^import /m);
  const load = async (name: string) => {
    const m = (await import(name === 'express' ? 'express' : '../../src/webhooks/index.js')) as Record<string, unknown>;
    return name === 'express' ? m['default'] : m;
  };
  const run = new Function('load', 'queue', 'process', `return (async () => { ${code}; return app; })();`) as (...a: unknown[]) => Promise<{ listen: (p: number, h: string, cb: () => void) => Server }>;
  const app = await run(load, { add: (_: string, data: unknown) => queued.push(data) }, { env: { WEBHOOK_SECRET: SECRET } });
  server = await new Promise<Server>((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  return { base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, queued };
}

const post = async (base: string, body: string) => {
  const res = await fetch(`${base}/webhooks/forecasting`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-service-signature': await signWebhook(body, SECRET) }, body });
  return { status: res.status, text: await res.text() };
};

describe("docs/webhooks.md's Express route", () => {
  it('verifies a genuine call and queues its task', async () => {
    const { base, queued } = await serve(false);
    expect((await post(base, EVENT)).status).toBe(200);
    expect(queued).toEqual([{ taskId: 't1' }]);
  });

  it('answers 400 malformed_payload to signed bytes that are not an event (the raw body came: final)', async () => {
    const { base } = await serve(false);
    expect(await post(base, 'not json')).toEqual({ status: 400, text: 'malformed_payload' });
  });

  it('answers a 5xx, not a 400, when express.json() read the body first: the service retries once the route is fixed', async () => {
    const { base, queued } = await serve(true);
    const { status } = await post(base, EVENT);
    expect(status).toBeGreaterThanOrEqual(500);
    expect(queued).toEqual([]);
  });
});
