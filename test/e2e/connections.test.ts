// Connections end to end: the SDK against the mock over real HTTP. The mock simulates the remote
// servers (nothing is contacted); keys never come back; forecasts show their connections.
import { describe, expect, it } from 'vitest';
import { BadRequestError, NotFoundError, PermissionDeniedError, type ConnectionCreateParams, type ForecastingClient } from '../../src/index.js';
import { binary, KEYS, useOrgMock } from './_org.js';

const h = useOrgMock();

// `.invalid` names never resolve: a mock that tried to reach one could not list its tools.
const crm: ConnectionCreateParams = { scope: 'personal', name: 'CRM', url: 'https://mcp.crm.invalid/crm', authKind: 'none' };
const KEY = 'sk_live_CONNECTION_SECRET_7f3a9c';

describe('connections', () => {
  it('adds a server without contacting it: tools from its URL, the ones that change data off', async () => {
    const strict = h.connect(KEYS.admin, { validateResponses: true });
    const conn = await strict.connections.create(crm);
    expect(conn).toMatchObject({ scope: 'personal', name: 'CRM', url: crm.url, authKind: 'none', hasApiKey: false, apiKeyHeader: null, status: 'connected', enabled: true });
    expect(conn.tools).toEqual([
      { name: 'search_crm', allowed: true, changesData: false },
      { name: 'read_crm', allowed: true, changesData: false },
      { name: 'update_crm', allowed: false, changesData: true },
    ]);
    // Deterministic: the same address gives the same tools.
    expect((await strict.connections.create({ ...crm, name: 'CRM 2' })).tools).toEqual(conn.tools);
    expect(await strict.connections.retrieve(conn.id)).toEqual(conn);
    expect((await strict.connections.list()).data.map((c) => c.name)).toEqual(['CRM 2', 'CRM']);
  });

  it('never returns an api_key, in any answer or in the request log: hasApiKey instead', async () => {
    const bodies: string[] = [];
    const client = h.connect(KEYS.admin, {
      fetch: async (input, init) => {
        const res = await fetch(input, init);
        bodies.push(await res.clone().text());
        return res;
      },
    });
    const conn = await client.connections.create({ ...crm, scope: 'organization', authKind: 'api_key', api_key: KEY, apiKeyHeader: 'X-Api-Key' });
    expect(conn).toMatchObject({ hasApiKey: true, apiKeyHeader: 'X-Api-Key', authKind: 'api_key' });
    await client.connections.retrieve(conn.id);
    await client.connections.list();
    await client.connections.update(conn.id, { tools: { update_crm: true } });
    await client.connections.test(conn.id);
    await client.connections.memberSwitch(conn.id, { enabled: true });
    await client.connections.signIn(conn.id).catch(() => undefined); // an error answer, read too
    await client.connections.create({ ...crm, authKind: 'none', api_key: KEY } as never).catch(() => undefined); // refused by the SDK
    await client.post('/connections', { body: { ...crm, authKind: 'oauth', api_key: KEY } }).catch(() => undefined); // refused by the mock
    // Not JSON at all: the log keeps the text, with the key blanked.
    const broken = await fetch(`${h.mock.baseURL}/connections`, { method: 'POST', headers: { authorization: `Bearer ${KEYS.admin}`, 'content-type': 'application/json' }, body: `{"api_key": "${KEY}", "broken` });
    bodies.push(await broken.text());
    const q = await client.questions.create(binary);
    const task = await client.forecasts.createAndWait({ questionId: q.id, runMode: 'light' });
    expect(task.connections).toHaveLength(1);
    expect(bodies.length).toBeGreaterThan(9);
    for (const body of bodies) expect(body).not.toContain(KEY);
    for (const body of bodies) expect(body).not.toContain(KEY.slice(-8));
    expect(JSON.stringify(h.mock.service.requests.list())).not.toContain(KEY.slice(-8));
    expect(JSON.stringify(h.mock.service.requests.list({ operation: 'connections.create' })[0]?.body)).toContain('"api_key":"[redacted]"');
    const raw = await h.raw('GET', `/connections/${conn.id}`);
    expect(JSON.stringify(raw.body)).not.toContain(KEY);
    expect(raw.body).not.toHaveProperty('api_key');
  });

  it('switches tools by name and the whole connection', async () => {
    const conn = await h.client.connections.create(crm);
    const changed = await h.client.connections.update(conn.id, { tools: { update_crm: true, search_crm: false }, name: 'CRM (writes)' });
    expect(changed.tools.map((t) => [t.name, t.allowed])).toEqual([
      ['search_crm', false],
      ['read_crm', true],
      ['update_crm', true],
    ]);
    expect(changed.name).toBe('CRM (writes)');
    expect((await h.client.connections.update(conn.id, { enabled: false })).enabled).toBe(false);
    // Testing again keeps the switches.
    expect((await h.client.connections.test(conn.id)).tools.map((t) => t.allowed)).toEqual([false, true, true]);
    const err = await h.client.connections.update(conn.id, { tools: { drop_tables: true } }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BadRequestError);
    expect((err as BadRequestError).message).toContain('tools.drop_tables');
  });

  it('tests a server again: failing, then back', async () => {
    const conn = await h.client.connections.create(crm);
    h.mock.service.connectionControls.setFailing('mcp.crm.invalid');
    const failed = await h.client.connections.test(conn.id);
    expect(failed).toMatchObject({ status: 'failed', statusMessage: expect.any(String), lastTestedAt: expect.any(String) });
    expect(failed.tools).toEqual(conn.tools);
    h.mock.service.connectionControls.setFailing('mcp.crm.invalid', false);
    expect(await h.client.connections.test(conn.id)).toMatchObject({ status: 'connected', statusMessage: null });
    // Added while failing: kept, marked failed.
    h.mock.service.connectionControls.setFailing('down.example.com');
    expect(await h.client.connections.create({ ...crm, url: 'https://down.example.com/mcp' })).toMatchObject({ status: 'failed', tools: [] });
  });

  it('starts an oauth sign-in for a person to finish', async () => {
    const conn = await h.client.connections.create({ ...crm, authKind: 'oauth', url: 'https://mcp.docs.invalid/docs' });
    expect(conn).toMatchObject({ status: 'needs_sign_in', tools: [], hasApiKey: false });
    const { authorizationUrl, expiresAt } = await h.client.connections.signIn(conn.id);
    expect(authorizationUrl).toMatch(/^https:\/\/mcp\.docs\.invalid\/oauth\/authorize\?/);
    expect(Date.parse(expiresAt!)).toBeGreaterThan(h.mock.clock.now());
    // Only a person can finish it: the test hook stands in for them.
    h.mock.service.connectionControls.completeSignIn(conn.id);
    expect(await h.client.connections.retrieve(conn.id)).toMatchObject({ status: 'connected', tools: [{ name: 'search_docs' }, { name: 'read_docs' }, { name: 'update_docs' }] });
    const plain = await h.client.connections.create(crm);
    const err = await h.client.connections.signIn(plain.id).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BadRequestError);
    expect((err as BadRequestError).message).toContain('authKind');
  });

  it('shares organization connections; only an admin adds or changes them; a member switches one off for themselves', async () => {
    const member = h.connect(KEYS.member);
    const denied = await member.connections.create({ ...crm, scope: 'organization' }).catch((e: unknown) => e);
    expect(denied).toBeInstanceOf(PermissionDeniedError);
    const org = await h.client.connections.create({ ...crm, scope: 'organization', name: 'Shared CRM' });
    expect(org.memberEnabled).toBe(true);
    expect((await member.connections.list()).data.map((c) => c.id)).toEqual([org.id]);
    await expect(member.connections.update(org.id, { enabled: false })).rejects.toBeInstanceOf(PermissionDeniedError);
    await expect(member.connections.test(org.id)).rejects.toBeInstanceOf(PermissionDeniedError);
    await expect(member.connections.delete(org.id)).rejects.toBeInstanceOf(PermissionDeniedError);
    expect(await member.connections.memberSwitch(org.id, { enabled: false })).toMatchObject({ memberEnabled: false, enabled: true });
    expect((await h.client.connections.retrieve(org.id)).memberEnabled).toBe(true);
    await expect(h.connect(KEYS.other).connections.retrieve(org.id)).rejects.toBeInstanceOf(NotFoundError);
    // A personal connection is its owner's alone, and has no member switch.
    const mine = await member.connections.create(crm);
    await expect(h.client.connections.retrieve(mine.id)).rejects.toBeInstanceOf(NotFoundError);
    const err = await member.connections.memberSwitch(mine.id, { enabled: false }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BadRequestError);
    await member.connections.delete(mine.id);
    await expect(member.connections.retrieve(mine.id)).rejects.toBeInstanceOf(NotFoundError);
  });

  it('needs the connections scopes', async () => {
    const reader = h.connect(KEYS.reader);
    await expect(reader.connections.list()).resolves.toBeDefined();
    await expect(reader.connections.create(crm)).rejects.toMatchObject({ status: 403, type: 'permission_denied' });
  });
});

