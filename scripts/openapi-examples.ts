/**
 * Makes `src/openapi-data.json`, what the OpenAPI document takes from outside the declarations: each
 * operation's summary (the purpose column of `spec/operations.tsv`) and its examples, recorded from
 * the mock service. The mock runs in-process on a `ManualClock`, with its ids and secrets drawn from a
 * seeded generator, so the same code records the same file. One call per operation at least, in an
 * order that makes each possible (a question before its forecast, a completed forecast before a chat).
 *
 * Not run by the build: `test/openapi-examples.test.ts` records again and fails when the committed
 * file differs; `npx vitest run test/openapi-examples.test.ts -u` writes it anew.
 * @module
 */
import { readFileSync } from 'node:fs';
import { declaredOperations } from '../src/api/index.js';
import type { OpenApiData, RecordedExchange } from '../src/openapi.js';
import { createMockService, GENERATION_MS, LINK_DRAFT_MS, ManualClock, TEMPLATE_FILE_PROCESSING_MS, FILE_PROCESSING_MS, type MockService } from '../src/testing/index.js';

/** The address the examples are recorded at: the default of the document's `{base_url}`. */
export const EXAMPLE_BASE_URL = 'https://forecasting.example/api/v1/external';
const API_KEY = 'pre_example_key';
/** Response headers worth showing: the ones the document declares. */
const SHOWN_HEADERS = ['retry-after', 'idempotent-replayed'];

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
type Query = Record<string, string | number | boolean | string[]>;
interface Call {
  /** Path parameters by their name in the template. */
  path?: Record<string, string>;
  query?: Query;
  body?: unknown;
  /** A multipart body: `file` is the file's text. */
  form?: Record<string, string>;
  headers?: Record<string, string>;
  /** Names the example when an operation records more than one. */
  name?: string;
  /** `false`: a step of the setup, not an example (the operation has one already). */
  record?: false;
}

/** The summaries: the purpose of each `METHOD path` in `spec/operations.tsv`. */
export function specSummaries(tsv = readFileSync(new URL('../spec/operations.tsv', import.meta.url), 'utf8')): Map<string, string> {
  const [header, ...rows] = tsv.trim().split('\n').map((line) => line.split('\t'));
  const column = (name: string) => header!.indexOf(name);
  return new Map(rows.map((r) => [`${r[column('method')]} ${r[column('path')]}`, r[column('purpose')]!]));
}

/** Records the summaries and examples of every declared operation, and one call of each webhook event kind. */
export async function recordOpenApiData(): Promise<OpenApiData> {
  const summaries = specSummaries();
  const exchanges = await withSeededRandomness(record);
  const operations: OpenApiData['operations'] = {};
  const missing: string[] = [];
  for (const op of declaredOperations) {
    const key = `${op.method} ${op.path}`;
    const summary = summaries.get(key);
    const examples = exchanges.operations.get(key);
    if (!summary || !examples) missing.push(`${key}${summary ? '' : ' (no purpose in spec/operations.tsv)'}${examples ? '' : ' (never called)'}`);
    else operations[key] = { summary, examples };
  }
  if (missing.length > 0) throw new Error(`Operations without a summary or an example:\n${missing.join('\n')}`);
  return { operations, webhooks: exchanges.webhooks };
}

