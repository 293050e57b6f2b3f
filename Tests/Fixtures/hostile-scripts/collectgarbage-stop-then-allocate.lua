collectgarbage('stop') local t = {} for i = 1, 1e8 do t[i] = {} end return 5
