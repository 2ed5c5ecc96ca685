/**
 * The exit codes of the `forecasting` command, in one table: the help lists it, every command
 * returns one of them.
 * @module
 */

/** Exit codes by meaning. */
export const EXIT = {
  /** Done: every task completed, the webhook verified, the request succeeded. */
  ok: 0,
  /** An unexpected error (a bug, a file that cannot be read). */
  unexpected: 1,
  /** Bad usage: an unknown command or option, a missing argument, a bad value (the SDK's `ValidationError`). */
  usage: 2,
  /** The service refused the request or could not be reached (`APIError`, `APIConnectionError`); for `fleet status`, Redis. */
  api: 3,
  /** A task failed, or a batch item was rejected. */
  failed: 4,
  /** A task was cancelled. */
  cancelled: 5,
  /** The wait ran out of time (`--timeout`). */
  timeout: 6,
  /** The webhook did not verify (`webhooks verify`). */
  unverified: 7,
  /** Interrupted (Ctrl-C or SIGTERM): the wait stopped. */
  interrupted: 130,
} as const;

/** An exit code. */
export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/** The table as the help shows it. */
export const EXIT_CODE_HELP = `Exit codes:
  0    success: every task completed, the webhook verified
  1    unexpected error
  2    bad usage: unknown command or option, missing argument, bad value (ValidationError)
  3    API error: the service refused the request or could not be reached (fleet status: Redis)
  4    a task failed, or a batch item was rejected
  5    a task was cancelled
  6    the wait timed out (--timeout)
  7    the webhook did not verify
  130  interrupted (Ctrl-C or SIGTERM): the wait stopped; with --cancel-on-interrupt the tasks were cancelled`;

/**
 * An error the CLI raises itself, with its exit code; printed as one line, `UsageError: …`.
 */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: ExitCode = EXIT.usage,
    override readonly name: string = 'UsageError',
  ) {
    super(message);
  }
}
