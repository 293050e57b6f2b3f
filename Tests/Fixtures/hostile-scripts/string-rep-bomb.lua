local s = string.rep('x', 2^30) return #s
