local e = _ENV return e.os.getenv('HOME')
