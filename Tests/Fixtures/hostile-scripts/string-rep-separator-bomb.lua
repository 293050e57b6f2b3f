local s = string.rep('x', 2^16, string.rep('y', 2^16)) return #s
