// The fleet tests for every client kind on one redis-server: node-redis and ioredis.
import { beforeAll } from 'vitest';
import { fleetSuite } from './_kind-suite.js';
import { standalone } from './_kinds.js';
import { useRedis } from './_setup.js';

const redis = useRedis();
let url = '';
beforeAll(() => void (url = redis.url));

fleetSuite('node-redis', () => standalone['node-redis'](url));
fleetSuite('ioredis', () => standalone.ioredis(url));
