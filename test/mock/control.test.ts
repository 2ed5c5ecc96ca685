// The HTTP control surface in-process: off unless asked for, one table behind the routes and the
// OpenAPI document, and the real service's document (dist/openapi.json) without it.
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createMockService, MOCK_CONTROL_PREFIX, withMockControls } from '../../src/testing/index.js';
import { MOCK_CONTROLS } from '../../src/testing/control.js';
import { MAX_FAULT_RULES } from '../../src/testing/faults.js';

const ORIGIN = 'http://mock';
const get = (service: ReturnType<typeof createMockService>, path: string) =>
  service.handle(new Request(`${ORIGIN}${path}`, { headers: { authorization: `Bearer ${service.apiKey}` } }));

describe('the mock control surface', () => {
  it('is off unless the service is created with httpControls: true', async () => {
    expect((await get(createMockService(), '/__mock/clock')).status).toBe(404);
    expect((await get(createMockService({ httpControls: true }), '/__mock/clock')).status).toBe(200);
  });

  it('answers every route of its table (none is a 404 or 405), and GET /__mock lists the table', async () => {
    const service = createMockService({ httpControls: true });
    const q = service.store.questions.insert({ id: 'q1' } as never);
    const bodies: Record<string, unknown> = { '/clock/advance': { ms: 1 }, '/credits': { balance: 5 }, '/faults': { path: '/questions', status: 503 }, '/questions/{question_id}/outcome': { task: 'cancelled' } };
    for (const route of MOCK_CONTROLS) {
      const path = `${MOCK_CONTROL_PREFIX}${route.path.replace('{question_id}', q.id)}`;
      const body = route.method === 'GET' || route.method === 'DELETE' ? undefined : JSON.stringify(bodies[route.path] ?? {});
      const res = await service.handle(new Request(`${ORIGIN}${path}`, { method: route.method, body, headers: { authorization: `Bearer ${service.apiKey}` } }));
      expect([route.method, route.path, res.status]).toEqual([route.method, route.path, route.status ?? 200]);
    }
    const index = (await (await get(service, '/__mock')).json()) as { routes: Array<{ method: string; path: string }> };
    expect(index.routes.map((r) => `${r.method} ${r.path}`)).toEqual(MOCK_CONTROLS.map((r) => `${r.method} ${MOCK_CONTROL_PREFIX}${r.path}`));
    expect(service.requests.length).toBe(0); // control calls stay out of the request log
  });

  it("is docs/cli.md's table, row for row: each route with its summary and its in-process call", () => {
    const rows = readFileSync('docs/cli.md', 'utf8').split('\n').filter((line) => line.startsWith('| `') && line.includes(' /__mock'));
    expect(rows).toEqual(MOCK_CONTROLS.map((r) => `| \`${r.method} ${MOCK_CONTROL_PREFIX}${r.path}\` | ${r.summary} | ${r.inProcess} |`));
  });

  it('is described under its own tag in the document the mock serves, only when it is on', async () => {
    const doc = async (service: ReturnType<typeof createMockService>) => (await (await get(service, '/api/v1/external/openapi.json')).json()) as { tags: Array<{ name: string }>; paths: Record<string, Record<string, { tags?: string[] }>> };
    const on = await doc(createMockService({ httpControls: true }));
    expect(on.tags.map((t) => t.name)).toContain('Mock control');
    expect(on.paths['/__mock/faults']?.['post']?.tags).toEqual(['Mock control']);
    const off = await doc(createMockService());
    expect(Object.keys(off.paths).some((p) => p.startsWith('/__mock'))).toBe(false);
  });

  it.skipIf(!existsSync('dist/openapi.json'))("is not in the package's dist/openapi.json (the real service's document)", () => {
    const text = readFileSync('dist/openapi.json', 'utf8');
    expect(text).not.toContain('/__mock');
    expect(text).not.toContain('Mock control');
    const served = withMockControls(JSON.parse(text) as Record<string, unknown>, 'http://127.0.0.1:4010') as { paths: Record<string, { servers?: Array<{ url: string }> }> };
    expect(served.paths['/__mock/clock']?.servers).toEqual([{ url: 'http://127.0.0.1:4010', description: expect.any(String) }]);
  });
});

// Anyone with a key can add fault rules over HTTP: 20,000 of them held 400 MB, and their list answered 78 MB.
describe('fault rules', () => {
  it('keeps at most MAX_FAULT_RULES active: the next is a RangeError in process and a 400 over HTTP', async () => {
    const service = createMockService({ httpControls: true });
    for (let i = 0; i < MAX_FAULT_RULES; i++) service.faults.add({ path: `/questions/q${i}`, status: 503 });
    expect(() => service.faults.add({ path: '/questions', status: 503 })).toThrow(new RangeError(`at most ${MAX_FAULT_RULES} fault rules are active at once: remove some, or clear them`));
    const res = await service.handle(
      new Request(`${ORIGIN}${MOCK_CONTROL_PREFIX}/faults`, { method: 'POST', body: JSON.stringify({ path: '/questions', status: 503 }), headers: { authorization: `Bearer ${service.apiKey}`, 'content-type': 'application/json' } }),
    );
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: { message: string } }).error.message).toContain(`at most ${MAX_FAULT_RULES} fault rules`);
    service.faults.list()[0]!.remove();
    expect(() => service.faults.add({ path: '/questions', status: 503 })).not.toThrow();
  });
});
