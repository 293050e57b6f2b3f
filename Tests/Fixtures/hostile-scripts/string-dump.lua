return #string.dump(function() end)
