// The CommonJS build in a host that runs modules through `vm` with no dynamic-import hook, as Jest's
// CommonJS runtime does: `import()` throws there, so a chunk loaded on demand must be `require`d.
// Every call with params loads the params check on demand: it must work in such a host.
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { compileFunction } from 'node:vm';
import { describe, expect, it } from 'vitest';

const dist = fileURLToPath(new URL('../../dist/', import.meta.url));
const nodeRequire = createRequire(import.meta.url);

/** A CommonJS loader like Jest's: each file compiled by `vm`, with no `importModuleDynamically`. */
function vmRequire(file: string, cache = new Map<string, { exports: unknown }>()): unknown {
  const known = cache.get(file);
  if (known) return known.exports;
  const module = { exports: {} as unknown };
  cache.set(file, module);
  const run = compileFunction(readFileSync(file, 'utf8'), ['exports', 'require', 'module', '__filename', '__dirname'], { filename: file });
  const localRequire = (id: string) => (id.startsWith('.') ? vmRequire(resolve(dirname(file), id), cache) : nodeRequire(id));
  run.call(module.exports, module.exports, localRequire, module, file, dirname(file));
  return module.exports;
}

describe('the CommonJS build in a vm host without dynamic import (Jest’s CommonJS runtime)', () => {
  it('refuses import() there, as Jest does (the premise of this test)', async () => {
    const run = compileFunction('return import("node:os")', [], { filename: 'probe.cjs' });
    await expect(Promise.resolve().then(() => run())).rejects.toThrow(/dynamic import callback|import/i);
  });

  it('checks params, sends, and refuses bad params with ValidationError, loading what it loads on demand by require', async () => {
    const sdk = vmRequire(`${dist}index.cjs`) as typeof import('../../src/index.js');
    const sent: string[] = [];
    const fetch = async (input: Request | URL | string, init?: RequestInit) => {
      const request = new Request(input, init);
      sent.push(`${request.method} ${new URL(request.url).pathname}`);
      return request.method === 'GET'
        ? Response.json({ data: [{ id: 'q1', type: 'binary', title: 'Rain?' }], nextCursor: null })
        : Response.json({ id: 'q1', type: 'binary', title: 'Rain?' }, { status: 201 });
    };
    const client = new sdk.ForecastingClient({ apiKey: 'pre_vm', baseURL: 'https://api.test/api/v1/external', fetch, logLevel: 'off' });
    await expect(client.questions.create({ type: 'binary', title: 'Rain?' })).resolves.toMatchObject({ id: 'q1' });
    const page = await client.questions.list({ limit: 1 });
    expect(page.data).toHaveLength(1);
    const err = await client.questions.create({ type: 'binary', title: 7 } as never).catch((e: unknown) => e);
    expect((err as Error).name).toBe('ValidationError');
    expect(await sdk.unknownFields('questions.create', { type: 'binary', title: 'x', titel: 'y' })).toHaveLength(1);
    expect(sent).toEqual(['POST /api/v1/external/questions', 'GET /api/v1/external/questions']);
  });

  it('leaves no import() of its own chunks in any CommonJS file', () => {
    const files = readdirSync(dist, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.cjs'));
    expect(files.length).toBeGreaterThan(10);
    const found = files.filter((f) => /\bimport\((['"])\.{1,2}\//.test(readFileSync(`${dist}${f}`, 'utf8')));
    expect(found).toEqual([]);
  });
});
