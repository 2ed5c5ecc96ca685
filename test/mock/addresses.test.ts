// The address rules, one table (test/fixtures/addresses.ts) through both checks: the SDK refuses a
// webhook or connection address before sending (ValidationError naming url), and the mock, reached
// over HTTP without the SDK, refuses the same addresses, as literals and as what a name resolves to.
import { describe, expect, it } from 'vitest';
import { addressKind } from '../../src/schemas/addresses.js';
import { useOrgMock } from '../e2e/_org.js';
import { bareAddress, NON_PUBLIC_HOSTS, PUBLIC_HOSTS } from '../fixtures/addresses.js';

const h = useOrgMock();
const connection = (url: string) => ({ scope: 'personal' as const, name: 'Tools', url, authKind: 'none' as const });

describe('the SDK refuses a non-public address before sending', () => {
  it.each(NON_PUBLIC_HOSTS)('%s (%s)', async (host, kind) => {
    const url = `https://${host}/hooks`;
    const kindNamed = new RegExp(` ${kind} `);
    await h.refused(h.client.webhooks.create({ url }), 'url', kindNamed);
    await h.refused(h.client.webhooks.update('wh_1', { url }), 'url', kindNamed);
    await h.refused(h.client.connections.create(connection(url)), 'url', kindNamed);
  });

  it.each(PUBLIC_HOSTS)('lets %s through', async (host) => {
    const url = `https://${host}/hooks`;
    expect((await h.client.webhooks.create({ url })).url).toBe(url);
    expect((await h.client.connections.create(connection(url))).url).toBe(url);
  });
});

describe('the mock refuses the same addresses on receipt', () => {
  it.each(NON_PUBLIC_HOSTS)('%s (%s)', async (host, kind) => {
    const url = `https://${host}/hooks`;
    for (const [path, body] of [['/webhooks', { url }], ['/connections', connection(url)]] as const) {
      const res = await h.raw('POST', path, body);
      expect(res.status, path).toBe(400);
      expect(res.body.error?.message).toMatch(new RegExp(`^url: .* ${kind} `));
    }
    expect(h.mock.service.requests.list().map((r) => r.status)).toEqual([400, 400]);
  });

  it.each(NON_PUBLIC_HOSTS.filter(([host]) => bareAddress(host)))('a name resolving to %s (%s)', async (host, kind) => {
    h.mock.service.connectionControls.resolve('tools.example.com', bareAddress(host)!);
    const res = await h.raw('POST', '/connections', connection('https://tools.example.com/mcp'));
    expect(res.status).toBe(400);
    expect(res.body.error?.message).toBe(`url: must reach a public address: the host resolves to a ${kind} one`);
  });

  it.each(PUBLIC_HOSTS.filter((host) => bareAddress(host)))('a name resolving to %s is public', async (host) => {
    h.mock.service.connectionControls.resolve('tools.example.com', bareAddress(host)!);
    expect((await h.raw('POST', '/connections', connection('https://tools.example.com/mcp'))).status).toBe(201);
  });
});

describe('addressKind reads every textual form of an IP literal', () => {
  it.each([
    ['::1', 'loopback'],
    ['[::1]', 'loopback'],
    ['0:0:0:0:0:0:0:1', 'loopback'],
    ['0000:0000:0000:0000:0000:0000:0000:0001', 'loopback'],
    ['fe80::1%eth0', 'link-local'], // zone id
    ['[FE80::1%25en0]', 'link-local'],
    ['::ffff:127.0.0.1', 'loopback'], // dotted tail
    ['::FFFF:7F00:1', 'loopback'],
    ['::ffff:0:127.0.0.1', 'loopback'],
    ['2002:7f00:1::', 'loopback'],
    ['2002:7F00:0001:0:0:0:0:0', 'loopback'],
    ['64:ff9b:1::1.2.3.4', 'private'],
    ['FF02::1', 'multicast'],
    ['2130706433', 'loopback'], // 127.0.0.1 as one number
    ['0177.0.0.1', 'loopback'],
    ['0xffffffff', 'broadcast'],
    ['LOCALHOST.', 'loopback'],
  ] as const)('%s is %s', (text, kind) => {
    expect(addressKind(text)).toBe(kind);
  });

  it.each(['1::2::3', '12345::', '1:2:3:4:5:6:7:8:9', '1:2:3:4:5:6:7:8::', ':1::', '::ffff:1.2.3', '::ffff:1.2.3.256', 'example.com', 'deadbeef', '2606:2800:220:1::1'])(
    '%s is no non-public literal',
    (text) => {
      expect(addressKind(text)).toBeUndefined();
    },
  );
});
