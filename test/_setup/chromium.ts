// Debian's chromium for the tests that drive a real browser, reaching loopback only: chromium sends
// loopback addresses past a proxy by itself, and every other request goes to a proxy here that
// answers none. What a page asks for is recorded in the loopback guard's record, so the test that
// caused it fails. Chromium's own calls to Google's services (its updater, its accounts: no switch
// stops them all in chromium 156) are refused alike, and not recorded: no page of ours makes them.
import { existsSync } from 'node:fs';
import { createServer, type AddressInfo, type Server } from 'node:net';
import { chromium, type Browser } from 'playwright-core';
import { guardConnections } from './loopback-guard.mjs';

/** Debian's chromium (its /usr/bin/chromium is a shell wrapper); CHROMIUM_PATH wins. */
const CHROMIUM = [process.env['CHROMIUM_PATH'], '/usr/lib/chromium/chromium', '/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p) => p && existsSync(p));

/** Launches chromium headless; CI fails rather than skips without it (.ci/run installs it). Closing the browser closes its proxy. */
export async function launchChromium(): Promise<Browser> {
  if (!CHROMIUM) throw new Error('chromium is not installed: apt-get install chromium (or set CHROMIUM_PATH)');
  const proxy = await refusingProxy();
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu', `--proxy-server=http://127.0.0.1:${(proxy.address() as AddressInfo).port}`], headless: true });
  browser.on('disconnected', () => proxy.close());
  return browser;
}

/**
 * Chromium's own background services (its updater and downloads, its accounts, its clock): hosts a
 * page of ours never names. The hosts pages take assets from (fonts, scripts) are not among them.
 */
const isChromiumService = (host: string) => /(^|\.)(google\.com|gvt1\.com|googleapis\.com)$/.test(host) && !/^(fonts|ajax|maps|storage)\.googleapis\.com$/.test(host);

/** The host of a proxy request's target: `host:443` (CONNECT) or an absolute URL. */
function hostOf(target: string): string {
  try {
    return new URL(target.includes('://') ? target : `http://${target}`).hostname.toLowerCase();
  } catch {
    return target;
  }
}

/** A proxy that records the first line of each request (`CONNECT host:443`, `GET http://host/`) and closes it unanswered. */
async function refusingProxy(): Promise<Server> {
  const { refused } = guardConnections();
  const proxy = createServer((socket) => {
    socket.once('data', (chunk: Buffer) => {
      const [, target = '?'] = chunk.toString('latin1').split(' ', 2);
      if (!isChromiumService(hostOf(target))) refused.push(`${target} (from chromium)`);
      socket.destroy();
    });
    socket.on('error', () => undefined);
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  proxy.unref();
  return proxy;
}
