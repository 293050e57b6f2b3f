#ifndef CSQLCIPHER_SHIM_H
#define CSQLCIPHER_SHIM_H
#define SQLITE_HAS_CODEC 1
#include <sqlcipher/sqlite3.h>
#endif
