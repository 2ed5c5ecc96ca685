// The fleet tests for both cluster clients (and ioredis 5.9's, the oldest the peer range takes) on a real 6-node Redis Cluster (3 masters, 3 replicas).
import { afterAll, beforeAll } from 'vitest';
import { failoverSuite, fleetSuite } from './_kind-suite.js';
import { clustered, ioredis5 } from './_kinds.js';
import { startCluster, type TestCluster } from './_topologies.js';
import { fleetStatusOnCluster } from '../cli/_fleet-status.js';

let cluster: TestCluster | undefined;
beforeAll(async () => void (cluster = await startCluster()), 60_000);
afterAll(async () => cluster?.close());
// Each process starts from another node: the client finds the slot's master itself.
let next = 0;
const port = () => cluster!.ports[next++ % cluster!.ports.length]!;

fleetSuite('node-redis-cluster', () => clustered['node-redis-cluster'](port()));
fleetSuite('ioredis-cluster', () => clustered['ioredis-cluster'](port()));
fleetSuite('ioredis-cluster', () => ioredis5.cluster(port()), 'ioredis-cluster 5.9');
fleetStatusOnCluster(() => cluster!);

// Last: it kills a master. One fleet of both clients, as a team migrating from one to the other runs.
failoverSuite(
  'a failover of the prefix slot\'s master (node-redis and ioredis clusters in one fleet)',
  () => clustered['node-redis-cluster'](port()),
  () => clustered['ioredis-cluster'](port()),
  async (key) => cluster!.killNode(await cluster!.masterOf(key)),
);
