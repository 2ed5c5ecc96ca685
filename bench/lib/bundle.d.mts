/** What a bundle measures: what loads at start (`bytes`, `gzip`, `text`, `inputs`) and what loads on demand. */
export interface BundleSize {
  bytes: number;
  gzip: number;
  lazyGzip: number;
  inputs: string[];
  text: string;
}
export function bundleSize(source: string, resolveDir: string): Promise<BundleSize>;
/** The complete client against openai-node, the cost of one operation and the projected complete client. */
export function clientSizes(
  root: string,
  specOperations: number,
): Promise<{ client: BundleSize; openai: BundleSize; minimal: BundleSize; declared: number; perOperation: number; projected: number }>;
