#!/usr/bin/env node
/**
 * `forecasting`: the command-line tool of the Forecasting SDK. This file declares every command and
 * option (so `--help` needs nothing else) and loads a command's code only when it runs: the SDK,
 * the mock and the progress display are dynamic imports, so `forecasting --help` starts in
 * milliseconds and `webhooks verify` never loads the client.
 * @module
 */
import { Command, CommanderError, Option } from 'commander';
import { VERSION } from '../version.js';
import { EXIT, EXIT_CODE_HELP, type ExitCode } from './exit-codes.js';
import { note } from './output.js';
import { addSecret, redact, report } from './report.js';

/** Each command's code, loaded when it runs. */
const load = {
  questions: () => import('./commands/questions.js'),
  forecast: () => import('./commands/forecast.js'),
  forecasts: () => import('./commands/forecasts.js'),
  wait: () => import('./commands/wait.js'),
  webhooks: () => import('./commands/webhooks.js'),
  mock: () => import('./commands/mock.js'),
  fleet: () => import('./commands/fleet.js'),
  console: () => import('./commands/console.js'),
};

const ENV_HELP = `Environment:
  FORECASTING_API_KEY     the API key (pre_…); never printed
  FORECASTING_BASE_URL    the service address, ending in /api/v1/external`;

/** Collects a repeatable option's values. */
const collect = (value: string, previous: string[] = []) => [...previous, value];

let exitCode: ExitCode = EXIT.ok;
/** Runs a command's code and keeps its exit code. */
const run = (fn: (cmd: Command) => Promise<ExitCode>) => async (...args: unknown[]) => {
  exitCode = await fn(args[args.length - 1] as Command);
};

const program = new Command('forecasting')
  .description('Forecasts from the shell and CI jobs, and the Forecasting mock service as a local server for any language.')
  .version(VERSION, '-v, --version', 'print the version')
  .helpOption('-h, --help', 'show help for a command')
  .option('--debug', 'on an error, also print its stack')
  .exitOverride()
  .configureOutput({ outputError: () => undefined })
  .showSuggestionAfterError(true)
  .addHelpText('after', `\n${ENV_HELP}\n\n${EXIT_CODE_HELP}\n\nRun "forecasting <command> --help" for a command's options.`);

/** What the waiting commands' help says about tasks left running. */
const RESUME_HELP = 'A wait that ends with tasks still running (timeout, interrupt, error) names them as the last line on stderr:\n  "2 task(s) still running; resume with: forecasting wait <id> <id>"';

// Options shared by the commands that wait for tasks.
const waitOptions = (cmd: Command) =>
  cmd
    .option('--timeout <seconds>', 'stop waiting after this many seconds (exit code 6)')
    .option('--wait-for-report', 'also wait for the report of a completed task')
    .addOption(new Option('--progress <mode>', 'progress display: auto (a bar per task on a terminal, plain lines otherwise), tty, plain, none').choices(['auto', 'tty', 'plain', 'none']).default('auto'))
    .option('--cancel-on-interrupt', 'on Ctrl-C, also cancel the tasks still running')
    .option('--json', 'print the final task(s) as JSON');

