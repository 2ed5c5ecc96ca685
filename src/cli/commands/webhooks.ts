/**
 * `forecasting webhooks verify --secret whsec_… --header "t=…,v1=…" < body`: verifies a webhook call
 * with the SDK's `verifyWebhook`. Prints the event (exit 0), or the reason code on stdout and one
 * error line on stderr (exit 7); with `--json`, the reason as `{"verified":false,"code","message"}`.
 * `forecasting webhooks sign --secret whsec_… < body`: the `X-Service-Signature` value the service
 * would send with that body, for a receiver's own tests in any language. Both load only the webhooks
 * entry, never the client.
 * @module
 */
import type { Command } from 'commander';
import { secondsAsMs, wholeNumber } from '../args.js';
import { CliError, EXIT, type ExitCode } from '../exit-codes.js';
import { json, note, out } from '../output.js';
import { addSecret, errorLine } from '../report.js';

/** The raw body from stdin, byte for byte. */
async function readStdin(): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

export async function verify(cmd: Command): Promise<ExitCode> {
  const flags = cmd.opts<{ secret?: string; header?: string; tolerance?: string; json?: boolean }>();
  const secret = flags.secret ?? process.env['FORECASTING_WEBHOOK_SECRET'];
  addSecret(secret);
  if (!secret) throw new CliError('--secret is required (or set FORECASTING_WEBHOOK_SECRET)');
  if (flags.header === undefined) throw new CliError('--header is required: the X-Service-Signature value, "t=<unix seconds>,v1=<hex>"');
  if (process.stdin.isTTY) throw new CliError('pipe the raw request body on stdin: forecasting webhooks verify … < body.json');
  const toleranceMs = secondsAsMs(flags.tolerance, '--tolerance');
  // Accept the header line as copied from a log, name included.
  const header = flags.header.replace(/^\s*x-service-signature\s*:\s*/i, '');
  const body = await readStdin();
  const { verifyWebhook } = await import('../../webhooks/index.js');
  try {
    const event = await verifyWebhook(body, { 'x-service-signature': header }, secret, toleranceMs === undefined ? {} : { toleranceSeconds: toleranceMs / 1000 });
    json(event);
    return EXIT.ok;
  } catch (err) {
    if (err instanceof Error && err.name === 'WebhookVerificationError') {
      const { code } = err as Error & { code: string };
      if (flags.json) json({ verified: false, code, message: err.message });
      else out(code);
      note(errorLine(err));
      return EXIT.unverified;
    }
    throw err;
  }
}

/** `forecasting webhooks sign`: the signature header of the body on stdin, one `v1` per `--secret`. */
export async function sign(cmd: Command): Promise<ExitCode> {
  const flags = cmd.opts<{ secret?: string[]; timestamp?: string }>();
  const secrets = flags.secret ?? (process.env['FORECASTING_WEBHOOK_SECRET'] ? [process.env['FORECASTING_WEBHOOK_SECRET']] : []);
  for (const secret of secrets) addSecret(secret);
  if (secrets.length === 0 || secrets.some((s) => s === '')) throw new CliError('--secret is required (or set FORECASTING_WEBHOOK_SECRET); give it twice to sign as during a rotation');
  if (process.stdin.isTTY) throw new CliError('pipe the raw request body on stdin: forecasting webhooks sign … < body.json');
  const timestamp = wholeNumber(flags.timestamp, '--timestamp');
  // Past 1e11 (the year 5138) it is milliseconds, `Date.now()` for `date +%s`: a call no receiver takes.
  if (timestamp !== undefined && !(timestamp < 1e11)) throw new CliError(`--timestamp must be whole Unix seconds (not milliseconds), got "${String(flags.timestamp)}"`);
  const body = await readStdin();
  const { signWebhook } = await import('../../webhooks/index.js');
  out(await signWebhook(body, secrets, timestamp === undefined ? {} : { timestamp }));
  return EXIT.ok;
}
