return select('#', table.unpack({}, 1, 1e8))
