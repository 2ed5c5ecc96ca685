// ./testing/msw as CommonJS: `import = require`, as in a .cts file.
import mswNode = require('msw/node');
import sdk = require('forecasting-sdk');
import testing = require('forecasting-sdk/testing');
import testingMsw = require('forecasting-sdk/testing/msw');

async function run(): Promise<string> {
  const baseURL = 'https://forecasting.example/api/v1/external';
  const handlers = testingMsw.mockHandlers(testing.createMockService(), { baseURL });
  const server = mswNode.setupServer(...handlers);
  server.listen({ onUnhandledRequest: 'error' });
  try {
    const client = new sdk.ForecastingClient({ apiKey: 'pre_consumer', baseURL });
    return (await client.questions.retrieve('q_1')).title;
  } finally {
    server.close();
  }
}

export = run;
