// The built package (the fixture imports 'forecasting-sdk') in its own process, so that gc() can run.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

it('settles an abort mid-body even when garbage collection runs during the read (node --expose-gc)', async () => {
  // A separate process, so gc() can run: the fixture prints how the call settled.
  const fixture = fileURLToPath(new URL('../fixtures/gc-abort.mjs', import.meta.url));
  const out = await new Promise<string>((resolve, reject) => {
    const child = spawn(process.execPath, ['--expose-gc', fixture], { stdio: ['ignore', 'pipe', 'inherit'] });
    let text = '';
    child.stdout.on('data', (d: Buffer) => (text += d.toString()));
    child.on('error', reject);
    child.on('close', () => resolve(text));
  });
  const result = JSON.parse(out.trim()) as { settled: string; ms: number };
  expect(result.settled).toBe('rejected-with-reason');
  expect(result.ms).toBeLessThan(500);
});
