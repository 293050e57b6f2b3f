return tostring(setmetatable({}, {__tostring = function(t) return tostring(t) end}))
