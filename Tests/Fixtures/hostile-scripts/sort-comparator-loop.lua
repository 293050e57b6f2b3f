local t = {3, 2, 1} table.sort(t, function(a, b) while true do end end) return 5
