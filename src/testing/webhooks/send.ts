/**
 * One webhook call: a signed POST to a receiver, no redirect followed, a bounded read of the answer.
 * @module
 */
/** Bytes of a receiver's answer that are read (then ignored). */
const ANSWER_BYTES_READ = 1024;

/** How one attempt ended. */
export type Outcome = { status: number; error: string } | { status: null; error: string };

/**
 * One POST: no redirect followed, at most 1 KB of the answer read, within the answer limit
 * (`MockWebhookOptions`); `stop` ends it at once (the service reset, or its server closed).
 */
export async function sendWebhook(
  options: { answerTimeoutMs?: number | undefined; fetch?: typeof fetch | undefined },
  url: string,
  headers: Record<string, string>,
  body: string,
  stop?: AbortSignal,
): Promise<Outcome> {
  const limit = options.answerTimeoutMs ?? 10_000;
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), limit);
  try {
    const response = await (options.fetch ?? fetch)(url, {
      method: 'POST',
      headers,
      body,
      redirect: 'manual',
      signal: stop ? AbortSignal.any([controller.signal, stop]) : controller.signal,
    });
    await readSome(response, ANSWER_BYTES_READ);
    const { status } = response;
    if (status >= 200 && status < 300) return { status, error: '' };
    if (status >= 300 && status < 400) return { status, error: `redirect (${status}) not followed` };
    return { status, error: `receiver answered ${status}` };
  } catch (err) {
    if (stop?.aborted) return { status: null, error: 'no answer: the mock was closed or reset during the call' };
    if (controller.signal.aborted) return { status: null, error: `no answer within ${limit} ms` };
    const message = err instanceof Error ? err.message : String(err);
    if (refusedByMsw(message)) return { status: null, error: `unreachable: msw refused the call: ${MSW_HINT} (${message})` };
    return { status: null, error: `unreachable: ${message}` };
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Under msw with `onUnhandledRequest: 'error'`, the global `fetch` is msw's, which refuses a call to
 * a receiver it has no handler for: the delivery would sit at `retrying` with msw's words alone.
 */
const MSW_HINT =
  "the mock's webhook calls go through the global fetch, which msw patches; give the service the real one, " +
  'createMockService({ webhooks: { allowLoopbackReceivers: true, fetch } }) with `const fetch = globalThis.fetch` taken before server.listen(), ' +
  'or a fetch that calls your receiver\'s handler (docs/webhooks.md, "Deliveries from the mock service")';

/** Whether a failed call is msw refusing an unhandled request (`InternalError: [MSW] Cannot bypass a request …`). */
const refusedByMsw = (message: string): boolean => message.startsWith('[MSW]') && /onUnhandledRequest|without a matching request handler/.test(message);

/** Reads up to `max` bytes of the answer, then lets the rest go. */
async function readSome(response: Response, max: number): Promise<void> {
  const reader = response.body?.getReader();
  if (!reader) return;
  let read = 0;
  try {
    while (read < max) {
      const { done, value } = await reader.read();
      if (done) return;
      read += value.byteLength;
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
}