// questions
const questions = program.command('questions').description('create, list, read and search questions');
questions
  .command('create')
  .description('create a question; every field of its type is a flag, checked by the SDK before sending')
  .option('--type <type>', 'binary, multiple_choice, numeric, discrete or date')
  .option('--title <text>', 'the question, 1 to 500 characters')
  .option('--description <text>', 'background for the forecaster')
  .option('--resolution-criteria <text>', 'what makes the question resolve')
  .option('--fine-print <text>', 'the small print')
  .option('--tag <tag>', 'a tag (repeat for more, up to 20)', collect)
  .option('--visibility <visibility>', 'private (default) or organization')
  .option('--option <text>', 'a multiple_choice option (repeat: 2 to 200 distinct)', collect)
  .option('--options-are-mutually-exclusive <bool>', 'multiple_choice: at most one option can be true (default true)')
  .option('--options-are-comprehensive <bool>', 'multiple_choice: some option must be true (default true)')
  .option('--lower-bound <value>', 'numeric, discrete, date: the lower bound (a date takes Unix seconds or an ISO date)')
  .option('--upper-bound <value>', 'numeric, discrete, date: the upper bound')
  .option('--scale-type <scale>', 'numeric: linear or logarithmic')
  .option('--open-lower-bound [bool]', 'the answer may fall below the lower bound')
  .option('--open-upper-bound [bool]', 'the answer may fall above the upper bound')
  .option('--template-id <id>', 'build from a template instead of a type')
  .option('--template-value <key=value>', 'a template blank (repeat for more)', collect)
  .option('--json', 'print the created question as JSON')
  .addHelpText('after', `\nExamples:\n  forecasting questions create --type binary --title "Will it rain in Paris tomorrow?"\n  forecasting questions create --type numeric --title "Brent on 1 June?" --lower-bound 40 --upper-bound 140 --scale-type linear\n  forecasting questions create --type multiple_choice --title "Who wins?" --option A --option B --option C`)
  .action(run(async (cmd) => (await load.questions()).create(cmd)));
questions
  .command('list')
  .description('list your questions, newest first')
  .option('--limit <n>', 'how many to print (default 20)')
  .option('--all', 'print every question, page after page')
  .option('--json', 'print the questions as a JSON array')
  .action(run(async (cmd) => (await load.questions()).list(cmd)));
questions
  .command('get')
  .description('read one question')
  .argument('<question-id>', 'the question id')
  .option('--json', 'print the question as JSON')
  .action(run(async (cmd) => (await load.questions()).get(cmd)));
questions
  .command('browse')
  .description('search the questions you can see')
  .option('--query <text>', 'text to find in titles')
  .option('--type <types>', 'question types to keep, comma-separated')
  .option('--limit <n>', 'how many to print (default 20)')
  .option('--offset <n>', 'skip this many first')
  .option('--json', 'print the questions as a JSON array')
  .action(run(async (cmd) => (await load.questions()).browse(cmd)));

// forecast
waitOptions(
  program
    .command('forecast')
    .description('start a forecast on a question, or one per line of a JSONL file; with --wait, wait for them')
    .argument('[question-id]', 'the question to forecast')
    .option('--run-mode <mode>', 'light, moderate, standard, deep or max (default: the organization\'s)')
    .option('--preset-id <id>', 'the forecast preset to use')
    .option('--from-file <path>', 'a JSONL file: one forecast per line ({"questionId": …}, {"question": {…}}, or a question definition)')
    .option('--wait', 'wait until the task(s) are final')
    .option('--no-draw', 'with --wait: the result lines only, no picture of each forecast under its line'),
)
  .addHelpText('after', `\n${EXIT_CODE_HELP}\n\n${RESUME_HELP}\n\nExamples:\n  TASK=$(forecasting forecast "$QUESTION_ID" --run-mode light)\n  forecasting forecast "$QUESTION_ID" --wait --json > task.json\n  forecasting forecast --from-file questions.jsonl --wait`)
  .action(run(async (cmd) => (await load.forecast()).forecast(cmd)));

// forecasts
const forecasts = program.command('forecasts').description('read forecast tasks');
forecasts
  .command('show')
  .description("print a task's result line and, once it completed, its forecast drawn under it: a bar per outcome, or the distribution with p10, p50 and p90")
  .argument('<task-id>', 'the task to show')
  .option('--no-draw', 'the result line only')
  .option('--json', 'print the task as JSON')
  .addHelpText('after', `\nDrawn in Unicode blocks on a terminal, in ASCII when piped or with NO_COLOR or TERM=dumb; as wide as the terminal (COLUMNS when piped, else 80).\nExit code 0 for a completed task or one still running (stderr says how to wait for it), 4 failed, 5 cancelled.\n\nExample:\n  forecasting forecasts show "$TASK"`)
  .action(run(async (cmd) => (await load.forecasts()).show(cmd)));

