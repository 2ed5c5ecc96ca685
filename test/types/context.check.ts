// Compiled by `tsc --noEmit` in `npm test` (never run): the context and preset types catch these mistakes.
import { createReadStream } from 'node:fs';
import { expectTypeOf } from 'vitest';
import { ForecastingClient, type ContextFile, type Preset } from '../../src/index.js';

declare const client: ForecastingClient;

export async function uploads(): Promise<void> {
  // Every upload form compiles.
  await client.questions.files.upload('q', { file: new File(['x'], 'x.txt') });
  await client.questions.files.upload('q', { file: Buffer.from('x'), filename: 'x.txt' });
  await client.questions.files.upload('q', { file: createReadStream('x.txt'), artifactType: 'dataset', treatment: 'look_into', userNote: 'n' });
  await client.questions.files.upload('q', { file: new Blob(['x']).stream(), filename: 'x.txt' });
  await client.presets.files.upload('p', { filename: 'x.txt', contentBase64: 'eA==' });
  // @ts-expect-error a file cannot be ignored
  await client.questions.files.upload('q', { file: new File(['x'], 'x.txt'), treatment: 'ignore' });
  // @ts-expect-error 'memo' is not an artifact type
  await client.questions.files.update('q', 'f', { artifactType: 'memo' });
  // @ts-expect-error a question file has no JSON form
  await client.questions.files.upload('q', { filename: 'x.txt', contentBase64: 'eA==' });
  // @ts-expect-error a preset needs a scope
  await client.presets.create({ name: 'x' });
  // @ts-expect-error notes take text
  await client.questions.context.create('q', { treatment: 'ignore' });

  const file = await client.questions.files.retrieve('q', 'f');
  expectTypeOf(file).toEqualTypeOf<ContextFile>();
  expectTypeOf(await client.questions.files.waitUntilReady('q')).toEqualTypeOf<ContextFile[]>();
  expectTypeOf(await client.presets.retrieve('p')).toEqualTypeOf<Preset>();
  expectTypeOf((await client.questions.context.ready('q')).ready).toEqualTypeOf<boolean>();
}
