local s = string.rep('x', 1e4) for i = 1, 10 do s = s:gsub('x', 'xx') end return #s
