// An upload's source that cannot be sent ends the call in its own terms, never a bare TypeError nor
// a connection error blaming the network (found by an attacker's review): a stream another reader
// holds is refused before anything is sent; a source that fails mid-way ends the call in its error;
// a chunk that is not bytes or text is a ValidationError on `file`.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { APIConnectionError, ForecastingClient, ValidationError } from '../../src/index.js';
import { startMockServer, type MockServer } from '../../src/testing/index.js';

let mock: MockServer;
let client: ForecastingClient;
beforeAll(async () => {
  mock = await startMockServer();
  client = new ForecastingClient({ apiKey: mock.apiKey, baseURL: mock.baseURL, logLevel: 'off' });
});
afterAll(() => mock.close());

/** A small CSV file as a web stream. */
const csvStream = () =>
  new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(new TextEncoder().encode('a,b\n1,2\n'));
      controller.close();
    },
  });

it('refuses a locked ReadableStream as the file, naming the field, and sends nothing', async () => {
  const question = await client.questions.create({ type: 'binary', title: 'Will it rain in Paris on 1 June 2027?' });
  const stream = csvStream();
  stream.getReader();
  const error = await client.questions.files.upload(question.id, { file: stream, filename: 'data.csv' }).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(ValidationError);
  expect(error).toMatchObject({ field: 'file', message: expect.stringContaining('another reader has locked') });
  expect(mock.service.requests.count({ operation: 'questions.files.upload' })).toBe(0);
});

it('uploads the same stream when nothing holds it', async () => {
  const question = await client.questions.create({ type: 'binary', title: 'Will it snow in Oslo on 1 June 2027?' });
  const stream = csvStream();
  await expect(client.questions.files.upload(question.id, { file: stream, filename: 'data.csv' })).resolves.toMatchObject({ filename: 'data.csv' });
});

async function* failing(): AsyncGenerator<Uint8Array> {
  yield new TextEncoder().encode('a,b\n');
  throw new Error('disk read failed');
}

async function* giving(value: unknown): AsyncGenerator<unknown> {
  yield new TextEncoder().encode('a,b\n');
  yield value;
}

it('ends in the source\'s own error when it fails mid-way, said as such (not the network)', async () => {
  const question = await client.questions.create({ type: 'binary', title: 'Will it hail in Rome on 1 June 2027?' });
  const error = await client.questions.files.upload(question.id, { file: failing(), filename: 'data.csv' }).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(APIConnectionError);
  expect((error as Error).message).toBe(`The upload's file stream failed (disk read failed): the request to ${new URL(mock.baseURL).host} was cut off.`);
  expect((error as Error).cause).toMatchObject({ message: 'disk read failed' });
});

it.each([
  ['a number', 42, 'a number'],
  ['an object', { bytes: 1 }, 'an object'],
  ['null', null, 'null'],
])('refuses a chunk that is %s with a ValidationError on file', async (_what, value, said) => {
  const question = await client.questions.create({ type: 'binary', title: 'Will it be windy in Bern on 1 June 2027?' });
  const error = await client.questions.files.upload(question.id, { file: giving(value) as AsyncIterable<Uint8Array>, filename: 'data.csv' }).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(ValidationError);
  expect(error).toMatchObject({ field: 'file', message: `file: the stream gave ${said}, not bytes or text` });
});

it('takes ArrayBuffer chunks as bytes', async () => {
  const question = await client.questions.create({ type: 'binary', title: 'Will it be foggy in London on 1 June 2027?' });
  const file = giving(new TextEncoder().encode('1,2\n').buffer) as AsyncIterable<Uint8Array>;
  await expect(client.questions.files.upload(question.id, { file, filename: 'data.csv' })).resolves.toMatchObject({ filename: 'data.csv' });
});

it("keeps the key out of the source's error quoted in the message and of the cause kept, and cuts it to one line", async () => {
  const question = await client.questions.create({ type: 'binary', title: 'Will it sleet in Bern on 1 June 2027?' });
  async function* leaking(): AsyncGenerator<Uint8Array> {
    yield new TextEncoder().encode('a,b\n');
    throw new Error(`disk read failed\nwith ${mock.apiKey}`);
  }
  const error = (await client.questions.files.upload(question.id, { file: leaking(), filename: 'data.csv' }).catch((e: unknown) => e)) as Error;
  expect(error).toBeInstanceOf(APIConnectionError);
  expect(error.message).toBe(`The upload's file stream failed (disk read failed with [redacted]): the request to ${new URL(mock.baseURL).host} was cut off.`);
  const { inspect } = await import('node:util');
  expect(`${inspect(error, { depth: 10, showHidden: true })}${JSON.stringify(error)}`).not.toContain(mock.apiKey);
});
