local mt = {} mt.__eq = function(a, b) return a == b end local x, y = setmetatable({}, mt), setmetatable({}, mt) return x == y and 5
