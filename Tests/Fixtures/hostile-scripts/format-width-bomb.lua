local s = '' for i = 1, 1e6 do s = s .. string.format('%99d', i) end return #s
