// `forecasting mock --json` announces an OpenAPI address: the document there names the mock itself
// as its server (not the `{base_url}` placeholder of the packaged document).
import { expect, it } from 'vitest';
import { openApiDocument } from '../src/openapi.js';
import { withMockControls } from '../src/testing/openapi.js';
import { start } from './cli/_cli.js';

it('forecasting mock --json: the announced OpenAPI document names the mock’s own address as its server', async () => {
  const server = start(['mock', '--json']);
  try {
    const info = JSON.parse(await server.waitFor('stdout', /^.*\n/)) as { baseURL: string; openapi: string | null };
    expect(info.openapi).toBe(`${new URL(info.baseURL).origin}/openapi.json`);
    const document = (await (await fetch(info.openapi!)).json()) as { servers: { url: string }[] };
    expect(document.servers.map((s) => s.url)).toEqual([info.baseURL]);
    // The whole document, as the mock serves it under its base URL, with the control routes the CLI turns on.
    expect(document).toEqual(withMockControls(openApiDocument({ serverURL: info.baseURL }), new URL(info.baseURL).origin));
  } finally {
    server.child.kill('SIGTERM');
    await server.done;
  }
});
