// The fleet tests for every client kind on one redis-server: node-redis, ioredis, and ioredis 5.9 (the oldest the peer range takes).
import { beforeAll } from 'vitest';
import { fleetSuite } from './_kind-suite.js';
import { ioredis5, standalone } from './_kinds.js';
import { useRedis } from './_setup.js';

const redis = useRedis();
let url = '';
beforeAll(() => void (url = redis.url));

fleetSuite('node-redis', () => standalone['node-redis'](url));
fleetSuite('ioredis', () => standalone.ioredis(url));
fleetSuite('ioredis', () => ioredis5.standalone(url), 'ioredis 5.9');
