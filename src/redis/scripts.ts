/**
 * The Lua scripts of the Redis coordinator. Each runs atomically on the server, so processes that
 * share a prefix never both take the last slot of a window or of `maxActive`. Every key is
 * `{<prefix>}:<name>`: one Redis Cluster hash tag, so all of them live on one slot and a script may
 * touch several. Every time a script scores or compares is the fleet's time: Redis's own `TIME`, so
 * that a process whose clock is off (minutes slow or fast) spends nothing the others cannot see. Only
 * a simulated clock (a test's manual clock, `ClientClock.simulated`) passes its own time as `now`,
 * and every process of such a fleet shares that clock. Durations (a window, a time to live) are
 * passed in and added in the script, never absolute times computed by a caller.
 * @module
 */
import { COUNT, FINITE, FLEET_NOW, OWN, READS } from './lua.js';

/**
 * One take of a sliding one-minute window. KEYS: the window (sorted set: member a unique id, score
 * the time its request counts from). ARGV: now ('' for Redis's time), limit, window, margin, member, then the members of
 * the caller's requests still in flight and counted a while ago, moved to now first (the service may
 * count them only when they arrive). A member already in the window whose place has come due keeps
 * it while the window up to now holds no more than `limit` (the reservations made after it are
 * later places, not ahead of it); only when the entries it waited for moved later since (answers
 * that came late) is it taken again, as a new member. A request counts for
 * the window and the margin (another process's clock, or the network, may put it that much later at
 * the service). With room, the member is added at `now` and 0 returned; without, it is added at the
 * first time with room (when the entry `limit` places back leaves) and the wait until then is
 * returned: the caller sleeps it and goes, a reservation in a queue, not a retry. Entries scored past
 * any reservation the window could hold (junk, a clock far ahead) are dropped: else `limit` of them
 * would give every take a wait of years, for good.
 */
export const TAKE = `${OWN}
${FLEET_NOW}
own('zset')
local now = fleetNow(ARGV[1])
local limit = tonumber(ARGV[2])
local window = tonumber(ARGV[3])
local margin = tonumber(ARGV[4])
if #ARGV > 5 then
  local late = {}
  for i = 6, #ARGV do
    late[#late + 1] = now
    late[#late + 1] = ARGV[i]
  end
  redis.call('ZADD', KEYS[1], 'XX', unpack(late))
end
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window - margin)
local mine = tonumber(redis.call('ZSCORE', KEYS[1], ARGV[5]))
if mine and mine <= now and redis.call('ZCOUNT', KEYS[1], '-inf', now) <= limit then
  redis.call('ZADD', KEYS[1], now, ARGV[5])
  return 0
end
redis.call('ZREM', KEYS[1], ARGV[5])
local n = redis.call('ZCARD', KEYS[1])
local horizon = now + (math.ceil(n / limit) + 1) * (window + margin)
if redis.call('ZREMRANGEBYSCORE', KEYS[1], '(' .. horizon, '+inf') > 0 then n = redis.call('ZCARD', KEYS[1]) end
if n < limit then
  redis.call('ZADD', KEYS[1], now, ARGV[5])
  return 0
end
local freed = redis.call('ZRANGE', KEYS[1], n - limit, n - limit, 'WITHSCORES')
local at = tonumber(freed[2]) + window + margin
if at <= now then at = now + 1 end
redis.call('ZADD', KEYS[1], at, ARGV[5])
return math.ceil(at - now)
`;

/**
 * One attempt of a hold. KEYS: slots (member: `t:<task id>` scored +inf, or `p:<hold id>:<i>` scored
 * with its expiry), queue (hold id scored by arrival), beats (hold id scored by its heartbeat's
 * expiry), seq (the arrival counter), epoch, alive (process id scored by when it counts as dead, on
 * Redis's own clock). ARGV: now ('' for Redis's time), hold id (`<process id>.<random>`), count,
 * maxActive, a waiter's time to live, a pending slot's time to live, a new epoch, the channel, the publish command (`PUBLISH`, or `SPUBLISH` on a
 * cluster), the process id, how long (real ms) the process counts as alive, then the ids of the same
 * process's holds waiting behind it. Drops what no process of the fleet writes (each key of another
 * type; slot members neither `t:` nor `p:`, and pending slots, heartbeats and live processes scored
 * far ahead: see the comments in the script). Sets the epoch when there is none (first use, or Redis lost its
 * data: it tells every process, which writes back its tasks' slots), drops expired pending slots and
 * dead waiters, records the process as alive, queues the hold (once) and refreshes its heartbeat
 * and those of the holds behind it that are still queued; drops the holds at the head of the queue
 * whose process is no longer alive (it died with starts waiting: they must not block the line until
 * their own heartbeat expires), or that have no heartbeat (a stray entry would block every start
 * for good); grants the hold only at the head of the queue with room (`count` is
 * from 1 to `maxActive`: the caller refuses any other before sending this). Returns {granted 0|1,
 * slots held, holds waiting, the hold's place in the queue (0: the head; 0 once granted), the epoch,
 * the head of the queue ('' once granted)}.
 */
