do local x <close> = setmetatable({}, {__close = function() while true do end end}) end return 5
