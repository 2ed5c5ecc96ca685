// Plain JavaScript lets a call pass too many or too few path ids: the error says how many the method
// takes (not that the options are wrong), and nothing is sent.
import { describe, expect, it } from 'vitest';
import { checkIdCount, type Operation } from '../../src/core/operation.js';
import { ValidationError } from '../../src/index.js';
import { makeClient, useMswServer } from './helpers.js';

const { seen } = useMswServer();

/** Calls as plain JavaScript would, free of the types. */
const loose = (fn: unknown) => fn as (...args: unknown[]) => Promise<unknown>;

async function refusal(promise: Promise<unknown>): Promise<ValidationError> {
  const err = await promise.then(() => undefined, (e: unknown) => e);
  expect(err).toBeInstanceOf(ValidationError);
  expect(seen).toHaveLength(0);
  return err as ValidationError;
}

describe('the wrong number of path ids', () => {
  it('says "expected 1 id" for a second id given to a method that takes one', async () => {
    const client = makeClient();
    const err = await refusal(loose(client.questions.retrieve.bind(client.questions))('q1', 'q2'));
    expect(err.message).toBe('questions.retrieve expected 1 id (questionId), got 2');
    // No one field is wrong, the arguments are: docs/errors.md says `field` is empty then.
    expect(err.field).toBe('');
  });

  it('counts an extra id that lands in the params place, and one more in the options place', async () => {
    const client = makeClient();
    const update = loose(client.questions.update.bind(client.questions));
    expect((await refusal(update('q1', 'q2', { title: 'x' }))).message).toBe('questions.update expected 1 id (questionId), got 2');
    expect((await refusal(update('q1', 'q2', 'q3'))).message).toBe('questions.update expected 1 id (questionId), got 3');
  });

  it('says a method with no id takes none', async () => {
    const client = makeClient();
    const err = await refusal(loose(client.credits.retrieve.bind(client.credits))('acct_1'));
    expect(err.message).toBe('credits.retrieve takes no id, got 1');
  });

  it('says "expected 2 ids" when the params come where the second id goes', async () => {
    const client = makeClient();
    const drafts = client.decisions.drafts;
    const err = await refusal(loose(drafts.update.bind(drafts))('d1', { title: 'Will rents fall?' }));
    expect(err.message).toBe('decisions.drafts.update expected 2 ids (decisionId, draftId), got 1');
  });

  it('still names the id when the only id is of the wrong type', async () => {
    const client = makeClient();
    const err = await refusal(loose(client.questions.retrieve.bind(client.questions))({ id: 'q1' }));
    expect(err.field).toBe('questionId');
  });
});

describe('the id count, on checkIdCount itself', () => {
  const twoIds = { sdkMethod: 'questions.forecasts.retrieve', pathParams: ['question_id', 'task_id'] } as unknown as Operation;

  it('leaves a null in an id place to the id check (a wrong id, not a wrong count)', () => {
    expect(() => checkIdCount(twoIds, ['q1', null], undefined, undefined)).not.toThrow();
    expect(() => checkIdCount(twoIds, ['q1', 't1'], undefined, undefined)).not.toThrow();
  });

  it('counts the ids before an object in an id place: the params came too early', () => {
    expect(() => checkIdCount(twoIds, ['q1', { limit: 1 }], undefined, undefined)).toThrow(
      new ValidationError('questions.forecasts.retrieve expected 2 ids (questionId, taskId), got 1'),
    );
  });
});
