-- wrk script for bench/isolation's hostile_media: GET /v1/clients/{id}/wheel.png?size=N with N walking 200..1199,
-- so that pictures are drawn (each size is kept once drawn) on the drawing threads the uploads also need.
local counter = 0

function setup(thread)
    thread:set("thread_index", setup_count or 0)
    setup_count = (setup_count or 0) + 1
end

function request()
    counter = counter + 1
    local size = 200 + ((thread_index or 0) * 500 + counter) % 1000
    return wrk.format("GET", wrk.path .. "?size=" .. size)
end
