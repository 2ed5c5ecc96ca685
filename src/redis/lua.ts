/**
 * The Lua functions the coordinator's scripts share (scripts.ts): the fleet's time, the types its
 * keys must hold, and the counters and numbers it reads without failing.
 * @module
 */

/** The fleet's time in ms: ARGV's `now` when a simulated clock gave one, else Redis's `TIME`. */
export const FLEET_NOW = `
local function fleetNow(given)
  if given ~= '' then return tonumber(given) end
  local time = redis.call('TIME')
  return tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
end
`;

/**
 * Lua: `own('zset', 'hash', …)`, the type each of KEYS must hold, in order: a key of another type
 * (an older layout, another writer under the prefix) is deleted, so the script runs on it as on a
 * key never written. The coordinator owns every key of its namespace: else one such key failed
 * every script with WRONGTYPE while Redis answered, the fleet ran on per-process limits for good,
 * and each replica ran the handler of a repeated event itself.
 */
export const OWN = `local function own(...)
  for i, wanted in ipairs({...}) do
    local found = redis.call('TYPE', KEYS[i]).ok
    if found ~= 'none' and found ~= wanted then
      redis.log(redis.LOG_WARNING, 'forecasting-sdk: replaced ' .. KEYS[i] .. ', a ' .. found .. ' where the fleet keeps a ' .. wanted .. ': does another program write under this prefix?')
      redis.call('DEL', KEYS[i])
    end
  end
end`;

/**
 * Lua: whether KEYS[i] holds `wanted`: a read-only script reads a key only then, a missing key or
 * one of another type reading as empty. A read never writes: `fleet status` on another program's
 * prefix must not delete its keys.
 */
export const READS = `local function holds(i, wanted)
  local found = redis.call('TYPE', KEYS[i]).ok
  return found == wanted
end`;

/**
 * Lua: adds 1 to a field of the counters (a hash of statistics only), never failing the script: a
 * counters key another writer left of another type, or a field that is no integer, is written anew.
 * Else one such key refused every claim and publish, and handlers ran once per process, not once.
 */
export const COUNT = `local function count(key, field)
  local added = redis.pcall('HINCRBY', key, field, 1)
  if type(added) == 'table' and added.err then
    if redis.call('TYPE', key).ok ~= 'hash' then redis.call('DEL', key) end
    redis.call('HSET', key, field, 1)
  end
end`;

/** Lua: a key's value as a finite number, else nil (missing, garbage, NaN, an infinity). */
export const FINITE = `local function finite(v)
  v = tonumber(v)
  if v == nil or v ~= v or v == math.huge or v == -math.huge then return nil end
  return v
end`;
