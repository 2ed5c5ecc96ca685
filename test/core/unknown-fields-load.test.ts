// unknownFields loads the params check on demand: a failure to load it is a typed error with its cause.
import { describe, expect, it, vi } from 'vitest';

vi.mock('../../src/schemas/params.js', () => {
  throw new Error('chunk missing');
});

describe('unknownFields, when the params check cannot load', () => {
  it('rejects with ForecastingError naming the failure, the cause attached', async () => {
    const { unknownFields, ForecastingError } = await import('../../src/index.js');
    const err = await unknownFields('questions.create', { type: 'binary', title: 'Rain?' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ForecastingError);
    expect((err as Error).message).toMatch(/^could not load the params check, a part of forecasting-sdk: /);
    expect((err as Error).cause).toBeInstanceOf(Error);
  });
});
