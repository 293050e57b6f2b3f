-- wrk script for bench/run's thumbnail line: GET /v1/media/{id}/thumbnail?size=N where every request asks for a
-- thumbnail no request asked for before (each (file, size) pair is cached once drawn), so every one is drawn:
-- cold. The media ids come from the file named after `--`; each wrk thread walks its own band of sizes, 128 of
-- them, every file at each size before the next size. A thread that runs out of new pairs says so at the end
-- (those requests were answered from the cache, and the figure is too high).
local ids = {}
local first_size = 0
local threads = {}
-- Globals, so that done() can read them from each thread (thread:get sees no locals).
counter = 0
new_pairs = 0

function setup(thread)
    thread:set("thread_index", #threads)
    threads[#threads + 1] = thread
end

function init(args)
    for line in io.lines(args[1]) do
        if #line > 0 then ids[#ids + 1] = line end
    end
    -- Sizes up to the default (256) and a little past: thread 0 asks for 64..191, thread 1 for 192..319, all drawn
    -- from the photo's small preview (320 pixels a side), as list and detail thumbnails are.
    first_size = 64 + (thread_index or 0) * 128
    new_pairs = 128 * #ids
end

function request()
    local id = ids[counter % #ids + 1]
    local size = first_size + math.floor(counter / #ids) % 128
    counter = counter + 1
    return wrk.format("GET", "/v1/media/" .. id .. "/thumbnail?size=" .. size)
end

function done(summary, latency, requests)
    for _, thread in ipairs(threads) do
        local asked = thread:get("counter")
        local new = thread:get("new_pairs")
        if asked > new then
            io.stderr:write(string.format("thumbnail: a thread asked %d times for %d new thumbnails: the rest were cached\n", asked, new))
        end
    end
end
