/**
 * `forecasting forecast QUESTION_ID` starts a forecast (prints its task id, or the task with
 * `--json`); `--from-file questions.jsonl` starts one per line with `createMany`; `--wait` then
 * waits for them (`waitMany` for several) and prints one line per task.
 * @module
 */
import { createReadStream } from 'node:fs';
import type { Command } from 'commander';
import type { ForecastCreateParams, ForecastingClient } from '../../index.js';
import { secondsAsMs } from '../args.js';
import { clientFromEnv } from '../env.js';
import { CliError, EXIT, type ExitCode } from '../exit-codes.js';
import { outTask } from '../draw.js';
import { json, note, out, type TaskLike } from '../output.js';
import { Interrupts, waitFor, type WaitFlags } from '../waiting.js';

interface ForecastFlags extends WaitFlags {
  runMode?: string;
  presetId?: string;
  fromFile?: string;
  wait?: boolean;
  /** `--no-draw` sets it false: the result lines only. */
  draw?: boolean;
}

export async function forecast(cmd: Command): Promise<ExitCode> {
  const flags = cmd.opts<ForecastFlags>();
  const questionId = cmd.args[0];
  if (questionId !== undefined && flags.fromFile !== undefined) throw new CliError('give a question id or --from-file, not both');
  if (questionId === undefined && flags.fromFile === undefined) throw new CliError('missing the question id (or --from-file questions.jsonl)');
  const waitOnly = ['timeout', 'waitForReport', 'cancelOnInterrupt'].filter((k) => flags[k as keyof ForecastFlags] !== undefined);
  if (!flags.wait && waitOnly.length > 0) throw new CliError(`--${waitOnly[0]!.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)} needs --wait`);
  if (!flags.wait && flags.draw === false) throw new CliError('--no-draw needs --wait');
  // Checked before anything starts: a typo found after the start would leave a task running, charged and unnamed.
  secondsAsMs(flags.timeout, '--timeout');
  if (flags.fromFile !== undefined) return fromFile(flags.fromFile, flags);

  const client = await clientFromEnv({}, true);
  // With --wait, a signal from here on lets the start finish, then names the task.
  const interrupts = flags.wait ? new Interrupts() : undefined;
  const task = await client.forecasts.create(runParams({ questionId }, flags));
  if (!interrupts) {
    if (flags.json) json(task);
    else out(task.id);
    return EXIT.ok;
  }
  const { tasks, code } = await waitFor(client, [task.id], flags, interrupts);
  if (tasks && flags.json) json(tasks[0]);
  else if (tasks) outTask(tasks[0]!, flags.draw);
  return code;
}

/** The item with the run flags as defaults (a line's own `runMode` or `presetId` wins). */
function runParams(item: Record<string, unknown>, flags: ForecastFlags): ForecastCreateParams {
  return { ...(flags.runMode !== undefined ? { runMode: flags.runMode } : {}), ...(flags.presetId !== undefined ? { presetId: flags.presetId } : {}), ...item } as ForecastCreateParams;
}

/** The largest `--from-file` read: 64 MiB is some 300,000 forecast lines, far past a run's credits. */
const MAX_FILE_BYTES = 64 * 1024 * 1024;

/**
 * The lines of a JSONL file as forecast bodies: `{questionId}` or `{question}` as they are, a bare
 * question definition as `{question}`. UTF-8, with or without a byte-order mark (Notepad and Excel
 * write one); UTF-16 is refused by name rather than read as noise. With each item, its line in the
 * file: blank lines are skipped, so the item's place in the batch is not its line.
 */