// wait
waitOptions(program.command('wait').description('wait for tasks until they are final: a live bar per task on a terminal, plain lines otherwise').argument('<task-id...>', 'the tasks to wait for'))
  .addHelpText('after', `\n${EXIT_CODE_HELP}\n\n${RESUME_HELP}`)
  .action(run(async (cmd) => (await load.wait()).wait(cmd)));

// webhooks
const webhooks = program.command('webhooks').description('webhook tools');
webhooks
  .command('verify')
  .description('verify a webhook call: the raw body on stdin, the signature header as --header; prints the event, or the reason it failed')
  .option('--secret <whsec>', 'the signing secret (default: $FORECASTING_WEBHOOK_SECRET)')
  .option('--header <value>', 'the X-Service-Signature header: "t=<unix seconds>,v1=<hex>"')
  .option('--tolerance <seconds>', 'how old (or early) the timestamp may be (default 300)')
  .option('--json', 'on failure, print {"verified":false,"code","message"} instead of the bare code (the event is JSON either way)')
  .addHelpText('after', `\nExit code 0 and the event on stdout, or the reason code on stdout and exit code 7:\n  missing_header, malformed_header, timestamp_out_of_range, no_matching_signature, malformed_payload\n\nExample:\n  forecasting webhooks verify --secret "$SECRET" --header "$SIGNATURE" < body.json`)
  .action(run(async (cmd) => (await load.webhooks()).verify(cmd)));
webhooks
  .command('sign')
  .description('sign a body as the service does: the raw body on stdin; prints the X-Service-Signature value, for testing a receiver in any language')
  .option('--secret <whsec>', 'the signing secret (default: $FORECASTING_WEBHOOK_SECRET); each one given adds its v1, as during a rotation', (value: string, given: string[] = []) => [...given, value])
  .option('--timestamp <unix seconds>', 'the t to sign, in seconds (default: now)')
  .addHelpText('after', `\nExit code 0 and the header value on stdout.\n\nExample:\n  sig=$(forecasting webhooks sign --secret "$SECRET" < body.json) && curl -H "X-Service-Signature: $sig" --data-binary @body.json http://127.0.0.1:8000/webhooks`)
  .action(run(async (cmd) => (await load.webhooks()).sign(cmd)));

// mock
program
  .command('mock')
  .description('run the stateful mock service on 127.0.0.1 for integration tests in any language; stops on Ctrl-C or SIGTERM')
  .option('--port <n>', 'the port (default: a free one)')
  .option('--host <address>', 'the address to listen on: 127.0.0.1 (default), ::1, or 0.0.0.0 so a container or another machine can reach it')
  .option('--allow-loopback-receivers', 'accept webhooks at http://127.0.0.1:<port>/… and really call them, signed (any --host: only loopback receivers are called)')
  .option('--manual-clock', 'mock time stands still until POST /__mock/clock/advance moves it (instead of --time-scale)')
  .option('--time-scale <x>', 'mock time runs this many times faster than real time (default 600); Retry-After is in real seconds')
  .option('--seed <seed>', 'make forecast numbers reproducible from run to run')
  .option('--rate-limit <n>', "answer 429 rate_limit_error past n requests a minute per key, as the service does (the spec's default is 60; off by default)")
  .option('--request-log-limit <n>', 'the most requests GET /__mock/requests keeps, the oldest dropped past it (default 10000)')
  .option('--api-key <key>', 'the key the mock accepts (default: a generated pre_mock_… key)')
  .option('--openapi <file>', 'serve this OpenAPI document at /openapi.json (default: the package\'s own, when this build has one)')
  .option('--json', 'print the address and key as one JSON line')
  .addHelpText('after', `\nPrints "export FORECASTING_BASE_URL=…" and "export FORECASTING_API_KEY=…" (paste them into a shell), or one JSON line with --json, then serves until stopped.\nControl routes under /__mock (the same key) set outcomes and credits, move the clock, inject faults: GET /__mock lists them.`)
  .action(run(async (cmd) => (await load.mock()).mock(cmd)));

