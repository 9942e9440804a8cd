// The power-loss harness's model itself (Tests/PowerLoss/FaultVfs.hpp): what
// it keeps track of when a run is armed again with connections still open.
// The harness's scenarios (scripts/power-loss) check SQLite and the core
// through it; these check the model.
#include "FaultVfs.hpp"
#include "TestSupport.hpp"

using sqlitebridge::Configuration;
using sqlitebridge::Database;
using sqlitebridge::JournalMode;
using sqlitebridge::Synchronous;
using namespace sqlitebridge_test;

namespace {

class FaultVfsModel : public ::testing::Test {
 protected:
  void TearDown() override { powerloss::FaultVfs::shared().disarm(); }

  static Configuration throughFaults() {
    Configuration configuration;
    configuration.vfs = powerloss::FaultVfs::name();
    configuration.journalMode = JournalMode::Memory;  // one file per database
    configuration.synchronous = Synchronous::Off;     // every write stays unsynced
    return configuration;
  }

  TempDir dir_;
};

}  // namespace

// A connection opened under one arming writes after the next: its writes
// belong to its own file. The VFS used to keep the file's place in the
// previous arming's bookkeeping (cleared at arming), so the write went out of
// bounds or, as here, onto whichever file took that place: b.db, which is
// never written, came back from the cut with a.db's pages in it.
TEST_F(FaultVfsModel, AWriteAfterArmingAgainIsKeptForItsOwnFile) {
  const std::string a = dir_ / "a.db";
  const std::string b = dir_ / "b.db";
  {
    Database setup = Database::open(b);
    ASSERT_TRUE(setup.executeScript("CREATE TABLE t(x); INSERT INTO t VALUES ('b');")) << setup.error();
  }
  const std::string bBefore = readFile(b);
  ASSERT_FALSE(bBefore.empty());

  powerloss::FaultVfs& vfs = powerloss::FaultVfs::shared();
  vfs.arm(powerloss::Plan{});
  Database writer = Database::open(a, throughFaults());
  ASSERT_TRUE(writer.executeScript("CREATE TABLE t(x); INSERT INTO t VALUES ('a');")) << writer.error();

  powerloss::Plan cut;
  cut.mode = powerloss::Plan::Mode::PowerCut;
  cut.at = 1000000;  // never reached: the cut is the materialize below
  cut.seed = 7;
  vfs.arm(cut);
  Database reader = Database::open(b, throughFaults());
  ASSERT_EQ(scalarInteger(reader, "SELECT count(*) FROM t"), 1);
  for (int i = 0; i < 20; ++i) {
    ASSERT_TRUE(writer.execute("INSERT INTO t VALUES (randomblob(3000))")) << writer.error();
  }
  EXPECT_GE(vfs.counts().points, 20);
  writer.close();
  reader.close();
  vfs.materialize();

  EXPECT_TRUE(readFile(b) == bBefore) << "the cut changed b.db, which nothing wrote to";
  Database reopened = Database::open(b);
  EXPECT_EQ(scalarText(reopened, "SELECT x FROM t"), "b");
}
