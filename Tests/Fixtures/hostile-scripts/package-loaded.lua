return package.loaded.os.getenv('HOME')
