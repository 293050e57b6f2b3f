local t = {} for i = 1, 2^20 do t[tostring(i)] = i end local n = 0 while true do for k in pairs(t) do n = n + 1 end end
