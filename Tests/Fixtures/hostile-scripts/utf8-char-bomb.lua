local t = {} for i = 1, 1e7 do t[i] = 0x10FFFF end return #utf8.char(table.unpack(t))
