/** The guard's record: `host:port` of each connection it refused in this process. */
export interface LoopbackRecord {
  readonly refused: string[];
}
export function guardConnections(onRefused?: (where: string) => void): LoopbackRecord;
/** Loopback, the unspecified address, or one of this machine's own addresses. */
export function isLocal(host: string): boolean;
