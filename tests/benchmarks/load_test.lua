-- wrk script for tests/benchmarks/load_test.py.
--   wrk -s load_test.lua http://127.0.0.1:PORT -- BODY_FILE PATH [PATH ...]
-- BODY_FILE "-" sends GETs; otherwise POSTs that file's contents as JSON. Requests go round
-- the paths in turn (each thread starting at a different one). At the end one line,
-- "LOADTEST {json}", gives the counts and latency percentiles (microseconds) to the script.
-- wrk's own timeout never closes a connection: it only decides what is counted as a timeout
-- and kept out of the latency histogram (see done below).

local requests = {}
local position = 0
local thread_count = 0

function setup(thread)
  thread:set("id", thread_count)
  thread_count = thread_count + 1
end

function init(args)
  local body_file = args[1]
  local method, body, headers = "GET", nil, {}
  if body_file ~= "-" then
    local file = assert(io.open(body_file, "rb"))
    body = file:read("*a")
    file:close()
    method = "POST"
    headers["Content-Type"] = "application/json"
  end
  headers["Accept-Encoding"] = "gzip"
  for i = 2, #args do
    requests[#requests + 1] = wrk.format(method, args[i], headers, body)
  end
  position = (id or 0) % #requests
end

function request()
  position = position % #requests + 1
  return requests[position]
end

-- How many of `count` recorded latencies exceed `limit` (microseconds): wrk's Lua API gives
-- percentiles, not counts, so find the last rank within the limit by bisection over ranks.
local function over(latency, limit, count)
  if count == 0 or latency.max <= limit then
    return 0
  end
  local lo, hi = 0, count
  while lo < hi do
    local mid = math.floor((lo + hi + 1) / 2)
    -- wrk's percentile(p) is the latency of rank round(p / 100 * count + 0.5)
    if latency:percentile((mid - 0.25) / count * 100) <= limit then
      lo = mid
    else
      hi = mid - 1
    end
  end
  return count - lo
end

function done(summary, latency, _)
  -- wrk runs with a generous --timeout, so that its histogram holds every answer; those
  -- later than LOADTEST_LATE_US are counted here as late. (Every completed request is in the
  -- histogram unless wrk itself timed it out, so with no such timeouts the count is exact.)
  local e = summary.errors
  local recorded = math.max(0, summary.requests - e.timeout)
  local late = over(latency, tonumber(os.getenv("LOADTEST_LATE_US")), recorded)
  io.write(string.format(
    'LOADTEST {"requests": %d, "duration_us": %d, "bytes": %d, "connect": %d, "read": %d, '
      .. '"write": %d, "status": %d, "timeout": %d, "late": %d, "p50": %d, "p90": %d, '
      .. '"p99": %d, "max": %d, "mean": %.1f}\n',
    summary.requests, summary.duration, summary.bytes, e.connect, e.read, e.write, e.status,
    e.timeout, late, latency:percentile(50), latency:percentile(90), latency:percentile(99),
    latency.max, latency.mean))
end
