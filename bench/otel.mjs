// The cost of observability on one GET against a local server: the SDK with ForecastingInstrumentation
// off (nobody subscribes to the channels: the client takes the path it has when the instrumentation
// is never loaded) against the same client with it on (a real tracer and meter provider, spans
// batched and handed to an exporter that drops them, metrics recorded and never collected),
// interleaved in rounds in one run, with ky alone as the yardstick. As in an application that runs
// OpenTelemetry (NodeSDK registers one), an async-hooks context manager is registered for every variant.
// Targets: off is the client's usual cost over ky (bench/throughput.mjs); on costs at most 15 % over off.
import ky from 'ky';
import { context, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { MeterProvider, MetricReader } from '@opentelemetry/sdk-metrics';
import { BasicTracerProvider, BatchSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { ForecastingClient } from '../dist/index.js';
import { ForecastingInstrumentation } from '../dist/otel/index.js';
import { CONCURRENCY, inRounds, QUESTION_ID, startQuestionServer } from './lib/question-server.mjs';

// Many short rounds: the two variants differ by less than this machine's drift over a long sample,
// and a ratio taken within a round of 600 calls pairs them closely (BENCH_CALLS, BENCH_ROUNDS override).
const CALLS = Number(process.env.BENCH_CALLS ?? 600);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 61);

const server = await startQuestionServer();
const key = 'pre_bench_key';

/** An exporter that takes every span and keeps none: what is measured is the instrumentation and the SDK's processing, not an export. */
const dropping = { export: (_spans, done) => done({ code: 0 }), shutdown: () => Promise.resolve() };
/** A reader nobody collects: the metrics are recorded, never exported. */
class IdleReader extends MetricReader {
  onForceFlush() {
    return Promise.resolve();
  }
  onShutdown() {
    return Promise.resolve();
  }
}
context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
// Its async hooks run from the first context entered (in an application, its first traced request).
await context.with(context.active(), async () => undefined);
const tracerProvider = new BasicTracerProvider({ spanProcessors: [new BatchSpanProcessor(dropping)] });
trace.setGlobalTracerProvider(tracerProvider);
const instrumentation = new ForecastingInstrumentation({ enabled: false });
instrumentation.setTracerProvider(tracerProvider);
instrumentation.setMeterProvider(new MeterProvider({ readers: [new IdleReader()] }));

const kyClient = ky.create({ prefixUrl: server.baseURL, retry: 0, headers: { authorization: `Bearer ${key}` } });
const sdk = new ForecastingClient({ apiKey: key, baseURL: server.baseURL, logLevel: 'off' });
const variants = {
  ky: () => kyClient.get(`questions/${QUESTION_ID}`).json(),
  'instrumentation off': () => sdk.questions.retrieve(QUESTION_ID),
  'instrumentation on': () => sdk.questions.retrieve(QUESTION_ID),
};
const { median, paired } = await inRounds(variants, {
  setUp: (name) => name === 'instrumentation on' && instrumentation.enable(),
  tearDown: () => instrumentation.disable(),
  calls: CALLS,
  rounds: ROUNDS,
});
server.stop();
await tracerProvider.shutdown();

console.log(`\nThroughput of one GET with and without ForecastingInstrumentation (${CALLS} calls, ${CONCURRENCY} at a time, median of ${ROUNDS} rounds):\n`);
console.log('| variant | calls/s | vs ky |');
console.log('| --- | ---: | ---: |');
for (const name of Object.keys(variants)) console.log(`| ${name} | ${median(name).toFixed(0)} | ${(median(name) / median('ky')).toFixed(2)}× |`);
// Round by round (each round runs every variant back to back), then the median: drift cancels out.
const overhead = 1 / paired('instrumentation on', 'instrumentation off') - 1;
console.log(`\nOff against ky (median of per-round ratios): ${paired('instrumentation off', 'ky').toFixed(2)}× (the client's own cost, as bench/throughput.mjs measures it)`);
console.log(`On over off (median of per-round ratios): ${(overhead * 100).toFixed(1)} % (target ≤ 15 %) — ${overhead <= 0.15 ? 'met' : 'MISSED'}`);
