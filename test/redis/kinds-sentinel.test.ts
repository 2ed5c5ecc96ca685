// The fleet tests for both Sentinel clients on a real primary, replica and 3 sentinels.
import { afterAll, beforeAll } from 'vitest';
import { failoverSuite, fleetSuite } from './_kind-suite.js';
import { sentinelled } from './_kinds.js';
import { startSentinel, type TestSentinel } from './_topologies.js';
import { fleetStatusOnSentinel } from '../cli/_fleet-status.js';

let set: TestSentinel | undefined;
beforeAll(async () => void (set = await startSentinel()), 60_000);
afterAll(async () => set?.close());

fleetSuite('node-redis-sentinel', () => sentinelled['node-redis-sentinel'](set!.name, set!.sentinelPorts));
fleetSuite('ioredis', () => sentinelled.ioredis(set!.name, set!.sentinelPorts));
fleetStatusOnSentinel(() => set!);

// Last: it kills the primary. One fleet of both clients.
failoverSuite(
  'a Sentinel failover (node-redis and ioredis sentinel clients in one fleet)',
  () => sentinelled['node-redis-sentinel'](set!.name, set!.sentinelPorts),
  () => sentinelled.ioredis(set!.name, set!.sentinelPorts),
  () => set!.killPrimary(),
);
