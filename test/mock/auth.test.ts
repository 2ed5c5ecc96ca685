import { describe, expect, it } from 'vitest';
import { createMockService } from '../../src/testing/index.js';
import { binary, call, expectError } from './_helpers.js';

describe('authentication and scopes', () => {
  it('generates one default pre_ key holding every scope', async () => {
    const service = createMockService();
    expect(service.apiKey).toMatch(/^pre_/);
    expect((await call(service, 'POST', '/questions', { body: binary() })).status).toBe(201);
    expect((await call(service, 'GET', '/questions')).status).toBe(200);
  });

  it('accepts the key as Authorization: Bearer and as X-Api-Key', async () => {
    const service = createMockService();
    expect((await call(service, 'GET', '/questions', { via: 'bearer' })).status).toBe(200);
    expect((await call(service, 'GET', '/questions', { via: 'x-api-key' })).status).toBe(200);
  });

  it('answers 401 invalid_api_key without a key', async () => {
    const service = createMockService();
    expectError(await call(service, 'GET', '/questions', { key: null }), 401, 'invalid_api_key');
  });

  it('answers 401 invalid_api_key for an unknown key in either header', async () => {
    const service = createMockService();
    expectError(await call(service, 'GET', '/questions', { key: 'pre_wrong', via: 'bearer' }), 401, 'invalid_api_key');
    expectError(await call(service, 'GET', '/questions', { key: 'pre_wrong', via: 'x-api-key' }), 401, 'invalid_api_key');
  });

  it('answers 401 for a revoked key', async () => {
    const service = createMockService();
    service.revokeApiKey(service.apiKey);
    expectError(await call(service, 'GET', '/questions'), 401, 'invalid_api_key');
  });

  it('answers 403 permission_denied when the key lacks the operation scope', async () => {
    const service = createMockService({ apiKeys: [{ key: 'pre_reader', scopes: ['questions:read'] }] });
    expect(service.apiKey).toBe('pre_reader');
    expect((await call(service, 'GET', '/questions')).status).toBe(200);
    expect((await call(service, 'GET', '/tags')).status).toBe(200);
    const err = expectError(await call(service, 'POST', '/questions', { body: binary() }), 403, 'permission_denied');
    expect(err.message).toContain('questions:write');
    expectError(await call(service, 'POST', '/questions/normalize', { body: { title: 'will it rain' } }), 403, 'permission_denied');
  });

  it('checks the scope each operation declares', async () => {
    const service = createMockService({ apiKeys: [{ key: 'pre_forecasts', scopes: ['forecasts:read', 'forecasts:write'] }] });
    expectError(await call(service, 'GET', '/questions'), 403, 'permission_denied');
    expectError(await call(service, 'GET', '/tags'), 403, 'permission_denied');
  });

  it('accepts keys added while running', async () => {
    const service = createMockService();
    service.addApiKey({ key: 'pre_later', scopes: ['questions:read'] });
    expect((await call(service, 'GET', '/questions', { key: 'pre_later' })).status).toBe(200);
  });

  it('never writes the key into the request log', async () => {
    const service = createMockService();
    await call(service, 'GET', '/questions', { via: 'bearer' });
    await call(service, 'GET', '/questions', { via: 'x-api-key' });
    const [bearer, header] = service.requests.list();
    expect(bearer?.headers['authorization']).toBe('Bearer [redacted]');
    expect(header?.headers['x-api-key']).toBe('[redacted]');
    expect(JSON.stringify(service.requests.list())).not.toContain(service.apiKey);
  });
});