export const HOLD = `${OWN}
${FLEET_NOW}
own('zset', 'zset', 'zset', 'string', 'string', 'zset')
local now = fleetNow(ARGV[1])
local beatAt = now + tonumber(ARGV[5])
local id = ARGV[2]
local count = tonumber(ARGV[3])
local epoch = redis.call('GET', KEYS[5])
if not epoch then
  epoch = ARGV[7]
  redis.call('SET', KEYS[5], epoch)
  redis.call(ARGV[9], ARGV[8], '{"notices":[],"freed":0,"receiver":false,"rewrite":"' .. epoch .. '"}')
end
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
-- Slots no process of ours could have written (a pending slot scored past twice its time to live,
-- a member neither \`t:\` nor \`p:\`) would be held for good: no renewal, no check of held tasks, frees them.
-- Never within a day: a replica whose pendingHoldTtlMs is longer (a deploy that changes it) renews its own.
for _, m in ipairs(redis.call('ZRANGEBYSCORE', KEYS[1], '(' .. (now + math.max(2 * tonumber(ARGV[6]), 86400000)), '+inf')) do
  if string.sub(m, 1, 2) ~= 't:' then redis.call('ZREM', KEYS[1], m) end
end
local time = redis.call('TIME')
local serverNow = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
redis.call('ZREMRANGEBYSCORE', KEYS[6], '-inf', serverNow)
-- Likewise a process alive, or a waiter's heartbeat, past twice what one renewal gives (and an hour,
-- for another version's figures): it would never expire, and a head of the queue with it would
-- block every start for good.
redis.call('ZREMRANGEBYSCORE', KEYS[6], '(' .. (serverNow + math.max(2 * tonumber(ARGV[11]), 3600000)), '+inf')
redis.call('ZADD', KEYS[6], serverNow + tonumber(ARGV[11]), ARGV[10])
redis.call('PEXPIRE', KEYS[6], ARGV[11])
local dead = redis.call('ZRANGEBYSCORE', KEYS[3], '-inf', now)
for _, d in ipairs(redis.call('ZRANGEBYSCORE', KEYS[3], '(' .. (now + math.max(2 * tonumber(ARGV[5]), 3600000)), '+inf')) do dead[#dead + 1] = d end
if #dead > 0 then
  for _, d in ipairs(dead) do
    redis.call('ZREM', KEYS[2], d)
    redis.call('ZREM', KEYS[3], d)
  end
end
if #ARGV > 11 then
  local beats = {}
  for i = 12, #ARGV do
    beats[#beats + 1] = beatAt
    beats[#beats + 1] = ARGV[i]
  end
  redis.call('ZADD', KEYS[3], 'XX', unpack(beats))
end
if not redis.call('ZSCORE', KEYS[2], id) then
  -- An arrival counter INCR cannot count (\`007\`, text, past 64 bits) starts again.
  local seq = redis.pcall('INCR', KEYS[4])
  if type(seq) == 'table' then
    redis.call('SET', KEYS[4], 1)
    seq = 1
  end
  redis.call('ZADD', KEYS[2], seq, id)
end
local head = redis.call('ZRANGE', KEYS[2], 0, 0)[1]
while head and head ~= id do
  local owner = string.match(head, '^(.-)%.')
  if redis.call('ZSCORE', KEYS[3], head) and (not owner or redis.call('ZSCORE', KEYS[6], owner)) then break end
  redis.call('ZREM', KEYS[2], head)
  redis.call('ZREM', KEYS[3], head)
  head = redis.call('ZRANGE', KEYS[2], 0, 0)[1]
end
local held = redis.call('ZCARD', KEYS[1])
if head == id and held + count <= tonumber(ARGV[4]) then
  redis.call('ZREM', KEYS[2], id)
  redis.call('ZREM', KEYS[3], id)
  for i = 1, count do redis.call('ZADD', KEYS[1], now + tonumber(ARGV[6]), 'p:' .. id .. ':' .. i) end
  return {1, held + count, redis.call('ZCARD', KEYS[2]), 0, epoch, ''}
end
redis.call('ZADD', KEYS[3], beatAt, id)
return {0, held, redis.call('ZCARD', KEYS[2]), redis.call('ZRANK', KEYS[2], id), epoch, head or ''}
`;

/**
 * An aborted hold leaves: its queue entry, and the pending slots of a try granted while its answer
 * was on the way. KEYS: queue, beats, slots. ARGV: hold id, count.
 */
