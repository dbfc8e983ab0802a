// The window operations of window-state.ts, in Lua, so each runs atomically on the Redis server.
// A window is two keys sharing one hash tag (one slot under Redis Cluster): a sorted set of entry ids
// scored by time, and a hash of entry id → "p<amount>" (pending) or "c<amount>" (counted), plus the
// running total in "#total". Entry ids are "i:<callId>" for reservations and "n:<seq>" for increments.

const prune = `
local now = tonumber(ARGV[1])
local windowMs = tonumber(ARGV[2])
local function prune()
  if windowMs <= 0 then return end
  local start = now - windowMs
  local expired = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', start)
  if #expired == 0 then return end
  local freed = 0
  for _, id in ipairs(expired) do
    local held = redis.call('HGET', KEYS[2], id)
    if held then freed = freed + tonumber(string.sub(held, 2)) end
    redis.call('HDEL', KEYS[2], id)
  end
  redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', start)
  redis.call('HINCRBYFLOAT', KEYS[2], '#total', -freed)
end
local function expire()
  if windowMs > 0 then
    redis.call('PEXPIRE', KEYS[1], windowMs + 1000)
    redis.call('PEXPIRE', KEYS[2], windowMs + 1000)
  else
    redis.call('PERSIST', KEYS[1])
    redis.call('PERSIST', KEYS[2])
  end
end
prune()
local total = tonumber(redis.call('HGET', KEYS[2], '#total') or '0')
`;

/** KEYS: zset, hash. ARGV: now, windowMs (0: none), amount. Returns the total, as a string. */
export const incrementScript = `${prune}
local amount = tonumber(ARGV[3])
local id = 'n:' .. redis.call('HINCRBY', KEYS[2], '#seq', 1)
redis.call('ZADD', KEYS[1], now, id)
redis.call('HSET', KEYS[2], id, 'c' .. ARGV[3])
total = redis.call('HINCRBYFLOAT', KEYS[2], '#total', amount)
expire()
return tostring(total)
`;

/**
 * KEYS: zset, hash. ARGV: now, windowMs (0: none), amount, limit, callId, epsilon.
 * Returns { ok (1/0), total, duplicate (1/0), retryInMs (-1: never) }, numbers as strings.
 */
export const reserveScript = `${prune}
local amount = tonumber(ARGV[3])
local limit = tonumber(ARGV[4])
local id = 'i:' .. ARGV[5]
local epsilon = tonumber(ARGV[6])
if redis.call('HEXISTS', KEYS[2], id) == 1 then return { 1, tostring(total), 1, '-1' } end
if total + amount <= limit + epsilon then
  redis.call('ZADD', KEYS[1], now, id)
  redis.call('HSET', KEYS[2], id, 'p' .. ARGV[3])
  total = redis.call('HINCRBYFLOAT', KEYS[2], '#total', amount)
  expire()
  return { 1, tostring(total), 0, '-1' }
end
local retry = -1
if windowMs > 0 and amount <= limit + epsilon then
  local freed = 0
  local entries = redis.call('ZRANGE', KEYS[1], 0, -1, 'WITHSCORES')
  for i = 1, #entries, 2 do
    freed = freed + tonumber(string.sub(redis.call('HGET', KEYS[2], entries[i]), 2))
    if total - freed + amount <= limit + epsilon then
      retry = tonumber(entries[i + 1]) + windowMs - now
      break
    end
  end
end
return { 0, tostring(total), 0, tostring(retry) }
`;

/** KEYS: zset, hash. ARGV: callId, "commit" | "release". Only a pending reservation changes. */
export const settleScript = `
local id = 'i:' .. ARGV[1]
local held = redis.call('HGET', KEYS[2], id)
if not held or string.sub(held, 1, 1) ~= 'p' then return 0 end
if ARGV[2] == 'commit' then
  redis.call('HSET', KEYS[2], id, 'c' .. string.sub(held, 2))
else
  redis.call('HDEL', KEYS[2], id)
  redis.call('ZREM', KEYS[1], id)
  redis.call('HINCRBYFLOAT', KEYS[2], '#total', -tonumber(string.sub(held, 2)))
end
return 1
`;
