return require('os').time()
