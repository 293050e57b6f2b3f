-- wrk script for bench/peer's wger write: POST /api/v2/weightentry/ (the URL given to wrk), a new weight entry per
-- request. The Authorization header (Token <key>) comes from wrk's -H.
--
-- wger keeps one weight entry per user and date (unique_together), so every request sends a date no request sent
-- before: days counted from the first script argument (days since 1970-01-01, far in the future of the seeded
-- entries, which lie in the past 600 days), interleaved over wrk's threads (the second argument is the stride,
-- at least the thread count): thread t sends first + t, first + t + stride, first + t + 2 * stride, ...
-- bench/peer gives every run its own block of days, so rounds never collide either: every answer must be a 201.
local next_id = 0

function setup(thread)
    thread:set("thread_id", next_id)
    next_id = next_id + 1
end

function init(args)
    first_day = tonumber(args[1])
    stride = tonumber(args[2])
    sent = 0
    wrk.method = "POST"
    wrk.headers["Content-Type"] = "application/json"
end

-- Days since 1970-01-01 to "YYYY-MM-DD" (the proleptic Gregorian calendar; H. Hinnant's civil_from_days).
local floor = math.floor
local function iso_date(days)
    local z = days + 719468
    local era = floor(z / 146097)
    local doe = z - era * 146097
    local yoe = floor((doe - floor(doe / 1460) + floor(doe / 36524) - floor(doe / 146096)) / 365)
    local doy = doe - (365 * yoe + floor(yoe / 4) - floor(yoe / 100))
    local mp = floor((5 * doy + 2) / 153)
    local day = doy - floor((153 * mp + 2) / 5) + 1
    local month = mp < 10 and mp + 3 or mp - 9
    local year = yoe + era * 400 + (month <= 2 and 1 or 0)
    return string.format("%04d-%02d-%02d", year, month, day)
end

function request()
    local day = first_day + thread_id + stride * sent
    sent = sent + 1
    local body = string.format('{"date": "%s", "weight": "%.2f"}', iso_date(day), 60 + (day % 3000) / 100)
    return wrk.format(nil, nil, nil, body)
end
