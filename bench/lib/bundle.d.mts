export function bundleSize(source: string, resolveDir: string): Promise<{ bytes: number; gzip: number; inputs: string[]; text: string }>;
