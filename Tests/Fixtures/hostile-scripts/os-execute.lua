return os.execute('touch /tmp/healthwheel-pwned')