export const LEAVE = `${OWN}
own('zset', 'zset', 'zset')
redis.call('ZREM', KEYS[1], ARGV[1])
redis.call('ZREM', KEYS[2], ARGV[1])
for i = 1, tonumber(ARGV[2]) do redis.call('ZREM', KEYS[3], 'p:' .. ARGV[1] .. ':' .. i) end
return 0
`;

/**
 * Keeps a granted hold's pending slots while its process lives (it calls this every few seconds):
 * each moves to expire `ttl` from now, if it is still there (not bound, given back or expired).
 * KEYS: slots. ARGV: now ('' for Redis's time), ttl, hold id, count.
 */
export const RENEW = `${OWN}
${FLEET_NOW}
own('zset')
local at = fleetNow(ARGV[1]) + tonumber(ARGV[2])
for i = 1, tonumber(ARGV[4]) do redis.call('ZADD', KEYS[1], 'XX', at, 'p:' .. ARGV[3] .. ':' .. i) end
return 0
`;

/** Read only. KEYS: slots. ARGV: task ids. Returns, for each, 1 when its slot is held, else 0 (ZMSCORE needs Redis 6.2). */
export const HELD = `${READS}
local ours = holds(1, 'zset')
local out = {}
for i = 1, #ARGV do out[i] = ours and redis.call('ZSCORE', KEYS[1], 't:' .. ARGV[i]) and 1 or 0 end
return out
`;

/**
 * Binds a granted hold to its tasks, or gives it back. KEYS: slots. ARGV: hold id, count, then the
 * task ids (none: a release). Removes the hold's pending slots and adds `t:<id>` for each task (at
 * most `count`). Returns how many slots were given back.
 */
export const BIND = `${OWN}
own('zset')
local count = tonumber(ARGV[2])
for i = 1, count do redis.call('ZREM', KEYS[1], 'p:' .. ARGV[1] .. ':' .. i) end
local bound = 0
for i = 3, math.min(#ARGV, count + 2) do
  redis.call('ZADD', KEYS[1], 'inf', 't:' .. ARGV[i])
  bound = bound + 1
end
return count - bound
`;

/**
 * Frees tasks' slots and tells every process. KEYS: slots. ARGV: channel, message, the publish
 * command, then the task ids.
 * Returns how many slots were freed.
 */
export const SETTLE = `${OWN}
own('zset')
local freed = 0
for i = 4, #ARGV do freed = freed + redis.call('ZREM', KEYS[1], 't:' .. ARGV[i]) end
redis.call(ARGV[3], ARGV[1], ARGV[2])
return freed
`;

/**
 * A verified webhook event. KEYS: slots, receivers (receiver id scored by when it last published),
 * counters (a hash). ARGV: channel, message, now ('' for Redis's time), receiver id, task id ('' when none or not final),
 * the publish command, the receivers' time to live (a receiver not heard of for that long leaves the
 * record, as does one scored more than that ahead of now).
 */
export const PUBLISH = `${OWN}
${FLEET_NOW}
own('zset', 'zset', 'hash')
${COUNT}
local now = fleetNow(ARGV[3])
local ttl = tonumber(ARGV[7])
redis.call('ZADD', KEYS[2], now, ARGV[4])
-- Out with receivers not heard of for a ttl, and with any scored more than a ttl ahead (garbage, or
-- a clock far off): they would count as seen for good.
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now - ttl)
redis.call('ZREMRANGEBYSCORE', KEYS[2], '(' .. (now + ttl), '+inf')
count(KEYS[3], 'published')
if ARGV[5] ~= '' then redis.call('ZREM', KEYS[1], 't:' .. ARGV[5]) end
redis.call(ARGV[6], ARGV[1], ARGV[2])
return 0
`;

/**
 * Claims a webhook event for one handler run. KEYS: the event's key, counters. ARGV: the claim's
 * time to live while its handler runs. Returns `claimed` (this caller runs the handler), `running`
 * (another run has not answered yet) or `done` (a run succeeded: a repeat, counted as deduplicated).
 * A claim of the previous version (`1`) counts as `done`; a value no claim writes (another writer's,
 * of any type) is replaced by this claim: `claimed`.
 */
export const CLAIM = `${COUNT}
if redis.call('SET', KEYS[1], 'running', 'NX', 'PX', ARGV[1]) then return 'claimed' end
local state = redis.pcall('GET', KEYS[1])
if state == 'running' then return 'running' end
if state == 'done' or state == '1' then
  count(KEYS[2], 'deduplicated')
  return 'done'
end
-- A value no claim writes (another writer's, of any type): no run of ours claimed the event.
redis.call('SET', KEYS[1], 'running', 'PX', ARGV[1])
return 'claimed'
`;

