-- wrk script for bench/isolation's hostile_media: GET /v1/clients/{id}/wheel.png?size=N with N walking the sizes
-- served (256..2048), so that pictures are drawn (each size is kept once drawn) on the drawing threads the uploads
-- also need. Each measurement asks for a client of its own, so that none finds another's pictures kept.
local counter = 0

function setup(thread)
    thread:set("thread_index", setup_count or 0)
    setup_count = (setup_count or 0) + 1
end

function request()
    counter = counter + 1
    local size = 256 + ((thread_index or 0) * 896 + counter) % 1793
    return wrk.format("GET", wrk.path .. "?size=" .. size)
end
