// The window operations of window-state.ts, in Lua, so each runs atomically on the Redis server.
// A window is three keys sharing one hash tag (one slot under Redis Cluster): a sorted set of entry ids
// scored by time (KEYS[1]), a hash of entry id → "c<amount>" (counted) or a pending reservation,
// "p<amount>" (a failed call releases it) or "q<amount>" (a failed call commits it), plus the running
// total in "#total" (KEYS[2]), and a sorted set of pending reservation ids scored by the time they
// settle as failed if nobody reports their call's end (KEYS[3]). Entry ids are "i:<callId>" for
// reservations and "n:<seq>" for increments.

const settleHeld = `
local function settleHeld(id, ending)
  redis.call('ZREM', KEYS[3], id)
  local held = redis.call('HGET', KEYS[2], id)
  if not held then return 0 end
  local state = string.sub(held, 1, 1)
  if state ~= 'p' and state ~= 'q' then return 0 end
  if ending == 'ok' or (ending == 'error' and state == 'q') then
    redis.call('HSET', KEYS[2], id, 'c' .. string.sub(held, 2))
  else
    redis.call('HDEL', KEYS[2], id)
    redis.call('ZREM', KEYS[1], id)
    redis.call('HINCRBYFLOAT', KEYS[2], '#total', -tonumber(string.sub(held, 2)))
  end
  return 1
end
`;

const prune = `${settleHeld}
local now = tonumber(ARGV[1])
local windowMs = tonumber(ARGV[2])
local function prune()
  for _, id in ipairs(redis.call('ZRANGEBYSCORE', KEYS[3], '-inf', now)) do settleHeld(id, 'error') end
  if windowMs <= 0 then return end
  local start = now - windowMs
  local expired = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', start)
  if #expired == 0 then return end
  local freed = 0
  for _, id in ipairs(expired) do
    local held = redis.call('HGET', KEYS[2], id)
    if held then freed = freed + tonumber(string.sub(held, 2)) end
    redis.call('HDEL', KEYS[2], id)
    redis.call('ZREM', KEYS[3], id)
  end
  redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', start)
  redis.call('HINCRBYFLOAT', KEYS[2], '#total', -freed)
end
local function expire()
  for i = 1, 3 do
    if windowMs > 0 then redis.call('PEXPIRE', KEYS[i], windowMs + 1000) else redis.call('PERSIST', KEYS[i]) end
  end
end
prune()
local total = tonumber(redis.call('HGET', KEYS[2], '#total') or '0')
`;

/** KEYS: zset, hash, due. ARGV: now, windowMs (0: none), amount. Returns the total, as a string. */
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
 * KEYS: zset, hash, due. ARGV: now, windowMs (0: none), amount, limit, callId, epsilon, due (when it
 * settles as failed), "q" (a failed call commits) or "p" (releases), "1" for a dry run (decide, reserve nothing).
 * Returns { ok (1/0), total, duplicate (1/0), retryInMs (-1: never) }, numbers as strings.
 */
export const reserveScript = `${prune}
local amount = tonumber(ARGV[3])
local limit = tonumber(ARGV[4])
local id = 'i:' .. ARGV[5]
local epsilon = tonumber(ARGV[6])
if redis.call('HEXISTS', KEYS[2], id) == 1 then return { 1, tostring(total), 1, '-1' } end
if total + amount <= limit + epsilon then
  if ARGV[9] == '1' then return { 1, tostring(total + amount), 0, '-1' } end
  redis.call('ZADD', KEYS[1], now, id)
  redis.call('HSET', KEYS[2], id, ARGV[8] .. ARGV[3])
  redis.call('ZADD', KEYS[3], tonumber(ARGV[7]), id)
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

/**
 * KEYS: zset, hash, due. ARGV: callId, "ok" | "error" | "blocked", now. Only a pending reservation
 * changes; one reported after its due time settles as failed, as it would have anyway.
 */
export const settleScript = `${settleHeld}
local id = 'i:' .. ARGV[1]
local due = redis.call('ZSCORE', KEYS[3], id)
if due and tonumber(due) <= tonumber(ARGV[3]) then return settleHeld(id, 'error') end
return settleHeld(id, ARGV[2])
`;

/** KEYS: a call's index. ARGV: the window ("<namespace>\\n<key>"), its time to live. */
export const indexScript = `
redis.call('HSET', KEYS[1], ARGV[1], '1')
if redis.call('PTTL', KEYS[1]) < tonumber(ARGV[2]) then redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return 1
`;

/** KEYS: a call's index. Returns its windows and deletes it, so one process settles them. */
export const takeIndexScript = `
local windows = redis.call('HKEYS', KEYS[1])
redis.call('DEL', KEYS[1])
return windows
`;