/**
 * Read only, the user's namespace. KEYS: slots, beats, receivers, counters. ARGV: now ('' for
 * Redis's time), receiver ttl ms. Returns {live waiters, receivers seen, published, deduplicated,
 * ...slot members}.
 */
export const STATS = `${READS}
${FLEET_NOW}
local now = fleetNow(ARGV[1])
local waiting = holds(2, 'zset') and redis.call('ZCOUNT', KEYS[2], '(' .. now, '+inf') or 0
local receivers = holds(3, 'zset') and redis.call('ZCOUNT', KEYS[3], '(' .. (now - tonumber(ARGV[2])), now + tonumber(ARGV[2])) or 0
-- Statistics only: counters of another type (another writer's) read as none, never failing the read.
local counters = redis.pcall('HMGET', KEYS[4], 'published', 'deduplicated')
if counters.err then counters = {} end
local out = {waiting, receivers, tonumber(counters[1]) or 0, tonumber(counters[2]) or 0}
if holds(1, 'zset') then
  for _, m in ipairs(redis.call('ZRANGEBYSCORE', KEYS[1], '(' .. now, '+inf')) do table.insert(out, m) end
end
return out
`;

/**
 * Read only, the key's namespace. KEYS: a window. ARGV: now ('' for Redis's time), window ms.
 * Returns the requests sent in the last window (not those reserved for later).
 */
export const WINDOW_COUNT = `${READS}
${FLEET_NOW}
if not holds(1, 'zset') then return 0 end
local now = fleetNow(ARGV[1])
return redis.call('ZCOUNT', KEYS[1], '(' .. (now - tonumber(ARGV[2])), now)
`;

/**
 * Whether the caller checks held tasks now: one process of the fleet a turn. KEYS: reconciled (the
 * time of the last turn), reconcileGap (the gap between turns now, see {@link RECONCILED}). ARGV: now
 * ('' for Redis's time), interval, the most times the interval a gap may be (whatever the key
 * holds). Returns 1 and records `now` when the last turn is a gap (at least the interval) old, else 0.
 */
export const RECONCILE_TURN = `${OWN}
${FLEET_NOW}
own('string', 'string')
${FINITE}
local now = fleetNow(ARGV[1])
local base = tonumber(ARGV[2])
local most = base * tonumber(ARGV[3])
-- A turn recorded in the future (a garbled key, a clock stepped back) is no turn: it would stop the checks.
local last = finite(redis.call('GET', KEYS[1]))
if last and last > now then last = nil end
local gap = math.min(math.max(finite(redis.call('GET', KEYS[2])) or 0, base), most)
if last and now - last < gap then return 0 end
redis.call('SET', KEYS[1], now, 'PX', math.max(most * 2, 60000))
return 1
`;

/**
 * What a check of held tasks found, for the fleet's next turn. KEYS: reconcileGap. ARGV: 1 when it
 * found ended tasks (else 0), the interval, the most times the interval a gap grows to. A check that
 * freed slots brings the gap back to the interval; one that freed nothing doubles it (the slots are
 * settled by events and reads: a check is the safety net for one that never came). Returns the gap.
 */
export const RECONCILED = `${OWN}
own('string')
${FINITE}
local base = tonumber(ARGV[2])
local most = base * tonumber(ARGV[3])
local gap = base
if ARGV[1] ~= '1' then gap = math.min(math.max(finite(redis.call('GET', KEYS[1])) or 0, base) * 2, most) end
redis.call('SET', KEYS[1], gap, 'PX', math.max(most * 2, 60000))
return gap
`;

/**
 * Moves a request's entry in a window to now (it left, is still in flight, or its attempt ended later
 * than it was counted). KEYS: the window. ARGV: now ('' for Redis's time), member. An entry that
 * left the window meanwhile is counted again: the service counts the request when it arrives, at
 * the end of its attempt at the latest.
 */
export const TOUCH = `${OWN}
${FLEET_NOW}
own('zset')
redis.call('ZADD', KEYS[1], fleetNow(ARGV[1]), ARGV[2])
return 0
`;

/**
 * How long ago (ms, on the fleet's time) a receiver last published: the latest of all, so a claim on
 * the channel is checked against Redis's own record whoever it names. KEYS: receivers. ARGV: now
 * ('' for Redis's time), the receivers' time to live. Returns -1 when the record is empty.
 */
export const RECEIVER_AGE = `${READS}
${FLEET_NOW}
if not holds(1, 'zset') then return -1 end
local now = fleetNow(ARGV[1])
-- A record more than a ttl ahead of now is not believed (garbage, or a clock far off; the next publish drops it).
local last = redis.call('ZREVRANGEBYSCORE', KEYS[1], now + tonumber(ARGV[2]), '-inf', 'WITHSCORES', 'LIMIT', 0, 1)
if not last[2] then return -1 end
return math.max(0, math.floor(now - tonumber(last[2])))
`;
