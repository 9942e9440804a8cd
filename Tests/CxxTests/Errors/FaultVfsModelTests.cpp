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

namespace {

// A file opened straight through the VFS, for writes the test places itself.
class RawFile {
 public:
  RawFile(const std::string& path, bool create)
      : vfs_(sqlite3_vfs_find(powerloss::FaultVfs::name())),
        storage_((static_cast<std::size_t>(vfs_->szOsFile) + sizeof(std::max_align_t) - 1) / sizeof(std::max_align_t)) {
    int flags = SQLITE_OPEN_MAIN_DB | SQLITE_OPEN_READWRITE;
    if (create) flags |= SQLITE_OPEN_CREATE;
    int outFlags = 0;
    open_ = vfs_->xOpen(vfs_, path.c_str(), file(), flags, &outFlags) == SQLITE_OK;
  }
  ~RawFile() {
    if (open_) file()->pMethods->xClose(file());
  }
  RawFile(const RawFile&) = delete;
  RawFile& operator=(const RawFile&) = delete;

  bool isOpen() const { return open_; }
  sqlite3_file* file() { return reinterpret_cast<sqlite3_file*>(storage_.data()); }
  int write(const std::string& data, std::int64_t offset) {
    return file()->pMethods->xWrite(file(), data.data(), static_cast<int>(data.size()), offset);
  }

 private:
  sqlite3_vfs* vfs_;
  std::vector<std::max_align_t> storage_;
  bool open_ = false;
};

void writePlainFile(const std::string& path, const std::string& content) {
  std::FILE* out = std::fopen(path.c_str(), "wb");
  ASSERT_NE(out, nullptr);
  std::fwrite(content.data(), 1, content.size(), out);
  std::fclose(out);
}

powerloss::Plan cutAfterEverything(std::uint64_t seed, bool powersafe) {
  powerloss::Plan plan;
  plan.mode = powerloss::Plan::Mode::PowerCut;
  plan.at = 1000000;  // never reached: the cut is the materialize after the writes
  plan.seed = seed;
  plan.sectorSize = 512;
  plan.powersafeOverwrite = powersafe;
  return plan;
}

}  // namespace

// The disk the VFS reports is the plan's, not the host's: what a run tests
// does not depend on where it runs.
TEST_F(FaultVfsModel, SectorSizeAndDeviceCharacteristicsAreThePlans) {
  const std::string path = dir_ / "disk.db";
  writePlainFile(path, std::string(1024, 'x'));
  for (const bool powersafe : {false, true}) {
    powerloss::Plan plan;
    plan.sectorSize = 512;
    plan.powersafeOverwrite = powersafe;
    powerloss::FaultVfs::shared().arm(plan);
    RawFile raw(path, false);
    ASSERT_TRUE(raw.isOpen());
    EXPECT_EQ(raw.file()->pMethods->xSectorSize(raw.file()), 512);
    EXPECT_EQ(raw.file()->pMethods->xDeviceCharacteristics(raw.file()),
              powersafe ? SQLITE_IOCAP_POWERSAFE_OVERWRITE : 0);
    powerloss::FaultVfs::shared().disarm();
  }
}

