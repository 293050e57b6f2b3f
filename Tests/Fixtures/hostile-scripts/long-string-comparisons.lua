local a, b = string.rep('a', 2^19), string.rep('a', 2^19) .. 'b' while true do local _ = a < b end
