// A stream another reader holds is refused before anything is sent, with a ValidationError naming
// `file` (it was a bare TypeError from getReader(): found by an attacker's review).
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ForecastingClient, ValidationError } from '../../src/index.js';
import { startMockServer, type MockServer } from '../../src/testing/index.js';

let mock: MockServer;
let client: ForecastingClient;
beforeAll(async () => {
  mock = await startMockServer();
  client = new ForecastingClient({ apiKey: mock.apiKey, baseURL: mock.baseURL, logLevel: 'off' });
});
afterAll(() => mock.close());

it('refuses a locked ReadableStream as the file, naming the field, and sends nothing', async () => {
  const question = await client.questions.create({ type: 'binary', title: 'Will it rain in Paris on 1 June 2027?' });
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(new TextEncoder().encode('a,b\n1,2\n'));
      controller.close();
    },
  });
  stream.getReader();
  const error = await client.questions.files.upload(question.id, { file: stream, filename: 'data.csv' }).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(ValidationError);
  expect(error).toMatchObject({ field: 'file', message: expect.stringContaining('another reader has locked') });
  expect(mock.service.requests.count({ operation: 'questions.files.upload' })).toBe(0);
});

it('uploads the same stream when nothing holds it', async () => {
  const question = await client.questions.create({ type: 'binary', title: 'Will it snow in Oslo on 1 June 2027?' });
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(new TextEncoder().encode('a,b\n1,2\n'));
      controller.close();
    },
  });
  await expect(client.questions.files.upload(question.id, { file: stream, filename: 'data.csv' })).resolves.toMatchObject({ filename: 'data.csv' });
});
