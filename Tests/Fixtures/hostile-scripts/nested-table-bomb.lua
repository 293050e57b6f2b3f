local t = {} while true do t = {t, t} end