describe('connection rules', () => {
  it.each([
    ['http://', { url: 'http://mcp.example.com/x' }, 'url', /https/],
    ['a loopback literal', { url: 'https://127.0.0.1/mcp' }, 'url', /loopback/],
    ['localhost', { url: 'https://localhost:8443/mcp' }, 'url', /loopback/],
    ['a private literal', { url: 'https://10.1.2.3/mcp' }, 'url', /private/],
    ['a private IPv6 literal', { url: 'https://[fd00::1]/mcp' }, 'url', /private/],
    ['a link-local literal', { url: 'https://169.254.169.254/latest' }, 'url', /link-local/],
    ['credentials in the address', { url: 'https://user:pw@mcp.example.com/x' }, 'url', /user name or password/],
    ['api_key without authKind api_key', { api_key: 'k' }, 'api_key', /authKind api_key/],
    ['authKind api_key without a key', { authKind: 'api_key' }, 'api_key', /required/],
    ['apiKeyHeader without a key', { apiKeyHeader: 'X-Key' }, 'apiKeyHeader', undefined],
    ['a header name with a space', { authKind: 'api_key', api_key: 'k', apiKeyHeader: 'X Key' }, 'apiKeyHeader', /header name/],
    ['an unknown authKind', { authKind: 'basic' }, 'authKind', undefined],
    ['a builtin scope', { scope: 'builtin' }, 'scope', undefined],
  ] as const)('refuses %s before sending', async (_, change, field, message) => {
    await h.refused(h.client.connections.create({ ...crm, ...change } as ConnectionCreateParams), field, message);
  });

  it('refuses a name that resolves to a private, loopback or link-local address: the mock checks on receipt', async () => {
    const controls = h.mock.service.connectionControls;
    controls.resolve('mcp.example.com', '192.168.1.20');
    controls.resolve('loop.example.com', '127.0.0.2');
    controls.resolve('meta.example.com', 'fe80::1');
    for (const [host, kind] of [['mcp.example.com', 'private'], ['loop.example.com', 'loopback'], ['meta.example.com', 'link-local'], ['tools.corp', 'private']]) {
      const err = await h.client.connections.create({ ...crm, url: `https://${host}/mcp` }).catch((e: unknown) => e);
      expect(err, host).toBeInstanceOf(BadRequestError);
      expect((err as BadRequestError).message).toContain(`url: must reach a public address: the host resolves to a ${kind} one`);
    }
    controls.resolve('mcp.example.com', '93.184.215.14');
    await expect(h.client.connections.create({ ...crm, url: 'https://mcp.example.com/mcp' })).resolves.toMatchObject({ status: 'connected' });
  });

  it('refuses a host name with one trailing dot as it refuses the name, in the SDK and in the mock', async () => {
    for (const [url, kind] of [['https://localhost./mcp', 'loopback'], ['https://foo.localhost./mcp', 'loopback']] as const) {
      await h.refused(h.client.connections.create({ ...crm, url }), 'url', new RegExp(kind));
      const res = await h.raw('POST', '/connections', { ...crm, url });
      expect(res.status, url).toBe(400);
      expect(res.body.error?.message).toMatch(new RegExp(`^url: must reach a public address, not a ${kind} one`));
    }
    h.mock.service.connectionControls.resolve('h.example.com', '10.0.0.7');
    for (const url of ['https://db.internal./mcp', 'https://h.example.com./mcp', 'https://H.Example.Com./mcp']) {
      const err = await h.client.connections.create({ ...crm, url }).catch((e: unknown) => e);
      expect(err, url).toBeInstanceOf(BadRequestError);
      expect((err as BadRequestError).message).toContain('url: must reach a public address: the host resolves to a private one');
    }
    expect((await h.client.connections.list()).data).toEqual([]);
  });

  it('refuses IPv4-compatible, NAT64 and site-local IPv6 literals of private addresses', async () => {
    for (const [url, kind] of [
      ['https://[::127.0.0.1]/mcp', 'loopback'],
      ['https://[::10.0.0.1]/mcp', 'private'],
      ['https://[64:ff9b::10.0.0.1]/mcp', 'private'],
      ['https://[64:ff9b::169.254.169.254]/mcp', 'link-local'],
      ['https://[fec0::1]/mcp', 'private'],
    ] as const) {
      await h.refused(h.client.connections.create({ ...crm, url }), 'url', new RegExp(kind));
      expect((await h.raw('POST', '/connections', { ...crm, url })).status, url).toBe(400);
    }
    await expect(h.client.connections.create({ ...crm, url: 'https://[64:ff9b::93.184.215.14]/mcp' })).resolves.toMatchObject({ status: 'connected' });
  });

  it('judges an address given to connectionControls.resolve in any form a URL accepts, and refuses one that is no address', async () => {
    const controls = h.mock.service.connectionControls;
    for (const [address, kind] of [
      ['::ffff:127.0.0.1', 'loopback'],
      ['::ffff:10.0.0.1', 'private'],
      ['0177.0.0.1', 'loopback'],
      ['2130706433', 'loopback'],
      ['127.1', 'loopback'],
      ['0x7f000001', 'loopback'],
      ['[fd00::1]', 'private'],
    ] as const) {
      controls.resolve('mcp.example.com', address);
      const err = await h.client.connections.create({ ...crm, url: 'https://mcp.example.com/mcp' }).catch((e: unknown) => e);
      expect(err, address).toBeInstanceOf(BadRequestError);
      expect((err as BadRequestError).message).toContain(`the host resolves to a ${kind} one`);
    }
    for (const address of ['not an address', 'mcp.example.com', '1.2.3.4.5', '[::1']) {
      expect(() => controls.resolve('mcp.example.com', address), address).toThrow(RangeError);
    }
  });

  it('the mock refuses what the SDK refuses, on a request that bypasses it', async () => {
    const post = (change: object, key?: string) => h.raw('POST', '/connections', { ...crm, ...change }, key);
    for (const [change, message] of [
      [{ url: 'http://mcp.example.com/x' }, /^url: must start with https/],
      [{ url: 'https://10.0.0.1/x' }, /^url: must reach a public address, not a private one/],
      [{ url: 'https://[::1]/x' }, /^url: must reach a public address, not a loopback one/],
      [{ url: 'https://169.254.1.1/x' }, /^url: .*link-local/],
      [{ api_key: 'k' }, /^api_key: /],
      [{ authKind: 'api_key' }, /^api_key: is required/],
    ] as const) {
      const res = await post(change);
      expect(res.status, JSON.stringify(change)).toBe(400);
      expect(res.body.error?.message).toMatch(message);
    }
    expect(await post({ scope: 'organization' }, KEYS.member)).toMatchObject({ status: 403, body: { error: { type: 'permission_denied' } } });
    const conn = await h.client.connections.create(crm);
    expect((await h.raw('PATCH', `/connections/${conn.id}`, { tools: { update_crm: 'yes' } })).body.error?.message).toMatch(/^tools\.update_crm: /);
    expect((await h.raw('PUT', `/connections/${conn.id}/member-switch`, {})).body.error?.message).toMatch(/^enabled: is required/);
    expect((await h.client.connections.list()).data).toHaveLength(1);
  });
});