// An unsynced overwrite of four synced sectors and an append of two: over
// many seeds, torn writes keep a prefix or a suffix of whole sectors (never
// part of one), and an append that did not fully land can leave the file
// longer, its new space garbage rather than zeros.
TEST_F(FaultVfsModel, TornWritesKeepAPrefixOrASuffixOfSectorsAndGrownSpaceHoldsGarbage) {
  const std::string path = dir_ / "torn.db";
  const std::string synced(4 * 512, 'o');
  bool suffixKept = false, prefixKept = false, longerWithGarbage = false;
  for (std::uint64_t seed = 1; seed <= 300; ++seed) {
    writePlainFile(path, synced);
    powerloss::FaultVfs::shared().arm(cutAfterEverything(seed, true));
    {
      RawFile raw(path, false);
      ASSERT_TRUE(raw.isOpen());
      ASSERT_EQ(raw.write(std::string(4 * 512, 'N'), 0), SQLITE_OK);
      ASSERT_EQ(raw.write(std::string(2 * 512, 'A'), 4 * 512), SQLITE_OK);
    }
    powerloss::FaultVfs::shared().materialize();
    const std::string after = readFile(path);
    ASSERT_GE(after.size(), synced.size());
    std::string sectors;  // per overwritten sector: o (old), N (new), ? (neither, or mixed)
    for (std::size_t s = 0; s < 4; ++s) {
      const std::string sector = after.substr(s * 512, 512);
      if (sector == std::string(512, 'o')) {
        sectors += 'o';
      } else if (sector == std::string(512, 'N')) {
        sectors += 'N';
      } else {
        sectors += '?';
      }
    }
    EXPECT_EQ(sectors.find('?'), std::string::npos) << "seed " << seed << ": a sector half written: " << sectors;
    if (sectors == "ooNN" || sectors == "oooN" || sectors == "oNNN") suffixKept = true;
    if (sectors == "NNoo" || sectors == "Nooo" || sectors == "NNNo") prefixKept = true;
    if (after.size() > synced.size()) {
      const std::string grown = after.substr(synced.size());
      if (grown.find_first_not_of('A') != std::string::npos && grown.find_first_not_of('\0') != std::string::npos) {
        longerWithGarbage = true;
      }
    }
  }
  EXPECT_TRUE(prefixKept);
  EXPECT_TRUE(suffixKept) << "a torn write never kept the end of what it wrote";
  EXPECT_TRUE(longerWithGarbage) << "an append that did not land never left the file longer, with garbage";
}

// Without powersafe overwrite, a write that did not complete can damage the
// rest of a sector it only partly covered (bytes synced long before); with
// it, never.
TEST_F(FaultVfsModel, WithoutPowersafeOverwriteAnUnfinishedWriteCanGarbleItsWholeSector) {
  const std::string path = dir_ / "psow.db";
  const std::string synced(2 * 512, 'o');
  for (const bool powersafe : {false, true}) {
    bool neighbourDamaged = false;
    for (std::uint64_t seed = 1; seed <= 200; ++seed) {
      writePlainFile(path, synced);
      powerloss::FaultVfs::shared().arm(cutAfterEverything(seed, powersafe));
      {
        RawFile raw(path, false);
        ASSERT_TRUE(raw.isOpen());
        ASSERT_EQ(raw.write(std::string(100, 'N'), 200), SQLITE_OK);  // bytes 200..299 of sector 0
      }
      powerloss::FaultVfs::shared().materialize();
      const std::string after = readFile(path);
      ASSERT_EQ(after.size(), synced.size());
      const std::string outside = after.substr(0, 200) + after.substr(300);
      if (outside != synced.substr(0, 200) + synced.substr(300)) neighbourDamaged = true;
    }
    EXPECT_EQ(neighbourDamaged, !powersafe) << (powersafe ? "with" : "without") << " powersafe overwrite";
  }
}

// Unsynced directory changes to different names survive in any combination:
// a file made after another can survive it (no single in-order prefix).
TEST_F(FaultVfsModel, UnsyncedEntriesOfDifferentNamesSurviveIndependently) {
  const std::string first = dir_ / "first.db";
  const std::string second = dir_ / "second.db";
  bool secondWithoutFirst = false, firstWithoutSecond = false;
  for (std::uint64_t seed = 1; seed <= 100; ++seed) {
    std::remove(first.c_str());
    std::remove(second.c_str());
    powerloss::FaultVfs::shared().arm(cutAfterEverything(seed, true));
    {
      RawFile a(first, true);
      RawFile b(second, true);
      ASSERT_TRUE(a.isOpen() && b.isOpen());
    }
    powerloss::FaultVfs::shared().materialize();
    const bool hasFirst = fileExists(first);
    const bool hasSecond = fileExists(second);
    secondWithoutFirst = secondWithoutFirst || (hasSecond && !hasFirst);
    firstWithoutSecond = firstWithoutSecond || (hasFirst && !hasSecond);
  }
  EXPECT_TRUE(firstWithoutSecond);
  EXPECT_TRUE(secondWithoutFirst) << "the later entry never survived the earlier one's loss";
}
