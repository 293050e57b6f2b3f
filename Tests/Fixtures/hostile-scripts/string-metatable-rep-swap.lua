getmetatable('').__index.len = function() return string.rep('x', 2^30) end return ('x'):len()
