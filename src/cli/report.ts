/**
 * How the CLI ends on an error: one line on stderr, `<ErrorType>: <message>`, with the exit code of
 * its kind. The stack only with `--debug`; the API key never (replaced wherever it appears); control
 * characters of a message (the service's text) escaped, as on every output line.
 * @module
 */
import { CliError, EXIT, type ExitCode } from './exit-codes.js';
import { escapeLines, note, waitCommand } from './output.js';

/** Every secret the line must not show: the API key and the webhook secret from the environment, and those given as flags. */
const secrets = new Set<string>();

/**
 * Adds a value the lines must never show, however short: a password of three characters is still a
 * password (its redaction may mark more than the secret; it never shows it).
 */
export function addSecret(value: string | undefined): void {
  if (value) secrets.add(value);
}

/** A secret's start this long or longer is redacted too: the SDK clips a long message, and the cut may fall inside the key. */
const MIN_SECRET_PREFIX = 8;

/**
 * `text` with every known secret replaced; the longest first, so a short secret inside a longer one
 * leaves none of it. A secret cut short where a message was clipped (its first 8 characters or more,
 * up to the end of the text) is replaced too.
 */
export function redact(text: string): string {
  let out = text;
  for (const secret of [...secrets].sort((a, b) => b.length - a.length)) {
    out = out.split(secret).join('[redacted]');
    for (let n = secret.length - 1; n >= MIN_SECRET_PREFIX; n--) {
      const at = out.lastIndexOf(secret.slice(0, n));
      // Only where it runs to the end of the text or to the clipping mark the SDK writes after it.
      // (One run of spaces before the mark: two in a row would backtrack quadratically on a long gap.)
      if (at >= 0 && /^(…|\.\.\.|\s*(?:…\s*)?\(\d+ more characters?\)|\s*$)/.test(out.slice(at + n))) {
        out = `${out.slice(0, at)}[redacted]${out.slice(at + n)}`;
        break;
      }
    }
  }
  return out;
}

/** A usage error the SDK carried as a request's cause (a variable unset: `clientFromEnv`), else `err`. */
const unwrapped = (err: unknown): unknown => (err instanceof Error && err.name === 'APIConnectionError' && err.cause instanceof CliError ? err.cause : err);

/** The exit code for an error, by its kind. The SDK's classes are read by name: loading the SDK for this would slow down usage errors. */
export function exitCodeOf(err: unknown): ExitCode {
  err = unwrapped(err);
  if (err instanceof CliError) return err.exitCode;
  const name = err instanceof Error ? err.name : '';
  if (name === 'ValidationError') return EXIT.usage;
  if (name === 'WaitTimeoutError') return EXIT.timeout;
  if (name === 'WebhookVerificationError') return EXIT.unverified;
  if (name === 'ContextFileFailedError') return EXIT.failed;
  if (name === 'ContextWaitTimeoutError') return EXIT.timeout;
  // APIError and its subclasses carry a status; APIConnectionError and APITimeoutError do not, but are named so.
  if (err instanceof Error && (typeof (err as { status?: unknown }).status === 'number' || /^API(Connection|Timeout)Error$/.test(name) || name === 'InvalidResponseError')) {
    return EXIT.api;
  }
  return EXIT.unexpected;
}

/** The one line for an error: its type, its message on one line, the request id when the service gave one. */
export function errorLine(err: unknown): string {
  err = unwrapped(err);
  if (!(err instanceof Error)) return `Error: ${redact(String(err))}`;
  const requestId = (err as { requestId?: unknown }).requestId;
  const code = (err as { code?: unknown }).code;
  // A refused webhook call's reason code leads its message, as an API error's status and type do.
  const reason = err.name === 'WebhookVerificationError' && typeof code === 'string' ? `${code}: ` : '';
  const message = err.message.replace(/\s*\n\s*/g, ' ').trim();
  return redact(`${err.name}: ${reason}${message}${typeof requestId === 'string' ? ` [request ${requestId}]` : ''}`);
}

/** Writes the error line (and, with `debug`, the stack and cause), and returns the exit code. */
export function report(err: unknown, debug = process.argv.includes('--debug')): ExitCode {
  err = unwrapped(err);
  note(errorLine(err));
  // A forecast already running on the question: the answer names it, and it can be waited for.
  const running = err instanceof Error ? (err as { activeTaskId?: unknown }).activeTaskId : undefined;
  if (typeof running === 'string' && running !== '') note(`The forecast running: ${running}. Wait for it: ${waitCommand([running])}`);
  if (debug && err instanceof Error) {
    process.stderr.write(`${escapeLines(redact(err.stack ?? ''))}\n`);
    if (err.cause !== undefined) process.stderr.write(`${escapeLines(`cause: ${redact(err.cause instanceof Error ? (err.cause.stack ?? String(err.cause)) : String(err.cause))}`)}\n`);
  }
  return exitCodeOf(err);
}
