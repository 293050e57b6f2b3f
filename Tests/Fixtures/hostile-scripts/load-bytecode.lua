return load('\27Lua\84\0')()
