-- wrk script for bench/isolation's scoring_fairness: company A records results whose script sorts in C until its
-- scoring worker is killed at the deadline (bench/hostile_pack.json, a time over 50 s). POST
-- /v1/clients/{id}/results; Authorization from wrk's -H. The result is stored with its score error each time.
-- A time after wrk's `--` replaces the 99 s: company B posts 48, which the same script scores at once, so that
-- B's scores go through the scoring workers too (a shipped exercise's script runs in the server's process).
local function body(seconds)
    return string.format(
        '{"exerciseId": "bench-hostile-stand", "values": {"time": %d}, "recordedAt": "%s"}',
        seconds,
        os.date("!%Y-%m-%dT%H:%M:%SZ", os.time() - 3600)
    )
end

wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.body = body(99)

function init(args)
    if args[1] then wrk.body = body(tonumber(args[1])) end
end
