// The control routes of `forecasting mock`, tested as a team in another language uses them: a bash
// script with curl and jq, and plain `fetch` with no SDK, against the built binary.
import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { childEnv, hasTools, start, type Running } from './_cli.js';

interface Info {
  baseURL: string;
  apiKey: string;
  control: string;
}


let server: Running;
let info: Info;
beforeAll(async () => {
  server = start(['mock', '--json', '--manual-clock']);
  info = JSON.parse(await server.waitFor('stdout', /^.*\n/)) as Info;
});
afterAll(async () => {
  server.child.kill('SIGTERM');
  await server.done;
});

function bash(script: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn('bash', ['-c', `set -euo pipefail\n${script}`], {
      env: childEnv({ BASE: info.baseURL, CONTROL: info.control, KEY: info.apiKey }),
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('forecasting mock: the control routes, from curl', () => {
  it.skipIf(!hasTools('bash', 'curl', 'jq'))('steer the clock, outcomes (failed, cancelled, report), credits, faults, the request log and reset', async () => {
    const result = await bash(`
A="Authorization: Bearer $KEY"
api() { curl -sf "$BASE$1" -H "$A" -H "Content-Type: application/json" "\${@:2}"; }
ctl() { curl -s "$CONTROL$1" -H "$A" "\${@:2}"; }
forecast() { api /forecasts -d "{\\"questionId\\": \\"$1\\", \\"runMode\\": \\"light\\"}" | jq -r .id; }
ctl /clock | jq -r '.kind + " " + .iso'
ctl /reset -X POST -o /dev/null -w '%{http_code}\\n'
Q1=$(api /questions -d '{"type": "binary", "title": "Cancelled?"}' | jq -r .id)
Q2=$(api /questions -d '{"type": "binary", "title": "Report fails?"}' | jq -r .id)
ctl "/questions/$Q1/outcome" -X PUT -d '{"task": "cancelled"}' | jq -c '{task}'
ctl "/questions/$Q2/outcome" -X PUT -d '{"report": "failed"}' | jq -c '{report}'
T1=$(forecast "$Q1"); T2=$(forecast "$Q2")
ctl /clock/advance -d '{"ms": 3600000}' | jq -r .iso
api "/forecasts/$T1" | jq -r .status
api "/forecasts/$T2" | jq -r '.status + ", report " + .forecast.report.status'
ctl /credits | jq -r .balance
ctl /credits -X PUT -d '{"unlimited": true}' | jq -c '{unlimited}'
ctl /faults -d '{"operation": "questions.list", "status": 500, "times": 1}' | jq -c .
ctl /faults | jq -r '.faults | length'
api /questions -o /dev/null -w '%{http_code}\\n' || true
api /questions -o /dev/null -w '%{http_code}\\n'
ctl /faults -d '{"operation": "questions.list", "drop": true}' > /dev/null
ctl /faults -X DELETE -o /dev/null -w '%{http_code}\\n'
api /questions -o /dev/null -w '%{http_code}\\n'
ctl /requests | jq -r '[.requests[] | select(.path | startswith("/__mock"))] | length'
ctl /requests | jq -r '.requests[-1] | .method + " " + .path + " " + (.status | tostring) + " " + .headers.authorization'
`);
    expect(result.stderr).toBe('');
    expect(result.stdout).toBe(
      [
        'manual 2025-01-01T00:00:00.000Z',
        '204',
        '{"task":"cancelled"}',
        '{"report":"failed"}',
        '2025-01-01T01:00:00.000Z',
        'cancelled',
        'completed, report failed',
        '998',
        '{"unlimited":true}',
        '{"rule":{"operation":"questions.list","times":1,"status":500},"remaining":1,"hits":0}',
        '1',
        '500',
        '200',
        '204',
        '200',
        '0',
        'GET /questions 200 Bearer [redacted]',
        '',
      ].join('\n'),
    );
    expect(result.code).toBe(0);
  });
});

describe('forecasting mock: the control routes are safe', () => {
  const send = (path: string, init: RequestInit & { key?: string | null } = {}) => {
    const { key = info.apiKey, ...rest } = init;
    return fetch(`${info.control}${path}`, { ...rest, headers: { ...(key === null ? {} : { authorization: `Bearer ${key}` }), ...(rest.headers as Record<string, string>) } });
  };

  it.each([
    ['no key', '/clock', { key: null }, 401, 'invalid_api_key', /No API key/],
    ['a wrong key', '/clock', { key: 'pre_wrong' }, 401, 'invalid_api_key', /wrong, revoked or expired/],
    ['an unknown route', '/nope', {}, 404, 'not_found', /GET \/__mock lists them/],
    ['a method the route does not take', '/clock', { method: 'DELETE' }, 405, 'invalid_request_error', /allowed: GET/],
    ['a body that is not JSON', '/clock/advance', { method: 'POST', body: '{ms: 1' }, 400, 'invalid_request_error', /not JSON/],
    ['a field of the wrong type', '/clock/advance', { method: 'POST', body: '{"ms": -5}' }, 400, 'invalid_request_error', /^ms: /],
    ['a field the route does not know', '/credits', { method: 'PUT', body: '{"balanse": 5}' }, 400, 'invalid_request_error', /balanse/],
    ['a fault that matches nothing', '/faults', { method: 'POST', body: '{"status": 503}' }, 400, 'invalid_request_error', /needs operation, method or path/],
    ['a fault with an impossible status', '/faults', { method: 'POST', body: '{"path": "/questions", "status": 200}' }, 400, 'invalid_request_error', /status must be 400 to 599/],
    ['an outcome for a question that does not exist', '/questions/nope/outcome', { method: 'PUT', body: '{"task": "failed"}' }, 404, 'not_found', /No question nope/],
    ['a body over 8 KiB (declared)', '/faults', { method: 'POST', body: JSON.stringify({ message: 'x'.repeat(9000) }) }, 413, 'request_too_large', /at most 8192 bytes/],
  ] as const)('refuses %s with a typed error, never a 500', async (_what, path, init, status, type, message) => {
    const res = await send(path, init as RequestInit & { key?: string | null });
    const body = (await res.json()) as { type: string; error: { type: string; message: string } };
    expect([res.status, body.type, body.error.type]).toEqual([status, 'error', type]);
    expect(body.error.message).toMatch(message);
    if (status === 405) expect(res.headers.get('allow')).toBe('GET');
  });

  it('refuses a streamed body over 8 KiB without reading it all (no Content-Length)', async () => {
    // 64 MiB offered, pulled only as the connection takes it: a server that stops reading at the cap
    // leaves most of it unsent, whatever the socket buffers and the machine's load let through first.
    const chunk = new TextEncoder().encode('x'.repeat(4096));
    const chunks = 16_384;
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent++ < chunks) controller.enqueue(chunk);
        else controller.close();
      },
    });
    const res = await send('/faults', { method: 'POST', body, duplex: 'half' } as RequestInit).catch(() => undefined);
    // The mock answers 413 once it passes the cap (a client still sending may see the connection close instead).
    if (res) expect([res.status, ((await res.json()) as { error: { type: string } }).error.type]).toEqual([413, 'request_too_large']);
    expect(sent).toBeLessThan(chunks / 4);
  });

  it('is not the service: /__mock is outside /api/v1/external, where the same path is the service\'s 404', async () => {
    const res = await fetch(`${info.baseURL}/__mock/clock`, { headers: { authorization: `Bearer ${info.apiKey}` } });
    expect(res.status).toBe(404);
  });
});
