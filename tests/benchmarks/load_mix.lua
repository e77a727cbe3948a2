-- wrk script for the hostile mix of tests/benchmarks/load_test.py (load_mix.py writes the plan).
--   wrk -t N -c N -s load_mix.lua http://127.0.0.1:PORT -- PLAN_FILE RUN_ID N
-- Run with as many threads as connections: each thread then has one connection, whose
-- requests and answers alternate, so the script can time every request itself and keep
-- latencies and statuses per kind of request (wrk's own histogram mixes all kinds).
--
-- The plan, one tab-separated record a line:
--   kind  INDEX  NAME
--   req   INDEX  METHOD  PATH  BODY_FILE|-  [HEADER: VALUE ...]
--   schedule  INDEX,INDEX,...     the kinds in the order sent, round and round
-- "ZQNUMZQ" in a path becomes a number used once in the run (a query no cache has seen).
-- At the end one line, "LOADMIX {json}", gives per kind every latency (microseconds) and the
-- count of each status; "lost" counts requests sent but never answered (the connection
-- failed), "pending" those still unanswered when wrk stopped, with how long they had waited.

local ffi = require("ffi")
ffi.cdef [[
typedef struct { long tv_sec; long tv_nsec; } loadmix_timespec;
int clock_gettime(int clk_id, loadmix_timespec *tp);
]]
local timespec = ffi.new("loadmix_timespec")
local function now_us()
  ffi.C.clock_gettime(1, timespec) -- CLOCK_MONOTONIC
  return tonumber(timespec.tv_sec) * 1000000 + tonumber(timespec.tv_nsec) / 1000
end

local threads = {}

function setup(thread)
  thread:set("id", #threads)
  threads[#threads + 1] = thread
end

local function split(line)
  local fields = {}
  for field in (line .. "\t"):gmatch("([^\t]*)\t") do
    fields[#fields + 1] = field
  end
  return fields
end

local variants = {} -- per kind: a list of {method, path, headers, body, formatted}
local turn = {} -- per kind: the variant sent last
local schedule = {}
local position = 0
local run_id = "0"
local counter = 0
-- Read back by done() through thread:get, so global. Every answer (and every request lost)
-- is one number in one flat table, (kind * 1000 + status) * 1e9 + latency in microseconds
-- (status 0: lost), since wrk 4.1's thread:get pops one value too many off the thread's stack
-- for each table it copies: one table a thread is safe, a second one (or a table in a table)
-- corrupts the stack and crashes wrk.
records, pending_kind, pending_start = {}, -1, 0
local function record(kind, status, latency)
  records[#records + 1] = (kind * 1000 + status) * 1e9 + math.min(latency, 1e9 - 1)
end

function init(args)
  run_id = args[2] or "0"
  local bodies = {}
  for line in io.lines(args[1]) do
    local f = split(line)
    if f[1] == "kind" then
      local k = tonumber(f[2])
      variants[k], turn[k] = {}, 0
    elseif f[1] == "req" then
      local k, body = tonumber(f[2]), nil
      if f[5] ~= "-" then
        body = bodies[f[5]]
        if body == nil then
          local file = assert(io.open(f[5], "rb"))
          body = file:read("*a")
          file:close()
          bodies[f[5]] = body
        end
      end
      local headers = { ["Accept-Encoding"] = "gzip" }
      for i = 6, #f do
        local name, value = f[i]:match("^([^:]+):%s*(.*)$")
        if name then
          headers[name] = value
        end
      end
      local v = { method = f[3], path = f[4], headers = headers, body = body }
      if not f[4]:find("ZQNUMZQ", 1, true) then
        v.formatted = wrk.format(f[3], f[4], headers, body)
      end
      local list = variants[k]
      list[#list + 1] = v
    elseif f[1] == "schedule" then
      for k in f[2]:gmatch("%d+") do
        schedule[#schedule + 1] = tonumber(k)
      end
    end
  end
  -- Threads start spread over the schedule, and each kind's variants likewise.
  position = math.floor((id or 0) * #schedule / math.max(1, tonumber(args[3]) or 1))
  for k, list in pairs(variants) do
    turn[k] = (id or 0) % #list
  end
end

local built = 0

function request()
  built = built + 1
  -- The last request got no answer: wrk reconnected and asks for the next one. (Except in the
  -- first thread, whose first request wrk builds only to check it, and never sends.)
  if pending_kind >= 0 and not (id == 0 and built == 2) then
    record(pending_kind, 0, 0)
  end
  position = position % #schedule + 1
  local k = schedule[position]
  local list = variants[k]
  turn[k] = turn[k] % #list + 1
  local v = list[turn[k]]
  pending_kind = k
  pending_start = now_us()
  if v.formatted then
    return v.formatted
  end
  counter = counter + 1
  local unique = run_id .. "t" .. (id or 0) .. "n" .. counter
  return wrk.format(v.method, v.path:gsub("ZQNUMZQ", unique), v.headers, v.body)
end

function response(status, headers, body)
  local k = pending_kind
  if k < 0 then
    return
  end
  record(k, status, math.floor(now_us() - pending_start))
  pending_kind = -1
end

function done(summary, latency, requests)
  local now = now_us()
  local kinds = {}
  local function kind(k)
    if kinds[k] == nil then
      kinds[k] = { lat = {}, codes = {}, lost = 0, pending = {} }
    end
    return kinds[k]
  end
  for _, thread in ipairs(threads) do
    for _, v in ipairs(thread:get("records")) do
      local k, status = math.floor(v / 1e12), math.floor(v / 1e9) % 1000
      local into = kind(k)
      if status == 0 then
        into.lost = into.lost + 1
      else
        into.lat[#into.lat + 1] = v % 1e9
        into.codes[status] = (into.codes[status] or 0) + 1
      end
    end
    local k = thread:get("pending_kind")
    if k >= 0 then
      local waited = kind(k).pending
      waited[#waited + 1] = math.floor(now - thread:get("pending_start"))
    end
  end
  local out = {}
  for k, v in pairs(kinds) do
    local statuses = {}
    for status, n in pairs(v.codes) do
      statuses[#statuses + 1] = string.format('"%d": %d', status, n)
    end
    out[#out + 1] = string.format(
      '"%d": {"lat": [%s], "codes": {%s}, "lost": %d, "pending": [%s]}',
      k, table.concat(v.lat, ","), table.concat(statuses, ", "), v.lost,
      table.concat(v.pending, ","))
  end
  local e = summary.errors
  io.write(string.format(
    'LOADMIX {"duration_us": %d, "connect": %d, "read": %d, "write": %d, "kinds": {%s}}\n',
    summary.duration, e.connect, e.read, e.write, table.concat(out, ", ")))
end
