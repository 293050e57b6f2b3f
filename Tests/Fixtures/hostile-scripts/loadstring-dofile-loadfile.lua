return (loadstring or dofile or loadfile)('/etc/passwd')
