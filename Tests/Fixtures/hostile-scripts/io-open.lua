return io.open('/etc/passwd'):read('a')
