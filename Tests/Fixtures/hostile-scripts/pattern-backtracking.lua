return string.find(string.rep('a', 5e4), '.-.-.-.-.-.-.-.-b') or 5
