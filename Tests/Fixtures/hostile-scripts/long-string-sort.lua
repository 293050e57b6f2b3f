local t = {} for i = 1, 1e5 do t[i] = string.rep('a', 1000) .. i end table.sort(t) return 5
