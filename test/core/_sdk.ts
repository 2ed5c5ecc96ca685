export * from '../../src/core/errors.js';
export { ForecastingClient } from '../../src/client.js';
