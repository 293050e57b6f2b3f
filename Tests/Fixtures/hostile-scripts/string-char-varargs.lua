return #string.char(table.unpack({}, 1, 1e7))
