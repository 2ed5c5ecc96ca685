/** The question the server answers with (its id is the one to ask for). */
export const QUESTION_ID: string;
/** Starts the server on a free loopback port: its base URL, and how to stop it. */
export function startQuestionServer(): Promise<{ baseURL: string; stop: () => void }>;
export const CALLS: number;
export const ROUNDS: number;
export const CONCURRENCY: number;
/** Measures each variant's calls a second in interleaved rounds. */
export function inRounds<K extends string>(
  variants: Record<K, () => Promise<unknown>>,
  hooks?: { setUp?: (name: K) => void; tearDown?: (name: K) => void },
): Promise<{ samples: Record<K, number[]>; median: (name: K) => number; paired: (a: K, b: K) => number }>;
