// The engine's header, found through the pkg-config module's include
// directory (see module.modulemap).
#include <sqlite3.h>
