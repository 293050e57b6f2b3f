-- wrk script for bench/run's thumbnail line: GET /v1/media/{id}/thumbnail?size=N where every request asks for a
-- thumbnail no request asked for before (each (file, size) pair is cached once drawn), so every one is drawn:
-- cold. The media ids come from the file named after `--`; each wrk thread walks its own sizes.
local ids = {}
local counter = 0
local first_size = 0

function setup(thread)
    thread:set("thread_index", setup_count or 0)
    setup_count = (setup_count or 0) + 1
end

function init(args)
    for line in io.lines(args[1]) do
        if #line > 0 then ids[#ids + 1] = line end
    end
    -- Sizes around the default (256), a band per thread: thread 0 asks for 192..255, thread 1 for 256..319.
    first_size = 192 + (thread_index or 0) * 64
end

function request()
    local id = ids[counter % #ids + 1]
    local size = first_size + math.floor(counter / #ids) % 64
    counter = counter + 1
    return wrk.format("GET", "/v1/media/" .. id .. "/thumbnail?size=" .. size)
end