/** Drives the mock through every operation, keeping each exchange. */
async function record(): Promise<{ operations: Map<string, RecordedExchange[]>; webhooks: OpenApiData['webhooks'] }> {
  const clock = new ManualClock();
  const service = createMockService({
    clock,
    seed: 'openapi',
    apiKeys: [{ key: API_KEY, organizationAdmin: true }],
    // The signature's `t` on the mock clock, so the recorded signature is the same in every run.
    webhooks: { realTime: () => clock.now() },
  });
  const operations = new Map<string, RecordedExchange[]>();
  const call = (key: string, init: Call = {}) => exchange(service, operations, key, init);
  const later = (ms: number) => clock.advance(ms);
  const MINUTE = 60_000;

  // Webhooks first, so the forecasts below send their events.
  const hook = await call('POST /webhooks', {
    body: { url: 'https://hooks.example.com/forecasting', description: 'Forecast events for the reporting job', eventKinds: ['forecast.started', 'forecast.completed', 'forecast.failed', 'forecast.cancelled', 'forecast.report.completed'] },
  });

  // Questions.
  const rain = await call('POST /questions', {
    body: { type: 'binary', title: 'Will it rain in Paris on 1 June 2027?', resolutionCriteria: 'YES if Météo-France records at least 1 mm at Paris-Montsouris on 1 June 2027.', tags: ['weather'] },
  });
  const q = { question_id: rain.id as string };
  await call('GET /questions', { query: { limit: 1 } });
  await call('GET /questions/{question_id}', { path: q });
  await call('PATCH /questions/{question_id}', { path: q, body: { description: 'Any measurable rain counts, day or night.' } });
  await call('GET /questions/browse', { query: { q: 'rain', type: ['binary'], limit: 1, offset: 0 } });
  const imported = await call('POST /questions/import', { body: { reference: 'https://market.example/questions/will-the-ecb-cut-rates-in-june-2027' } });
  const draft = await call('POST /questions/normalize', { body: { title: 'bitcoin above 100k next summer?' } });
  await call('POST /questions/normalize/clarify', { body: { title: 'bitcoin above 100k next summer?', answer: 'The Coinbase BTC-USD daily close, any day from 21 June to 22 September 2027' } });
  await call('POST /questions/normalize/revise', { body: { question: draft.question, guidance: 'Resolve on the Coinbase close, not the intraday high.' } });
  await call('GET /tags', { query: { limit: 2 } });

  // Forecasts: one completes, one is cancelled, a batch is started and cancelled, one fails.
  await call('GET /run-modes', { query: { limit: 5 } });
  const task = await call('POST /forecasts', { body: { questionId: rain.id, runMode: 'light' }, headers: { 'Idempotency-Key': 'rain-paris-2027-06-01' } });
  const t = { task_id: task.id as string };
  later(MINUTE);
  await call('GET /forecasts/{task_id}', { path: t, name: 'running' });
  later(10 * MINUTE);
  await call('GET /forecasts/{task_id}', { path: t, name: 'completed' });
  await call('GET /forecasts', { query: { status: ['completed'], limit: 1 } });
  const second = await call('POST /questions/{question_id}/forecasts', { path: q, body: { runMode: 'light', presetId: 'none' } });
  await call('POST /forecasts/{task_id}/cancel', { path: { task_id: second.id } });
  await call('GET /questions/{question_id}/forecasts', { path: q, query: { limit: 1 } });
  const batch = await call('POST /forecasts/batch', {
    body: { items: [{ questionId: imported.id, runMode: 'light' }, { question: { type: 'binary', title: 'Will the Seine flood in Paris before 2028?' }, runMode: 'light' }] },
    headers: { 'Idempotency-Key': 'weekly-batch-2025-01-01' },
  });
  await call('POST /forecasts/cancel', { body: { taskIds: (batch.items as Json[]).map((i) => i['taskId']) } });
  const doomed = await call('POST /questions', { body: { type: 'binary', title: 'Will the new metro line open before 2026?' }, record: false });
  service.forecastControls.setOutcome(doomed.id, { task: 'failed', message: 'No usable sources were found for this question.' });
  await call('POST /forecasts', { body: { questionId: doomed.id, runMode: 'light' }, record: false });
  later(10 * MINUTE);

  // Chat on the completed forecast.
  const thread = await call('POST /forecasts/{task_id}/chat', { path: t, body: { message: 'What would change this forecast most?' } });
  await call('GET /forecasts/{task_id}/chat', { path: t, query: { limit: 1 } });
  await call('GET /forecasts/{task_id}/chat/{thread_id}', { path: { ...t, thread_id: thread.id } });
  const reply = (thread.messages as Json[]).find((m) => m['role'] === 'assistant')!;
  await call('POST /forecasts/chat/messages/{message_id}/accept-context', { path: { message_id: reply['id'] }, body: { treatment: 'look_into' } });

  // Question context: notes and files.
  const note = await call('POST /questions/{question_id}/context', { path: q, body: { text: 'A heatwave is forecast for late May.', treatment: 'consider' } });
  await call('GET /questions/{question_id}/context', { path: q, query: { limit: 2 } });
  await call('PATCH /questions/{question_id}/context/{note_id}', { path: { ...q, note_id: note.id }, body: { treatment: 'assume_true' } });
  await call('DELETE /questions/{question_id}/context/{note_id}', { path: { ...q, note_id: note.id } });
  const file = await call('POST /questions/{question_id}/files', { path: q, form: { file: 'date,rain_mm\n2026-06-01,0.4\n', filename: 'june-rain.csv', artifactType: 'dataset', treatment: 'consider' } });
  const f = { ...q, file_id: file.id as string };
  await call('GET /questions/{question_id}/context/ready', { path: q });
  later(FILE_PROCESSING_MS);
  await call('GET /questions/{question_id}/files', { path: q, query: { limit: 1 } });
  await call('GET /questions/{question_id}/files/{file_id}', { path: f });
  await call('PATCH /questions/{question_id}/files/{file_id}', { path: f, body: { userNote: 'Daily totals from Paris-Montsouris.' } });
  await call('POST /questions/{question_id}/files/{file_id}/replace', { path: f, form: { file: 'date,rain_mm\n2026-06-01,0.4\n2025-06-01,2.1\n', filename: 'june-rain.csv' } });
  await call('DELETE /questions/{question_id}/files/{file_id}', { path: f });

  // Schedules and watches.
  await call('PUT /questions/{question_id}/schedule', { path: q, body: { intervalCount: 1, intervalUnit: 'days', endAt: '2027-05-31T00:00:00.000Z' } });
  await call('GET /questions/{question_id}/schedule', { path: q });
  await call('GET /schedules', { query: { limit: 1 } });
  await call('DELETE /questions/{question_id}/schedule', { path: q });
  await call('PUT /questions/{question_id}/watch', { path: q, body: { enabled: true, changeThreshold: 0.1 } });
  await call('GET /questions/{question_id}/watch', { path: q });
  await call('GET /watches', { query: { limit: 1 } });
  await call('DELETE /questions/{question_id}/watch', { path: q });
  await call('GET /credits');

  // Webhooks: a test call (not sent: its address is public), cancelled by an address change, then replayed.
  const w = { webhook_id: hook.id as string };
  await call('GET /webhooks', { query: { limit: 1 } });
  await call('GET /webhooks/{webhook_id}', { path: w });
  await call('POST /webhooks/{webhook_id}/rotate', { path: w });
  const delivery = await call('POST /webhooks/{webhook_id}/test', { path: w });
  await service.webhooks.idle();
  const d = { delivery_id: delivery.id as string };
  await call('PATCH /webhooks/{webhook_id}', { path: w, body: { url: 'https://hooks.example.com/forecasting/v2' } });
  await call('GET /webhook-deliveries', { query: { webhookId: hook.id, limit: 1 } });
  await call('GET /webhook-deliveries/{delivery_id}', { path: d });
  await call('GET /webhook-deliveries/{delivery_id}/attempts', { path: d, query: { limit: 1 } });
  await call('POST /webhook-deliveries/{delivery_id}/replay', { path: d });
  await service.webhooks.idle();
  const webhooks = webhookCalls(service);
  await call('DELETE /webhooks/{webhook_id}', { path: w });

  // Decisions: drafted questions, the map, notes, comments, conditions, forecasts and the summary.
  const decision = await call('POST /decisions', {
    body: { title: 'Where to open the next office?', options: ['Lisbon', 'Berlin'], description: 'Opening in the second half of 2027.' },
    headers: { 'Idempotency-Key': 'office-2027' },
  });
  const dd = { decision_id: decision.id as string };
  later(GENERATION_MS);
  await call('GET /decisions', { query: { limit: 1 } });
  const drafted = await call('GET /decisions/{decision_id}', { path: dd });
  await call('PATCH /decisions/{decision_id}', { path: dd, body: { description: 'Opening in the second half of 2027, with 40 people.' } });
  const [first, second2, third] = drafted.drafts as Json[];
  await call('PATCH /decisions/{decision_id}/drafts/{draft_id}', { path: { ...dd, draft_id: first!['id'] }, body: { title: `${first!['question']['title'] as string}` } });
  await call('POST /decisions/{decision_id}/drafts/keep', { path: dd, body: { draftIds: [first!['id'], second2!['id']] } });
  const kept = await call('POST /decisions/{decision_id}/drafts/discard', { path: dd, body: { draftIds: [third!['id']] } });
  await call('POST /decisions/{decision_id}/generate', { path: dd, body: { guidance: 'Ask about office rents.' } });
  later(GENERATION_MS);
  const [a, b] = kept.nodes as Json[];
  const weather = await call('POST /decisions/{decision_id}/nodes', { path: dd, body: { questionId: rain.id, option: 'Lisbon' } });
  await call('POST /decisions/{decision_id}/links', { path: dd, body: { fromNodeId: a!['id'], toNodeId: b!['id'], kind: 'related', label: 'Both depend on rents' } });
  service.decisionControls.setLinkOutcome('failed', 'No causal path found between the two questions');
  const conditional = await call('POST /decisions/{decision_id}/links', { path: dd, body: { fromNodeId: a!['id'], toNodeId: weather.id, kind: 'conditional' }, name: 'conditional' });
  later(LINK_DRAFT_MS);
  service.decisionControls.setLinkOutcome('ready');
  const l = { ...dd, link_id: conditional.id as string };
  await call('PATCH /decisions/{decision_id}/links/{link_id}', { path: l, body: { toNodeId: b!['id'] } });
  later(LINK_DRAFT_MS);
  await call('DELETE /decisions/{decision_id}/links/{link_id}', { path: l });
  await call('DELETE /decisions/{decision_id}/nodes/{node_id}', { path: { ...dd, node_id: weather.id } });
  const dnote = await call('POST /decisions/{decision_id}/notes', { path: dd, body: { text: 'The budget is capped at 2 M€.' } });
  await call('PATCH /decisions/{decision_id}/notes/{note_id}', { path: { ...dd, note_id: dnote.id }, body: { text: 'The budget is capped at 2.5 M€.' } });
  await call('DELETE /decisions/{decision_id}/notes/{note_id}', { path: { ...dd, note_id: dnote.id } });
  const comment = await call('POST /decisions/{decision_id}/comments', { path: dd, body: { text: 'Lisbon looks cheaper.' } });
  await call('GET /decisions/{decision_id}/comments', { path: dd, query: { limit: 1 } });
  await call('PATCH /decisions/{decision_id}/comments/{comment_id}', { path: { ...dd, comment_id: comment.id }, body: { text: 'Lisbon looks cheaper, rents included.' } });
  await call('DELETE /decisions/{decision_id}/comments/{comment_id}', { path: { ...dd, comment_id: comment.id } });
  const condition = await call('POST /decisions/{decision_id}/conditions', { path: dd, body: { nodeId: a!['id'], operator: 'above', threshold: 0.7, label: 'Rents rise sharply' } });
  await call('GET /decisions/{decision_id}/conditions', { path: dd, query: { limit: 1 } });
  await call('PATCH /decisions/{decision_id}/conditions/{condition_id}', { path: { ...dd, condition_id: condition.id }, body: { threshold: 0.8, armed: true } });
  await call('DELETE /decisions/{decision_id}/conditions/{condition_id}', { path: { ...dd, condition_id: condition.id } });
  const estimate = await call('POST /decisions/{decision_id}/forecasts/estimate', { path: dd, body: { runMode: 'light' } });
  await call('POST /decisions/{decision_id}/forecasts', { path: dd, body: { runMode: 'light', maxTotalCredits: estimate.totalCredits }, headers: { 'Idempotency-Key': 'office-2027-forecasts' } });
  later(10 * MINUTE);
  await call('GET /decisions/{decision_id}/summary', { path: dd });
  await call('POST /decisions/{decision_id}/summary/refresh', { path: dd });
  await call('PUT /decisions/{decision_id}/live', { path: dd, body: { enabled: true } });
  await call('PUT /decisions/{decision_id}/follow', { path: dd, body: { following: true } });
  await call('POST /decisions/{decision_id}/archive', { path: dd });
  await call('POST /decisions/{decision_id}/unarchive', { path: dd });

  // Connections.
  const connection = await call('POST /connections', { body: { scope: 'organization', name: 'Company wiki', url: 'https://wiki-tools.example.com/mcp', authKind: 'api_key', api_key: 'wiki_key_example', apiKeyHeader: 'X-Wiki-Key' } });
  const c = { connection_id: connection.id as string };
  await call('GET /connections', { query: { limit: 1 } });
  await call('GET /connections/{connection_id}', { path: c });
  const tool = (connection.tools as Json[])[0]?.['name'] as string | undefined;
  await call('PATCH /connections/{connection_id}', { path: c, body: tool ? { tools: { [tool]: true } } : { name: 'Company wiki (read-only)' } });
  await call('POST /connections/{connection_id}/test', { path: c });
  await call('PUT /connections/{connection_id}/member-switch', { path: c, body: { enabled: false } });
  const oauth = await call('POST /connections', { body: { scope: 'personal', name: 'Calendar', url: 'https://calendar-tools.example.com/mcp', authKind: 'oauth' }, name: 'oauth' });
  await call('POST /connections/{connection_id}/sign-in', { path: { connection_id: oauth.id } });
  await call('DELETE /connections/{connection_id}', { path: { connection_id: oauth.id } });

  // Presets, with a file in the JSON form and one as multipart.
  const preset = await call('POST /forecast-presets', {
    body: { scope: 'personal', name: 'Careful', disabledConnectionIds: [connection.id], notes: [{ text: 'Weigh official statistics first.', treatment: 'consider' }] },
  });
  const p = { preset_id: preset.id as string };
  await call('GET /forecast-presets', { query: { limit: 1 } });
  await call('GET /forecast-presets/{preset_id}', { path: p });
  await call('PATCH /forecast-presets/{preset_id}', { path: p, body: { name: 'Careful (v2)' } });
  await call('PUT /forecast-presets/defaults', { body: { userPresetId: preset.id } });
  await call('GET /forecast-presets/defaults');
  const pfile = await call('POST /forecast-presets/{preset_id}/files', {
    path: p,
    body: { filename: 'rules.txt', contentBase64: Buffer.from('Prefer official data over news reports.\n').toString('base64'), treatment: 'assume_true' },
    name: 'json',
  });
  await call('POST /forecast-presets/{preset_id}/files', { path: p, form: { file: 'Prefer official data over news reports.\n', filename: 'rules.txt', treatment: 'assume_true' }, name: 'multipart' });
  const pf = { ...p, file_id: pfile.id as string };
  later(FILE_PROCESSING_MS);
  await call('GET /forecast-presets/{preset_id}/files/{file_id}', { path: pf });
  await call('PATCH /forecast-presets/{preset_id}/files/{file_id}', { path: pf, body: { userNote: 'House rules for every forecast.' } });
  await call('DELETE /forecast-presets/{preset_id}/files/{file_id}', { path: pf });

  // Question templates.
  await call('GET /question-templates', { query: { scope: 'builtin', limit: 1 } });
  const template = await call('POST /question-templates', {
    body: {
      scope: 'personal',
      name: 'Rain in a city',
      questionType: 'binary',
      fields: { title: 'Will it rain in {city} on {date}?', resolutionCriteria: 'YES if the {city} weather service records rain on {date}.' },
      blanks: [{ key: 'city', label: 'City', hint: 'Paris' }, { key: 'date', label: 'Date' }],
      tags: ['weather'],
    },
  });
  const tp = { template_id: template.id as string };
  await call('POST /question-templates/from-question', { body: { questionId: rain.id, scope: 'personal', name: 'Paris rain' } });
  await call('GET /question-templates/{template_id}', { path: tp });
  await call('PATCH /question-templates/{template_id}', { path: tp, body: { name: 'Rain in a city (daily)' } });
  await call('POST /question-templates/{template_id}/apply', { path: tp, body: { templateValues: { city: 'Oslo', date: '1 June 2027' } } });
  await call('POST /question-templates/{template_id}/fill', { path: tp, body: { prompt: 'Bergen, 3 March 2027' } });
  const tfile = await call('POST /question-templates/{template_id}/files', { path: tp, form: { file: 'Rain means at least 0.2 mm in the daily record.\n', filename: 'definition.txt', treatment: 'assume_true' } });
  const tf = { ...tp, file_id: tfile.id as string };
  later(TEMPLATE_FILE_PROCESSING_MS);
  await call('GET /question-templates/{template_id}/files/{file_id}', { path: tf });
  await call('PATCH /question-templates/{template_id}/files/{file_id}', { path: tf, body: { userNote: 'The threshold every city uses.' } });
  await call('DELETE /question-templates/{template_id}/files/{file_id}', { path: tf });
  await call('DELETE /question-templates/{template_id}', { path: tp });
  await call('DELETE /forecast-presets/{preset_id}', { path: p });

  // Sharing and subscriptions.
  const link = await call('POST /questions/{question_id}/share-links', { path: q, body: { label: 'For the board', expiresAt: '2027-06-30T00:00:00.000Z' } });
  const sl = { ...q, link_id: link.id as string };
  await call('GET /questions/{question_id}/share-links', { path: q, query: { limit: 1 } });
  await call('GET /questions/{question_id}/share-links/{link_id}', { path: sl });
  await call('PATCH /questions/{question_id}/share-links/{link_id}', { path: sl, body: { label: 'For the board (June)' } });
  await call('POST /questions/{question_id}/share-links/{link_id}/revoke', { path: sl });
  await call('DELETE /questions/{question_id}/share-links/{link_id}', { path: sl });
  await call('PUT /questions/{question_id}/subscription', { path: q });
  await call('GET /questions/{question_id}/subscription', { path: q });
  await call('DELETE /questions/{question_id}/subscription', { path: q });

  return { operations, webhooks };
}

