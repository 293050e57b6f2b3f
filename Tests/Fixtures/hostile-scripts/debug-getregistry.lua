return debug.getregistry()
