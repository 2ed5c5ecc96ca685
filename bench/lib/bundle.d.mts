/** What a bundle measures: what loads at start (`bytes`, `gzip`, `text`, `inputs`) and what loads on demand. */
export interface BundleSize {
  bytes: number;
  gzip: number;
  lazyGzip: number;
  /** Every chunk the entry pulls in, at start or on demand, gzipped as one file (issue 29's complete client). */
  completeGzip: number;
  inputs: string[];
  text: string;
  /** Gzip of what loads at start with one on-demand module (by the end of its source path) and what it imports. */
  withLazy(suffix: string): number;
}
export function bundleSize(source: string, resolveDir: string): Promise<BundleSize>;
/**
 * The client against openai-node, the cost of one operation, what loads at start projected to every operation,
 * and what a client has loaded once a call has checked params (`checked`, gzip).
 */
export function clientSizes(
  root: string,
  specOperations: number,
): Promise<{ client: BundleSize; openai: BundleSize; minimal: BundleSize; declared: number; perOperation: number; projected: number; checked: number }>;
