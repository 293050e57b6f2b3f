-- wrk script for bench/isolation's hostile_media: company A uploads the files the probe found harmful, in turn,
-- to one of its results (POST /v1/results/{id}/media as the raw body). The files and their types come from the
-- list named after `--` ("path type" a line); Authorization from wrk's -H.
local bodies = {}
local counter = 0

function init(args)
    for line in io.lines(args[1]) do
        local path, type = line:match("^(%S+) (%S+)$")
        if path then
            local file = assert(io.open(path, "rb"))
            bodies[#bodies + 1] = { body = file:read("*a"), type = type }
            file:close()
        end
    end
end

function request()
    local bomb = bodies[counter % #bodies + 1]
    counter = counter + 1
    -- wrk.format takes these headers instead of wrk's own (-H), not beside them: Authorization is copied over.
    local headers = { ["Content-Type"] = bomb.type }
    for name, value in pairs(wrk.headers) do
        if name ~= "Content-Type" then headers[name] = value end
    end
    return wrk.format("POST", nil, headers, bomb.body)
end
