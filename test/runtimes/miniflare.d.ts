// The part of miniflare's API the tests use. miniflare is not a dependency of the repository: it is
// installed into the runtime cache (see _runtimes.ts) and imported from there.
export interface MiniflareOptions {
  modules: boolean;
  /** The Worker's file, or (`script`) its source. */
  scriptPath?: string;
  script?: string;
  /** The folder module paths are relative to (the script's own, when it sits outside the cwd). */
  modulesRoot?: string;
  compatibilityDate: string;
  compatibilityFlags?: string[];
  /** Plain-text bindings, read as `env.<name>`. */
  bindings?: Record<string, string>;
  /** Serve the Worker over HTTP on this host and port too (0: a free port), at the URL `ready` gives. */
  host?: string;
  port?: number;
  /** Answers every request the Worker sends out (miniflare's own Request and Response). */
  outboundService?: (request: Request) => Promise<Response>;
}

export declare class Miniflare {
  constructor(options: MiniflareOptions);
  readonly ready: Promise<URL>;
  dispatchFetch(url: string, init?: RequestInit): Promise<Response>;
  dispose(): Promise<void>;
}
