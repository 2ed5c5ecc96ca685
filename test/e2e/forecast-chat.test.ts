// Forecast chat end to end: conversations on a completed forecast, the 30-a-minute limit, and saving
// an assistant's suggestion as context.
import { describe, expect, it } from 'vitest';
import { BadRequestError, ConflictError, NotFoundError, RateLimitError, ValidationError } from '../../src/index.js';
import { binary, HOUR, useForecastMock } from './_forecasts.js';

const h = useForecastMock();

async function completedTask() {
  const q = await h.client.questions.create(binary);
  const task = await h.client.forecasts.create({ questionId: q.id, runMode: 'light' });
  h.mock.clock.advance(HOUR);
  return task;
}

describe('forecasts.chat', () => {
  it('answers a question with an assistant message, and continues the conversation by threadId', async () => {
    const task = await completedTask();
    const thread = await h.client.forecasts.chat.create(task.id, { message: 'Why this number?' });
    expect(thread.messages.map((m) => m.role)).toEqual(['user', 'assistant']);
    expect(thread.messages[0]!.content).toBe('Why this number?');
    expect(thread.messages.at(-1)!.content).toMatch(/%/);
    const next = await h.client.forecasts.chat.create(task.id, { message: 'What would change it?', threadId: thread.id });
    expect(next.id).toBe(thread.id);
    expect(next.messages).toHaveLength(4);
    expect(await h.client.forecasts.chat.retrieve(task.id, thread.id)).toEqual(next);
    const other = await h.client.forecasts.chat.create(task.id, { message: 'New topic' });
    expect((await h.client.forecasts.chat.list(task.id)).data.map((t) => t.id)).toEqual([other.id, thread.id]);
  });

  it('refuses to chat about a forecast that is not completed (409)', async () => {
    const q = await h.client.questions.create(binary);
    const task = await h.client.forecasts.create({ questionId: q.id });
    await expect(h.client.forecasts.chat.create(task.id, { message: 'Hello?' })).rejects.toBeInstanceOf(ConflictError);
  });

  it('refuses an empty message before sending, and an unknown thread or task with 404', async () => {
    const task = await completedTask();
    await expect(h.client.forecasts.chat.create(task.id, { message: '' })).rejects.toBeInstanceOf(ValidationError);
    expect(h.count('forecasts.chat.create')).toBe(0);
    await expect(h.client.forecasts.chat.retrieve(task.id, '00000000-0000-4000-8000-000000000000')).rejects.toBeInstanceOf(NotFoundError);
    await expect(h.client.forecasts.chat.list('00000000-0000-4000-8000-000000000000')).rejects.toBeInstanceOf(NotFoundError);
  });

  it('limits chat to 30 messages a minute per key, with Retry-After', async () => {
    const task = await completedTask();
    const client = h.connect({ maxRetries: 0 });
    for (let i = 0; i < 30; i++) await client.forecasts.chat.create(task.id, { message: `Question ${i}` });
    const err = await client.forecasts.chat.create(task.id, { message: 'One more' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RateLimitError);
    expect((err as RateLimitError).retryAfterMs).toBeGreaterThan(0);
    h.mock.clock.advance(60_000);
    await expect(client.forecasts.chat.create(task.id, { message: 'Later' })).resolves.toMatchObject({ messages: expect.any(Array) });
  });

  it('saves an assistant suggestion as a context note, and refuses a user message', async () => {
    const task = await completedTask();
    const thread = await h.client.forecasts.chat.create(task.id, { message: 'What should I add?' });
    const [userMessage, answer] = thread.messages;
    expect(answer!.suggestedContext).toMatchObject({ text: expect.any(String) });
    const note = await h.client.forecasts.chat.acceptContext(answer!.id, { treatment: 'assume_true' });
    expect(note).toMatchObject({ questionId: task.question.id, text: answer!.suggestedContext!.text, treatment: 'assume_true' });
    await expect(h.client.forecasts.chat.acceptContext(userMessage!.id)).rejects.toBeInstanceOf(BadRequestError);
    await expect(h.client.forecasts.chat.acceptContext('00000000-0000-4000-8000-000000000000')).rejects.toBeInstanceOf(NotFoundError);
  });
});