async function readItems(path: string, flags: ForecastFlags): Promise<{ items: ForecastCreateParams[]; lines: number[] }> {
  const parts: Buffer[] = [];
  let size = 0;
  try {
    // Read up to a cap, not whole: a path that never ends (/dev/zero, a pipe left open) filled memory.
    for await (const chunk of createReadStream(path) as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > MAX_FILE_BYTES) throw new CliError(`--from-file ${path} is over ${MAX_FILE_BYTES / 1024 / 1024} MiB: split it into smaller files`);
      parts.push(chunk);
    }
  } catch (err) {
    if (err instanceof CliError) throw err;
    throw new CliError(`cannot read --from-file ${path}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
  const bytes = Buffer.concat(parts);
  if ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff)) throw new CliError(`${path} is UTF-16 text: save it as UTF-8`);
  const text = bytes.toString('utf8').replace(/^\uFEFF/, '');
  const items: ForecastCreateParams[] = [];
  const lines: number[] = [];
  text.split(/\r?\n/).forEach((line, i) => {
    if (line.trim() === '') return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (err) {
      // The parser's message quotes the line; the line may be anything (a secret pasted by mistake): the quote is left out.
      throw new CliError(`${path} line ${i + 1}: not JSON (${(err as Error).message.replace(/"(?:[^"\\]|\\.)*"(?:\.\.\.)?/g, '…')})`);
    }
    if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new CliError(`${path} line ${i + 1}: expected a JSON object`);
    const record = value as Record<string, unknown>;
    const isForecast = 'questionId' in record || 'question' in record;
    items.push(runParams(isForecast ? record : { question: record }, flags));
    lines.push(i + 1);
  });
  if (items.length === 0) throw new CliError(`${path} holds no lines to forecast`);
  await warnUnknownKeys(path, items, lines);
  return { items, lines };
}

/**
 * A key of a line that no field is named after goes to the service as it is, but is most likely a
 * typo that would be dropped in silence: one warning on stderr per key (the SDK's own words), at
 * its first line.
 */
async function warnUnknownKeys(path: string, items: readonly ForecastCreateParams[], lines: readonly number[]): Promise<void> {
  const { unknownFields } = await import('../../index.js');
  const warned = new Set<string>();
  for (const [i, item] of items.entries()) {
    for (const { field, message } of await unknownFields('forecasts.create', item)) {
      if (warned.has(field)) continue;
      warned.add(field);
      note(`${path} line ${lines[i]}: ${message}`);
    }
  }
}

/** One line per item: `<task id>  <status>  …` for a started one, `rejected  <line>  <message>` for a refused one. */
async function fromFile(path: string, flags: ForecastFlags): Promise<ExitCode> {
  const { items, lines } = await readItems(path, flags);
  const client: ForecastingClient = await clientFromEnv({}, true);
  // With --wait, a signal during the starts lets them finish, then names the tasks they started.
  const interrupts = flags.wait ? new Interrupts() : undefined;
  const results = await client.forecasts.createMany(items);
  const accepted = results.flatMap((r) => (r.status === 'accepted' && r.taskId ? [r.taskId] : []));
  const rejected = results.filter((r) => !(r.status === 'accepted' && r.taskId));
  let tasks: TaskLike[] | undefined;
  let code: ExitCode = EXIT.ok;
  if (interrupts && accepted.length > 0) ({ tasks, code } = await waitFor(client, accepted, flags, interrupts));
  else if (interrupts?.received) code = EXIT.interrupted;
  const byId = new Map((tasks ?? []).map((t) => [t.id ?? t.taskId, t]));
  // The line is named: its batch index (`items.1.`, counted from 0) would be a second numbering.
  const reason = (r: (typeof results)[number]) => (r.error?.message ?? '').replaceAll(`items.${r.index}.`, '');
  if (flags.json) {
    json(results.map((r) => ({ ...r, line: lines[r.index], ...(r.error ? { error: { ...r.error, message: reason(r) } } : {}), ...(r.taskId && byId.has(r.taskId) ? { task: byId.get(r.taskId) } : {}) })));
  } else {
    for (const r of results) {
      const task = r.taskId ? byId.get(r.taskId) : undefined;
      if (task) outTask(task, flags.draw);
      else if (r.status === 'accepted') out(`${r.taskId}  started`);
      else out(`rejected  line ${lines[r.index]}  ${reason(r)}`.trimEnd());
    }
  }
  // A refused line is a failure unless something worse happened (a timeout, an interrupt).
  if (rejected.length > 0 && (code === EXIT.ok || code === EXIT.cancelled)) return EXIT.failed;
  return code;
}