/** Sends one request to the mock and keeps the exchange under `key` (`METHOD /template`); any error answer throws. */
async function exchange(service: MockService, into: Map<string, RecordedExchange[]>, key: string, init: Call): Promise<Json> {
  const [method, template] = key.split(' ') as [string, string];
  const path = template.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = init.path?.[name];
    if (value === undefined) throw new Error(`${key}: no value for {${name}}`);
    return encodeURIComponent(value);
  });
  const url = new URL(`${EXAMPLE_BASE_URL}${path}`);
  for (const [name, value] of Object.entries(init.query ?? {})) {
    for (const v of Array.isArray(value) ? value : [value]) url.searchParams.append(name, String(v));
  }
  const headers = new Headers({ authorization: `Bearer ${API_KEY}`, ...init.headers });
  let body: BodyInit | undefined;
  if (init.form) {
    const form = new FormData();
    for (const [name, value] of Object.entries(init.form)) {
      if (name === 'file') form.append('file', new Blob([value], { type: 'text/plain' }), init.form['filename'] ?? 'file.txt');
      else form.append(name, value);
    }
    body = form;
  } else if (init.body !== undefined || ['POST', 'PUT', 'PATCH'].includes(method)) {
    headers.set('content-type', 'application/json');
    body = JSON.stringify(init.body ?? {});
  }
  const res = await service.handle(new Request(url, { method, headers, body }));
  const text = await res.text();
  if (!res.ok) throw new Error(`${key} answered ${res.status}: ${text}`);
  const answer = text ? (JSON.parse(text) as Json) : undefined;
  const shown = Object.fromEntries(SHOWN_HEADERS.flatMap((name) => (res.headers.has(name) ? [[name, res.headers.get(name)!]] : [])));
  const sent: RecordedExchange['request'] = {
    ...(init.path && { path: init.path }),
    ...(init.query && { query: init.query }),
    ...(init.headers && { headers: init.headers }),
    ...(init.form ? { contentType: 'multipart/form-data', body: init.form } : body !== undefined ? { contentType: 'application/json', body: init.body ?? {} } : {}),
  };
  if (init.record === false) return answer ?? {};
  const list = into.get(key) ?? [];
  into.set(key, list);
  list.push({
    name: init.name ?? (list.length === 0 ? 'example' : `example${list.length + 1}`),
    request: sent,
    response: { status: res.status, ...(Object.keys(shown).length > 0 && { headers: shown }), ...(answer !== undefined && { body: answer }) },
  });
  return answer ?? {};
}

