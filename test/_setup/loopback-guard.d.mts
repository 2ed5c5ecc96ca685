/** The guard's record: `host:port` of each connection it refused in this process. */
export interface LoopbackRecord {
  readonly refused: string[];
}
export function guardConnections(onRefused?: (where: string) => void): LoopbackRecord;
