/**
 * `forecasting forecasts show TASK_ID`: a task's result line and, once it completed, its forecast
 * drawn under it (the task as JSON with `--json`). A task not yet final is no error: the line says
 * its status and stderr how to wait for it.
 * @module
 */
import type { Command } from 'commander';
import { outTask } from '../draw.js';
import { clientFromEnv } from '../env.js';
import { CliError, EXIT, type ExitCode } from '../exit-codes.js';
import { FINAL_STATUSES, json, note } from '../output.js';
import { codeOfTasks, resumeHint } from '../waiting.js';


interface ShowFlags {
  json?: boolean;
  draw?: boolean;
}

export async function show(cmd: Command): Promise<ExitCode> {
  const flags = cmd.opts<ShowFlags>();
  const taskId = cmd.args[0];
  if (taskId === undefined || taskId.trim() === '') throw new CliError('missing the task id');
  const client = await clientFromEnv();
  const task = await client.forecasts.retrieve(taskId);
  if (flags.json) json(task);
  else outTask(task, flags.draw);
  if (!FINAL_STATUSES.has(task.status)) {
    note(`no forecast yet: the task is ${task.status}`);
    note(resumeHint([task.id], {})!);
    return EXIT.ok;
  }
  return codeOfTasks([task]);
}