/** The first call of each event kind the mock made, with the headers a receiver gets. */
function webhookCalls(service: MockService): OpenApiData['webhooks'] {
  const out: OpenApiData['webhooks'] = {};
  for (const call of service.webhooks.calls()) {
    const kind = call.headers['x-service-event-type']!;
    out[kind] ??= { headers: call.headers, body: JSON.parse(call.body) as unknown };
  }
  return out;
}

/**
 * Runs `fn` with `crypto.randomUUID` and `crypto.getRandomValues` drawing from a seeded generator
 * (mulberry32), so ids, secrets and tokens come out the same in every run; restores both after.
 */
async function withSeededRandomness<T>(fn: () => Promise<T>): Promise<T> {
  let state = 0x0a9e_2025;
  const next = () => {
    state = (state + 0x6d2b79f5) | 0;
    let x = Math.imul(state ^ (state >>> 15), 1 | state);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 2 ** 32;
  };
  const bytes = (n: number) => Uint8Array.from({ length: n }, () => Math.floor(next() * 256));
  const randomUUID = (): `${string}-${string}-${string}-${string}-${string}` => {
    const b = bytes(16);
    b[6] = (b[6]! & 0x0f) | 0x40;
    b[8] = (b[8]! & 0x3f) | 0x80;
    const hex = [...b].map((x) => x.toString(16).padStart(2, '0')).join('');
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
  };
  const getRandomValues = <A extends ArrayBufferView | null>(array: A): A => {
    if (array) new Uint8Array(array.buffer, array.byteOffset, array.byteLength).set(bytes(array.byteLength));
    return array;
  };
  const saved = (['randomUUID', 'getRandomValues'] as const).map((name) => [name, Object.getOwnPropertyDescriptor(crypto, name)] as const);
  Object.defineProperty(crypto, 'randomUUID', { value: randomUUID, configurable: true, writable: true });
  Object.defineProperty(crypto, 'getRandomValues', { value: getRandomValues, configurable: true, writable: true });
  try {
    return await fn();
  } finally {
    for (const [name, descriptor] of saved) {
      if (descriptor) Object.defineProperty(crypto, name, descriptor);
      else delete (crypto as unknown as Record<string, unknown>)[name];
    }
  }
}
