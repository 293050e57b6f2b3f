-- wrk (4.x, LuaJIT) script for bench/load: offers requests at a fixed rate instead of as fast as the connections
-- allow, and measures each request's latency from when the schedule said it should be sent.
--
--   wrk -t2 -c256 -d10s -s bench/fixed_rate.lua -H 'Authorization: Bearer …' URL -- RATE THREADS
--
-- RATE is the total offered rate in requests per second (or env FIXED_RATE), THREADS the -t given to wrk (or env
-- FIXED_RATE_THREADS; default 2): each thread offers RATE / THREADS. wrk 4 tells a script neither its thread
-- count nor its connection count (there is no wrk.connections or wrk.threads; setup() runs for one thread at a
-- time, each thread's init() before the next thread exists), so the script has to be told. Debian has no wrk2
-- (bookworm carries no such package), whose -R does this pacing in C.
--
-- Pacing. wrk calls delay() before every request a connection sends (its first too) and waits that many whole
-- milliseconds. Its hooks are not told which connection they are called for, and a thread's connections
-- interleave, so the schedule is per thread, not per connection as in wrk2: slot k of a thread is due at
-- t0 + k / (RATE / THREADS) (t0: the thread's first delay()). delay() takes the next slot and waits until the
-- first whole millisecond at or after its due time (0 if it is already due); request() gives the request it builds
-- the earliest slot not yet sent. A connection waits for its reply before it sends again (one request in flight
-- per connection, no pipelining), so when the server falls behind, the schedule does too: slots come due with no
-- free connection, and whichever connection frees up first sends the oldest one at once. The rate is exact over a
-- run; within a millisecond, requests go out together.
--
-- Latency. wrk's own figures count from when a request was written, so a stall that holds every connection back
-- hides the requests that should have been sent during it (coordinated omission: a paced, closed-loop client
-- under-reports latency exactly when the server is slow; wrk only guesses at the hidden requests, see wrk_p99).
-- This script counts each request from its slot's due time instead, unless the connection was free before that
-- time and waited for it: then the request went out when wrk's millisecond timer fired (up to about a millisecond
-- late, the client's doing, not the server's) and it counts from when it was written. response() is not told which
-- request it answers either, so each request carries its due time, its send time and that flag in X-Request-Id (the
-- server echoes a caller's sane id, RequestLogMiddleware) and response() reads them back. Each thread keeps its
-- histograms (buckets 1% wide: the percentiles are within 0.5%) in globals; done() runs in the main Lua state,
-- fetches them with thread:get (the threads were kept in setup()), merges them and prints
--   fixed_rate: offered=… requests=… duration_s=… achieved=… p50_us=… p90_us=… p99_us=… p999_us=…
--     max_us=… send_p50_us=… send_p99_us=… lag_p99_us=… wrk_p99_us=… non2xx=… errors=… untagged=…
-- p* as above (what a client wanting RATE per second sees); send_p* from when each request was written, with no
-- correction; lag_p99 how late requests were written against their due time (about 1 ms from the timers alone;
-- more when every connection was busy, or when wrk was short of CPU: on a small machine wrk and the server share
-- the cores); wrk_p99 wrk's own figure (from when written, plus the requests wrk guesses a stall held back: it
-- fills in every latency above run time / requests per connection, which for a paced run is not the schedule's
-- interval). achieved is wrk's completed requests over its run time; errors wrk's socket errors and
-- timeouts; untagged counts replies without the echoed id (left out of the histograms).
-- Limits: a slot counts only once a request for it is answered, so slots still waiting for a connection when the
-- run ends (behind a stall that outlasts it) are not counted; the rate a run can reach is at most the connections
-- over the server's latency.

local ffi = require("ffi")
ffi.cdef [[
    typedef struct { long tv_sec; long tv_usec; } fixed_rate_timeval;
    int gettimeofday(fixed_rate_timeval *tv, void *tz);
]]
local timeval = ffi.new("fixed_rate_timeval")
-- Microseconds since the epoch, from the clock wrk's timers use (gettimeofday).
local function now_us()
    ffi.C.gettimeofday(timeval, nil)
    return tonumber(timeval.tv_sec) * 1000000 + tonumber(timeval.tv_usec)
end

local floor, ceil, log, exp = math.floor, math.ceil, math.log, math.exp
local BUCKET = log(1.01)

-- Histogram: bucket index -> count; a bucket covers [1.01^i, 1.01^(i+1)) microseconds.
local function record(histogram, us)
    local index = 0
    if us > 1 then index = floor(log(us) / BUCKET) end
    histogram[index] = (histogram[index] or 0) + 1
end

-- ---- main state: setup() and done() ----------------------------------------------------------------------------

local threads = {}

function setup(thread)
    threads[#threads + 1] = thread
end

local function percentile(histogram, total, fraction)
    if total == 0 then return 0 end
    local indexes = {}
    for index in pairs(histogram) do indexes[#indexes + 1] = index end
    table.sort(indexes)
    local wanted, seen = ceil(total * fraction), 0
    for _, index in ipairs(indexes) do
        seen = seen + histogram[index]
        -- The bucket's middle (geometric), within 0.5% of any value in it.
        if seen >= wanted then return exp((index + 0.5) * BUCKET) end
    end
    return exp((indexes[#indexes] + 0.5) * BUCKET)
end

local function merge(into, from)
    for index, count in pairs(from) do into[index] = (into[index] or 0) + count end
end

function done(summary, latency, requests)
    local due, sent, lag = {}, {}, {}
    local count, untagged, non2xx, max_us = 0, 0, 0, 0
    local offered = 0
    for _, thread in ipairs(threads) do
        merge(due, thread:get("due_histogram"))
        merge(sent, thread:get("sent_histogram"))
        merge(lag, thread:get("lag_histogram"))
        count = count + thread:get("measured")
        untagged = untagged + thread:get("untagged")
        non2xx = non2xx + thread:get("non2xx")
        max_us = math.max(max_us, thread:get("max_us"))
        offered = offered + thread:get("thread_rate")
    end
    local errors = summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout
    local seconds = summary.duration / 1e6
    io.write(string.format(
        "fixed_rate: offered=%.0f requests=%d duration_s=%.3f achieved=%.1f p50_us=%.0f p90_us=%.0f p99_us=%.0f " ..
        "p999_us=%.0f max_us=%.0f send_p50_us=%.0f send_p99_us=%.0f lag_p99_us=%.0f wrk_p99_us=%.0f " ..
        "non2xx=%d errors=%d untagged=%d\n",
        offered, summary.requests, seconds, summary.requests / seconds,
        percentile(due, count, 0.50), percentile(due, count, 0.90), percentile(due, count, 0.99),
        percentile(due, count, 0.999), max_us,
        percentile(sent, count, 0.50), percentile(sent, count, 0.99), percentile(lag, count, 0.99),
        latency:percentile(99), non2xx, errors, untagged))
end

-- ---- thread states: init(), delay(), request(), response() ------------------------------------------------------

-- Globals, so that done() can fetch them with thread:get.
due_histogram, sent_histogram, lag_histogram = {}, {}, {}
measured, untagged, non2xx, max_us, thread_rate = 0, 0, 0, 0, 0

local interval_us  -- between slots of this thread
local t0           -- when slot 0 is due (set by the first delay())
local reserved = 0 -- slots handed out by delay()
local sent = 0     -- slots handed out by request()
local early = {}   -- slot -> true when delay() found it not yet due (its connection was free before it)
local plain        -- the request from wrk's method, path, headers (-H) and body
local head, tail   -- the same, split where X-Request-Id goes (after the last header)

function init(args)
    local rate = tonumber(args[1] or os.getenv("FIXED_RATE") or "")
    local thread_count = tonumber(args[2] or os.getenv("FIXED_RATE_THREADS") or "2")
    if not rate or rate <= 0 or not thread_count or thread_count < 1 then
        error("fixed_rate.lua: usage: wrk … -s bench/fixed_rate.lua URL -- RATE_PER_SECOND THREADS")
    end
    thread_rate = rate / thread_count
    interval_us = 1e6 / thread_rate
    plain = wrk.format()
    local split = plain:find("\r\n\r\n", 1, true)
    head, tail = plain:sub(1, split + 1), "\r\n\r\n" .. plain:sub(split + 4)
end

function delay()
    local now = now_us()
    if not t0 then t0 = now end
    local due = t0 + reserved * interval_us
    local slot = reserved
    reserved = reserved + 1
    if due <= now then return 0 end
    early[slot] = true
    -- wrk's timer fires once its millisecond clock (gettimeofday, truncated) reaches floor(now) + the delay: the
    -- first whole millisecond at or after the due time, and as late as a millisecond after it.
    return ceil(due / 1000 - floor(now / 1000))
end

function request()
    -- wrk calls request() once in the first thread's state before any connection opens, to check the request;
    -- that call takes no slot (every real request follows a delay(), which starts the schedule).
    if not t0 then return plain end
    local slot = sent
    sent = sent + 1
    if reserved < sent then reserved = sent end -- a request wrk sent without asking delay() (after a reconnect)
    local flag = early[slot] and 1 or 0
    early[slot] = nil
    return head .. string.format("X-Request-Id: %.0f-%.0f-%d", t0 + slot * interval_us, now_us(), flag) .. tail
end

function response(status, headers, body)
    local now = now_us()
    if status < 200 or status > 299 then non2xx = non2xx + 1 end
    local id = headers["X-Request-Id"] or headers["x-request-id"]
    local due, send, flag
    if id then due, send, flag = id:match("^(%d+)-(%d+)-([01])$") end
    if not due then
        untagged = untagged + 1
        return
    end
    due, send = tonumber(due), tonumber(send)
    -- From the due time, unless the connection was free and waited for the slot: then how late wrk's millisecond
    -- timer let it go is the client's doing, not the server's, and the request counts from when it was written.
    local latency = now - (flag == "1" and send or due)
    record(due_histogram, latency)
    record(sent_histogram, now - send)
    record(lag_histogram, send - due)
    if latency > max_us then max_us = latency end
    measured = measured + 1
end
