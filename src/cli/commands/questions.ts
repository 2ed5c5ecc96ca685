/**
 * `forecasting questions create|list|get|browse`. Every field of a question is a flag; the values
 * go to the SDK as typed as they can be, and the SDK's own checks refuse a bad one before anything
 * is sent (its `ValidationError` message, exit code 2).
 * @module
 */
import type { Command } from 'commander';
import type { Question, QuestionCreateParams } from '../../index.js';
import { fieldBoolean, fieldNumber, wholeNumber } from '../args.js';
import { clientFromEnv } from '../env.js';
import { CliError, EXIT, type ExitCode } from '../exit-codes.js';
import { json, out, shown } from '../output.js';

interface CreateFlags {
  type?: string;
  title?: string;
  description?: string;
  resolutionCriteria?: string;
  finePrint?: string;
  tag?: string[];
  visibility?: string;
  option?: string[];
  optionsAreMutuallyExclusive?: string;
  optionsAreComprehensive?: string;
  lowerBound?: string;
  upperBound?: string;
  scaleType?: string;
  openLowerBound?: string | boolean;
  openUpperBound?: string | boolean;
  templateId?: string;
  templateValue?: string[];
  json?: boolean;
}

/** The request body the flags describe; absent flags stay absent. */
export function createParams(f: CreateFlags): Record<string, unknown> {
  const templateValues = f.templateValue?.length
    ? Object.fromEntries(
        f.templateValue.map((pair) => {
          const at = pair.indexOf('=');
          if (at <= 0) throw new CliError(`--template-value must be key=value, got "${pair}"`);
          return [pair.slice(0, at), pair.slice(at + 1)];
        }),
      )
    : undefined;
  const body: Record<string, unknown> = {
    type: f.type,
    templateId: f.templateId,
    templateValues,
    title: f.title,
    description: f.description,
    resolutionCriteria: f.resolutionCriteria,
    finePrint: f.finePrint,
    tags: f.tag,
    visibility: f.visibility,
    options: f.option,
    optionsAreMutuallyExclusive: fieldBoolean(f.optionsAreMutuallyExclusive),
    optionsAreComprehensive: fieldBoolean(f.optionsAreComprehensive),
    lowerBound: fieldNumber(f.lowerBound, f.type),
    upperBound: fieldNumber(f.upperBound, f.type),
    scaleType: f.scaleType,
    openLowerBound: fieldBoolean(f.openLowerBound),
    openUpperBound: fieldBoolean(f.openUpperBound),
  };
  for (const key of Object.keys(body)) if (body[key] === undefined) delete body[key];
  return body;
}

/** `<id>  <type>  <title>` */
const questionLine = (q: Question) => `${shown(q.id)}  ${shown(q.type)}  ${shown(q.title)}`;

export async function create(cmd: Command): Promise<ExitCode> {
  const flags = cmd.opts<CreateFlags>();
  const body = createParams(flags);
  if (body['type'] === undefined && body['templateId'] === undefined) throw new CliError('--type is required (binary, multiple_choice, numeric, discrete or date), or --template-id');
  const client = await clientFromEnv({}, true);
  const question = await client.questions.create(body as unknown as QuestionCreateParams);
  if (flags.json) json(question);
  else out(questionLine(question));
  return EXIT.ok;
}

/** Up to `limit` items of a pager (every item with `all`). */
async function take<T>(items: AsyncIterable<T>, limit: number, all: boolean): Promise<T[]> {
  const found: T[] = [];
  if (!all && limit === 0) return found;
  for await (const item of items) {
    found.push(item);
    if (!all && found.length >= limit) break;
  }
  return found;
}

export async function list(cmd: Command): Promise<ExitCode> {
  const flags = cmd.opts<{ limit?: string; all?: boolean; json?: boolean }>();
  const limit = wholeNumber(flags.limit, '--limit') ?? 20;
  const client = await clientFromEnv();
  const found = await take(client.questions.list(flags.all ? {} : { limit: Math.min(Math.max(limit, 1), 100) }), limit, !!flags.all);
  if (flags.json) json(found);
  else for (const q of found) out(questionLine(q));
  return EXIT.ok;
}

export async function get(cmd: Command): Promise<ExitCode> {
  const flags = cmd.opts<{ json?: boolean }>();
  const client = await clientFromEnv();
  const q = await client.questions.retrieve(cmd.args[0]!);
  if (flags.json) json(q);
  else {
    out(questionLine(q));
    // Read as the service may send them: the CLI's client does not check answers against the records.
    if (Array.isArray(q.options) && q.options.length) out(`options: ${q.options.map(shown).join(' | ')}`);
    if (q.lowerBound !== null && q.lowerBound !== undefined) out(`bounds: ${shown(q.lowerBound)} to ${shown(q.upperBound)}${q.scaleType ? ` (${shown(q.scaleType)})` : ''}`);
  }
  return EXIT.ok;
}

export async function browse(cmd: Command): Promise<ExitCode> {
  const flags = cmd.opts<{ query?: string; type?: string; limit?: string; offset?: string; json?: boolean }>();
  const limit = wholeNumber(flags.limit, '--limit') ?? 20;
  const offset = wholeNumber(flags.offset, '--offset');
  const client = await clientFromEnv();
  const params = { q: flags.query, type: flags.type, offset, limit: Math.min(Math.max(limit, 1), 200) };
  const found = await take(client.questions.browse(params), limit, false);
  if (flags.json) json(found);
  else for (const q of found) out(questionLine(q));
  return EXIT.ok;
}
