// A preset file sent as JSON `{filename, contentBase64}` meets the spec's 10 MiB file limit, as a
// multipart one does: the SDK and the mock (over HTTP) agree on where it lies.
import { describe, expect, it } from 'vitest';
import { MAX_FILE_BYTES } from '../../src/api/limits.js';
import { MAX_JSON_UPLOAD_BODY_BYTES } from '../../src/testing/index.js';
import { useOrgMock } from '../e2e/_org.js';

const h = useOrgMock();
const base64Of = (bytes: number) => Buffer.alloc(bytes, 0x61).toString('base64');

async function presetId(): Promise<string> {
  return (await h.client.presets.create({ scope: 'personal', name: 'Big files' })).id;
}

describe('a preset file as JSON', () => {
  it('takes a file of exactly 10 MiB, through the SDK', async () => {
    const file = await h.client.presets.files.upload(await presetId(), { filename: 'big.txt', contentBase64: base64Of(MAX_FILE_BYTES) });
    expect(file).toMatchObject({ filename: 'big.txt', sizeBytes: MAX_FILE_BYTES });
  });

  it('refuses one byte more: the SDK before sending, the mock with 400 naming contentBase64', async () => {
    const id = await presetId();
    const body = { filename: 'big.txt', contentBase64: base64Of(MAX_FILE_BYTES + 1) };
    await h.refused(h.client.presets.files.upload(id, body), 'contentBase64', /at most 10 MiB/);
    const res = await h.raw('POST', `/forecast-presets/${id}/files`, body);
    expect(res.status).toBe(400);
    expect(res.body.error?.message).toBe(`contentBase64: must be at most 10 MiB (${MAX_FILE_BYTES} bytes)`);
  });

  it('answers 413 to a body over the JSON upload cap, and keeps the 1 MiB cap elsewhere', async () => {
    const id = await presetId();
    const over = await h.raw('POST', `/forecast-presets/${id}/files`, { filename: 'big.txt', contentBase64: 'a'.repeat(MAX_JSON_UPLOAD_BODY_BYTES) });
    expect(over.status).toBe(413);
    expect(over.body.error?.type).toBe('request_too_large');
    const elsewhere = await h.raw('PATCH', `/forecast-presets/${id}`, { name: 'x'.repeat(2 * 1024 * 1024) });
    expect(elsewhere.status).toBe(413);
  });
});