// fleet
const fleet = program.command('fleet').description('the processes that share one key through a Redis coordinator (forecasting-sdk/redis)');
fleet
  .command('status')
  .description('print the shared state: requests in the window, active slots and their tasks, starts waiting, receivers seen, events published and deduplicated, mode')
  .option('--redis <url>', 'the Redis the coordinators share: redis://host:6379 (default: $REDIS_URL; needs the `redis` package installed)')
  .option('--prefix <prefix>', 'the key namespace given to createRedisCoordinator (default: derived from the hash of $FORECASTING_API_KEY, as the coordinator does)')
  .option('--cluster', '--redis is one node of a Redis Cluster: the others are found from it')
  .option('--sentinel <name>', '--redis is a sentinel (redis://host:26379) and <name> the primary it monitors')
  .option('--user-prefix <name>', "the userPrefix given to createRedisCoordinator, when the keys of one user share its slots (default: the key's namespace)")
  .option('--time-scale <x>', "a fleet of clients of a sped-up mock (forecasting mock --time-scale 600, clientClockFor(600)): count the window in the mock's minute (default 1)")
  .option('--json', 'print the stats as JSON')
  .addHelpText('after', `\nExit code 0 and the stats; 2 for bad usage (no --redis nor REDIS_URL, no namespace, redis not installed); 3 when Redis cannot be reached.\n\nExamples:\n  forecasting fleet status                      # the Redis of $REDIS_URL, the namespace of $FORECASTING_API_KEY\n  forecasting fleet status --redis redis://127.0.0.1:6390 --json`)
  .action(run(async (cmd) => (await load.fleet()).status(cmd)));

// console
program
  .command('console')
  .description('a local web console over the service (or the mock): questions and their forecasts drawn, tasks live, webhooks and deliveries with replay, credits; serves on 127.0.0.1 until Ctrl-C')
  .option('--port <n>', 'the port on 127.0.0.1 (default: a free one)')
  .option('--open', 'open the console in the default browser')
  .addHelpText('after', `\nPrints the address with a one-time access token as its first line ("http://127.0.0.1:<port>/<secret path>/?token=…"). The key stays in this process: the browser never gets it.\nOnly 127.0.0.1, under a secret path no other local server can see; requests need the session, this server's own Host, and a same-origin Origin for every change.\n\nExample:\n  forecasting console --open`)
  .action(run(async (cmd) => (await load.console()).consoleCommand(cmd)));

/** A usage error from commander as one line: its message without the "error: " prefix, and where to look; the secrets blanked (commander quotes a bad value as typed). */
function usageLine(err: CommanderError): string {
  const message = err.message.replace(/^error:\s*/, '').replace(/\s*\n\s*/g, ' ').trim();
  return redact(`UsageError: ${message} (see --help)`);
}

// A reader that stops early (`forecasting questions list | head -1`) closes the pipe: that is the end, not an error.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code === 'EPIPE') process.exit(process.exitCode ?? EXIT.ok);
    throw err;
  });
}

async function main(): Promise<void> {
  // The environment's secrets, before anything can quote them: a value typed in the wrong place
  // (`--limit "$FORECASTING_API_KEY"`) is echoed by the usage error, which comes before any client.
  addSecret(process.env['FORECASTING_API_KEY']);
  addSecret(process.env['FORECASTING_WEBHOOK_SECRET']);
  try {
    await program.parseAsync(process.argv);
    process.exitCode = exitCode;
  } catch (err) {
    if (err instanceof CommanderError) {
      // --help and --version end here with 0; `forecasting` alone shows the help, as bad usage.
      if (err.code === 'commander.helpDisplayed' || err.code === 'commander.version') process.exitCode = EXIT.ok;
      else if (err.code === 'commander.help' || err.code === 'commander.executeSubCommandAsync') process.exitCode = EXIT.usage;
      else {
        note(usageLine(err));
        process.exitCode = EXIT.usage;
      }
      return;
    }
    process.exitCode = report(err);
  }
}

void main().catch((err: unknown) => {
  process.exitCode = report(err) || EXIT.unexpected;
});

