#include "AppRetry.hpp"

namespace powerloss {

std::int64_t tryTwice(const std::function<sqlitebridge::Database()>& open,
                      const std::function<bool(sqlitebridge::Database&)>& step, std::int64_t done, Failure& failure,
                      bool& workedAfter) {
  sqlitebridge::Database db = open();
  for (int attempt = 0; attempt < 2; ++attempt) {
    if (db.isOpen() && step(db)) return done;
    if (failure.code == 0) failure = Failure{db.lastError().extendedCode, db.lastError().message};
    if (FaultVfs::shared().counts().cut) return 0;
    if (!db.isOpen()) db = open();
  }
  workedAfter = false;
  return 0;
}

}  // namespace powerloss
