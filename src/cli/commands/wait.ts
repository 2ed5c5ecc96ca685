/**
 * `forecasting wait TASK_ID…`: waits until the tasks are final; one result line per task (or the
 * tasks as JSON) and the exit code their states make.
 * @module
 */
import type { Command } from 'commander';
import { clientFromEnv } from '../env.js';
import type { ExitCode } from '../exit-codes.js';
import { json, out, taskLine } from '../output.js';
import { waitFor, type WaitFlags } from '../waiting.js';

export async function wait(cmd: Command): Promise<ExitCode> {
  const flags = cmd.opts<WaitFlags>();
  const ids = [...new Set(cmd.args)];
  const client = await clientFromEnv();
  const { tasks, code } = await waitFor(client, ids, flags);
  if (!tasks) return code;
  if (flags.json) json(ids.length === 1 && cmd.args.length === 1 ? tasks[0] : tasks);
  else for (const task of tasks) out(taskLine(task));
  return code;
}
