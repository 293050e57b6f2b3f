return rawget(_G, 'io').open('/etc/passwd')
