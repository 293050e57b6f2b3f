-- wrk script: each request carries one of the bearer tokens in BENCH_TOKENS (separated by spaces), in turn, so
-- that requests in flight together are of different sessions, as an app's users' are. With one session for all,
-- a node that reads the sessions of requests arriving together in one statement (PostgreSQL) would read a single
-- row for all of them, and the figures would flatter it. Other scripts load it with dofile after setting
-- wrk.method, wrk.body and wrk.headers, which every request keeps.
local requests = {}
local turn = 0

function init(args)
    for token in string.gmatch(os.getenv("BENCH_TOKENS") or "", "%S+") do
        -- wrk.format takes the headers given instead of wrk's own (-H and the scripts'), not with them.
        local headers = { ["Authorization"] = "Bearer " .. token }
        for name, value in pairs(wrk.headers) do
            if name:lower() ~= "authorization" then headers[name] = value end
        end
        requests[#requests + 1] = wrk.format(nil, nil, headers)
    end
    assert(#requests > 0, "BENCH_TOKENS holds no bearer token")
end

function request()
    turn = turn % #requests + 1
    return requests[turn]
end