describe('connections in forecasts', () => {
  /** Adds `count` connections of every kind the forecast view tells apart. */
  async function setUp(client: ForecastingClient) {
    const controls = h.mock.service.connectionControls;
    const used = await client.connections.create(crm); // two allowed tools
    controls.setFailing('flaky.example.com');
    const failing = await client.connections.create({ ...crm, name: 'Flaky', url: 'https://flaky.example.com/mcp' });
    controls.setFailing('flaky.example.com', false);
    await client.connections.test(failing.id); // connected now…
    controls.setFailing('flaky.example.com'); // …and failing during the forecast
    const unsigned = await client.connections.create({ ...crm, name: 'Docs', url: 'https://docs.example.com/docs', authKind: 'oauth' });
    const off = await client.connections.create({ ...crm, name: 'Off' });
    await client.connections.update(off.id, { enabled: false });
    const idle = await client.connections.create({ ...crm, name: 'Idle', url: 'https://idle.example.com/idle' });
    await client.connections.update(idle.id, { tools: { search_idle: false, read_idle: false } });
    const shared = await client.connections.create({ ...crm, scope: 'organization', name: 'Shared' });
    return { used, failing, unsigned, off, idle, shared };
  }

  it('show what each connection did; a failing one never stops the forecast; results readable by the organization are warned of', async () => {
    await setUp(h.client);
    const member = h.connect(KEYS.member);
    const q = await member.questions.create({ ...binary, visibility: 'organization' });
    const task = await member.forecasts.create({ questionId: q.id, runMode: 'light' });
    // The member sees their organization's connection only.
    expect(task.connections).toEqual([{ name: 'Shared', owner: 'organization', calls: 0, status: 'not_used' }]);

    const mine = await h.client.questions.create({ ...binary, title: 'Mine', visibility: 'organization' });
    const queued = await h.client.forecasts.create({ questionId: mine.id, runMode: 'light' });
    expect(queued.connections?.every((c) => c.calls === 0 && (c.status === 'not_used' || c.status === 'unavailable'))).toBe(true);
    const done = await h.client.forecasts.wait(queued.id);
    expect(done.status).toBe('completed');
    const subforecasts = done.plannedSubforecastCount;
    expect(done.connections).toEqual([
      { name: 'Shared', owner: 'organization', calls: 2 * subforecasts, status: 'used' },
      { name: 'Idle', owner: 'personal', calls: 0, status: 'not_used' },
      { name: 'Docs', owner: 'personal', calls: 0, status: 'unavailable' },
      { name: 'Flaky', owner: 'personal', calls: subforecasts, status: 'failed' },
      { name: 'CRM', owner: 'personal', calls: 2 * subforecasts, status: 'used' },
    ]);
    expect(done.warnings).toEqual([{ code: 'connection_results_readable_by_others' }]);
    const privateQ = await h.client.questions.create({ ...binary, title: 'Private' });
    expect((await h.client.forecasts.create({ questionId: privateQ.id })).warnings).toEqual([]);
  });

  it('takes per-forecast switches, and leaves out connections a member switched off', async () => {
    const { used, shared, off } = await setUp(h.client);
    const member = h.connect(KEYS.member);
    await member.connections.memberSwitch(shared.id, { enabled: false });
    const q = await member.questions.create(binary);
    expect((await member.forecasts.create({ questionId: q.id })).connections).toEqual([]);
    await member.forecasts.cancel((await member.forecasts.list()).data[0]!.taskId);
    // On again for this forecast only.
    const again = await member.questions.forecasts.create(q.id, { connections: { on: [shared.id] } });
    expect(again.connections?.map((c) => c.name)).toEqual(['Shared']);
    const q2 = await h.client.questions.create(binary);
    const task = await h.client.forecasts.create({ questionId: q2.id, connections: { off: [used.id], on: [off.id] } });
    // Off for this forecast; and a connection switched off for everyone stays off.
    expect(task.connections?.map((c) => c.name)).not.toContain('CRM');
    expect(task.connections?.map((c) => c.name)).not.toContain('Off');
    const q3 = await h.client.questions.create(binary);
    const err = await h.client.forecasts.create({ questionId: q3.id, connections: { off: ['nope'] } }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BadRequestError);
    expect((err as BadRequestError).message).toContain('connections.off.0: no connection nope');
  });

  it('a preset switches its listed connections off; one added later is on until a preset lists it', async () => {
    const client = h.connect(KEYS.admin);
    const crmConn = await client.connections.create(crm);
    const preset = await client.presets.create({ scope: 'personal', name: 'No CRM', disabledConnectionIds: [crmConn.id] });
    await client.connections.create({ ...crm, name: 'Wiki', url: 'https://mcp.wiki.invalid/wiki' });
    const q = await client.questions.create(binary);
    const withPreset = await client.forecasts.create({ questionId: q.id, presetId: preset.id, runMode: 'light' });
    expect((withPreset.connections ?? []).map((c) => c.name)).toEqual(['Wiki']);
    await client.forecasts.cancel(withPreset.id);
    const without = await client.forecasts.create({ questionId: q.id, presetId: 'none', runMode: 'light' });
    expect((without.connections ?? []).map((c) => c.name).sort()).toEqual(['CRM', 'Wiki']);
  });
});
