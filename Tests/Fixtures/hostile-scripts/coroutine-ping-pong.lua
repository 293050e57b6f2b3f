local co = coroutine.wrap(function() while true do coroutine.yield() end end) while true do co() end
