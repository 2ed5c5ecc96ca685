// A runtime that refuses to read the environment (Deno without --allow-env throws NotCapable on
// `process.env.X`): the client and a coordinator with no prefix end in a ValidationError naming the
// option and Deno's reason, not the runtime's own error. On Node, a throwing `process.env` stands in
// for Deno's (test/runtimes checks the client on Deno itself).
import { afterEach, describe, expect, it } from 'vitest';
import { ForecastingClient, ValidationError } from '../../src/index.js';
import { prefixFromEnvironment } from '../../src/redis/options.js';

const realEnv = process.env;
afterEach(() => {
  process.env = realEnv;
});
const refuse = () => {
  process.env = new Proxy({} as NodeJS.ProcessEnv, {
    get(_target, name) {
      throw new Error(`Requires env access to "${String(name)}", run again with the --allow-env flag`);
    },
  });
};
const caught = (run: () => unknown) => {
  try {
    run();
  } catch (err) {
    return err as ValidationError;
  }
  throw new Error('it did not throw');
};

describe('an environment the runtime refuses to read', () => {
  it('ends a client given no key, then no base URL, in a ValidationError of that option with the reason', () => {
    refuse();
    const noKey = caught(() => new ForecastingClient());
    const noBase = caught(() => new ForecastingClient({ apiKey: 'pre_test_0123456789abcdef' }));
    process.env = realEnv;
    expect([noKey, noBase].map((e) => e instanceof ValidationError && e.field)).toEqual(['apiKey', 'baseURL']);
    expect(noKey.message).toBe('apiKey: not given, and FORECASTING_API_KEY could not be read (Requires env access to "FORECASTING_API_KEY", run again with the --allow-env flag)');
    expect(noBase.message).toMatch(/^baseURL: not given, and FORECASTING_BASE_URL could not be read \(Requires env access/);
  });

  it("ends a coordinator with no prefix and no client in a ValidationError of prefix with the reason", () => {
    refuse();
    const err = caught(() => prefixFromEnvironment());
    process.env = realEnv;
    expect(err).toBeInstanceOf(ValidationError);
    expect(err.field).toBe('prefix');
    expect(err.message).toMatch(/^prefix: createRedisCoordinator has no key namespace: .*\(FORECASTING_API_KEY could not be read: Requires env access/);
  });
});
