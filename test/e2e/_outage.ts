// A mock server on a manual clock that goes down for a while (its port closed: connections refused)
// and comes back on the same port with the same state, and clients whose waits move that clock.
import { ForecastingClient, type ClientOptions, type RetryEvent } from '../../src/index.js';
import { ManualClock, mockClientOptions, startMockServer, type MockServer, type MockServerOptions, type MockService } from '../../src/testing/index.js';

export interface OutageMock {
  service: MockService;
  clock: ManualClock;
  /** A quiet client whose waits move the clock, holding it while the server restarts. */
  client(options?: ClientOptions): ForecastingClient;
  /** From mock time `from`, for `ms`: connections are refused; then the same service answers again. */
  outage(from: number, ms: number): void;
  close(): Promise<void>;
}

export async function startOutageMock(options: MockServerOptions = {}): Promise<OutageMock> {
  const clock = new ManualClock();
  let server: MockServer = await startMockServer({ ...options, clock });
  const { service } = server;
  const port = Number(new URL(server.baseURL).port);
  let restarting: Promise<void> | undefined;
  return {
    service,
    clock,
    client: (o = {}) => new ForecastingClient({ ...mockClientOptions(server, { busy: () => restarting !== undefined }), logLevel: 'off', ...o }),
    outage(from, ms) {
      // close() shuts the port and every open connection at once; the promise only reports the end.
      const down = () => void server.close();
      if (from <= clock.now()) down();
      else clock.schedule(from, down);
      clock.schedule(from + ms, () => {
        restarting = startMockServer({ service, port }).then((s) => {
          server = s;
          restarting = undefined;
        });
      });
    },
    async close() {
      await restarting;
      await server.close().catch(() => undefined);
    },
  };
}

/** What a client tried: the mock time of each attempt, and its retry events. */
export function watch(client: ForecastingClient, clock: ManualClock): { attempts: number[]; retries: RetryEvent[]; between(from: number, to: number): number } {
  const attempts: number[] = [];
  const retries: RetryEvent[] = [];
  client.on('request', () => attempts.push(clock.now()));
  client.on('retry', (e) => retries.push(e));
  return { attempts, retries, between: (from, to) => attempts.filter((t) => t >= from && t < to).length };
}

/** Mock time of the first request that reached the service at or after `from`. */
export const firstAnswerAfter = (service: MockService, from: number): number | undefined => service.requests.list().find((r) => r.at >= from)?.at;
