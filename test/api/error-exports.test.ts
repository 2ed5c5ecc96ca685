// Every error class a call can reject with is importable from the root, so users can `instanceof` it:
// the spec's own classes (src/api/errors.ts) as well as the mechanism's (src/core).
import { describe, expect, it } from 'vitest';
import * as root from '../../src/index.js';
import * as specErrors from '../../src/api/errors.js';
import * as coreErrors from '../../src/core/errors.js';

const classesOf = (module: Record<string, unknown>) =>
  Object.entries(module).filter(([, value]) => typeof value === 'function' && value.prototype instanceof Error).map(([name]) => name);

describe('the error classes', () => {
  it.each([
    ['the spec’s codes (src/api/errors.ts)', specErrors],
    ['the mechanism (src/core/errors.ts)', coreErrors],
  ])('of %s are all exported from forecasting-sdk', (_, module) => {
    const classes = classesOf(module as Record<string, unknown>);
    expect(classes.length).toBeGreaterThan(3);
    const exported = root as Record<string, unknown>;
    expect(classes.filter((name) => exported[name] !== (module as Record<string, unknown>)[name])).toEqual([]);
  });
});
