// Compiled by `tsc --noEmit` in `npm test` (never run): the decision types catch these mistakes and allow these uses.
import { expectTypeOf } from 'vitest';
import { ForecastingClient, type Decision, type DecisionForecastRun, type EstimateAndStartResult } from '../../src/index.js';

declare const client: ForecastingClient;

export async function decisionTypes(): Promise<void> {
  // @ts-expect-error optons is not a field
  await client.decisions.create({ title: 'Which?', optons: ['a', 'b'] });
  // @ts-expect-error the options are text
  await client.decisions.create({ title: 'Which?', options: [1, 2] });
  // @ts-expect-error 'beside' is not an operator
  await client.decisions.conditions.create('d', { nodeId: 'n', operator: 'beside', threshold: 1 });
  // @ts-expect-error a start needs the approved total
  await client.decisions.forecasts.create('d', { runMode: 'light' });
  // @ts-expect-error the approval callback is required
  await client.decisions.forecasts.estimateAndStart('d', {}, {});
  // @ts-expect-error live mode takes `enabled`
  await client.decisions.setLive('d', { live: true });

  const decision = await client.decisions.create({ title: 'Which?', options: ['a', 'b'] });
  expectTypeOf(decision).toEqualTypeOf<Decision>();
  expectTypeOf(decision.nodes[0]!.option).toEqualTypeOf<string | null>();
  // @ts-expect-error titel is not a field of a decision
  void decision.titel;

  const result = await client.decisions.forecasts.estimateAndStart(decision.id, { runMode: 'light' }, { approve: async (e) => e.totalCredits < 10 });
  expectTypeOf(result).toEqualTypeOf<EstimateAndStartResult>();
  // @ts-expect-error the run exists only once approved
  void result.run;
  if (result.approved) {
    expectTypeOf(result.run).toEqualTypeOf<DecisionForecastRun>();
    expectTypeOf(result.taskIds).toEqualTypeOf<string[]>();
    await client.forecasts.waitMany(result.taskIds);
  }
}
