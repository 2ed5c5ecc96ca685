// The decision the decision tests share: an office choice, with questions on it as nodes.
import type { ForecastingClient, Question } from '../../src/index.js';
import { binary } from './_forecasts.js';

export const office = { title: 'Where do we open the next office?', options: ['Lisbon', 'Berlin'] };

/** A decision with `n` binary questions on it, the first on `Lisbon`, the others on `Berlin`. */
export async function decisionWithQuestions(client: ForecastingClient, n: number) {
  const decision = await client.decisions.create(office);
  const questions: Question[] = [];
  for (let i = 0; i < n; i++) {
    const q = await client.questions.create({ ...binary, title: `Question ${i} on the office?` });
    await client.decisions.nodes.create(decision.id, { questionId: q.id, option: i === 0 ? 'Lisbon' : 'Berlin' });
    questions.push(q);
  }
  return { decision: await client.decisions.retrieve(decision.id), questions };
}
