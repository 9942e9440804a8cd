// A VFS for tests that simulates power loss and I/O faults, wrapping the
// default VFS (registered as "powerloss", never the default).
//
// The disk. Every file reports the sector size and device characteristics
// of the plan (512-byte sectors, with or without
// SQLITE_IOCAP_POWERSAFE_OVERWRITE), never the host's, so a run tests the
// same thing wherever it runs.
//
// Power loss. It keeps, per file, the content as of that file's last
// completed sync and every write and truncate since; and, for the file
// system, every directory entry made or removed since that directory was
// last synced. Armed with a cut at point N (points are writes and syncs, of
// every file, counted from the arming), the N-th point does not happen and
// neither does any later write, sync, truncate or delete (they fail with an
// I/O error, as calls into a machine that is off would never return).
// `materialize` then writes to disk what the machine would find on reboot,
// as SQLite's own assumptions about disks allow (atomiccommit.html, "Hardware
// Assumptions"; psow.html):
// - each unsynced write is kept, dropped, or torn at a sector boundary: a
//   prefix or a suffix of the sectors it covers reaches the disk, from
//   either end;
// - space a file grows into holds garbage, not zeros, unless a surviving
//   write put data there: a dropped or torn append may leave the file
//   longer, its new end garbage (the size reached the disk before the data);
// - without powersafe overwrite, a write that did not complete may also
//   leave garbage in the rest of the sectors it partly covered, bytes it
//   never meant to change (with it, only the bytes written are at risk);
// - each unsynced truncate is kept or dropped;
// - unsynced directory changes (a file made, removed, linked or renamed)
//   survive as any subset in which each name's changes are a prefix of
//   that name's own history (a rename is in the history of both its names).
//   A journaling file system that commits metadata in one ordered journal
//   (ext4 data=ordered) only ever loses a suffix of all of them; POSIX
//   promises nothing before the directory's fsync, and file systems that log
//   per inode or reorder (XFS delayed logging, btrfs log trees, ext4 fast
//   commits) can keep a later change to one name and lose an earlier one to
//   another. The model takes the weaker promise, keeping only what no file
//   system breaks: a name never holds an older entry after a newer one.
// Every choice comes from the seed, so a cut is replayed by (point, seed).
//
// I/O faults. Armed with a fault, the N-th call of one kind (read, write,
// sync, truncate, lock, unlock, file size, open, delete, access, shared
// memory) fails with its SQLITE_IOERR_<kind> code (SQLITE_CANTOPEN for an
// open) or, for writes and truncates, SQLITE_FULL, and does nothing; with
// `persistent`, every later call of that kind fails too (a disk that stays
// full), until `clearFault`. A fault may be followed by a power cut
// (`cutAt`), and `materialize` works as after any cut.
//
// Directory syncs the default VFS makes itself are modelled where it makes
// them: at the first sync of a rollback journal or WAL it created, and at a
// delete asked to sync the directory. Shared memory (-shm) holds nothing
// durable: SQLite rebuilds it after a crash; its mapping can fail.
//
// Syncs are simulated: the model decides what is durable, so the real fsync
// is skipped (which also keeps thousands of cuts fast).
//
// One instance serves the process; arm it, run a scenario through the VFS,
// close every connection, then materialize (or disarm). A file opened under
// an earlier arming (or before any) is taken up at its next call, as durable
// as it is on disk then. The VFS's own bookkeeping and the writes, truncates
// and syncs it passes on are serialized by one mutex.
#pragma once

#include <sqlite3.h>

#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <vector>

namespace powerloss {

/// The kinds of call an I/O fault can hit.
enum class CallKind { Read, Write, Sync, Truncate, Lock, Unlock, FileSize, Open, Delete, Access, Shm };
constexpr int kCallKinds = 11;
const char* callKindName(CallKind kind);

/// What the VFS does from its arming on.
struct Plan {
  enum class Mode {
    Record,    ///< count points and calls, change nothing
    PowerCut,  ///< cut at point `at`
    Fault,     ///< fail the `at`-th call of `kind`
  };
  Mode mode = Mode::Record;
  std::int64_t at = 0;  // 1-based
  std::uint64_t seed = 0;
  CallKind kind = CallKind::Write;
  bool diskFull = false;             // Fault: SQLITE_FULL instead of an I/O error (writes and truncates)
  bool persistent = false;           // Fault: every later call of `kind` fails too
  std::int64_t cutAt = 0;            // Fault: a power cut at this point too (0: none)
  bool sabotageSyncs = false;        // to show the checks fail: file syncs make nothing durable
  bool sabotageDirectories = false;  // to show the checks fail: directory syncs make nothing durable
  int sectorSize = 512;              // what xSectorSize reports
  bool powersafeOverwrite = false;   // xDeviceCharacteristics: SQLITE_IOCAP_POWERSAFE_OVERWRITE or nothing
};

/// What one armed run did.
struct Counts {
  std::int64_t points = 0;              // writes and syncs
  std::int64_t calls[kCallKinds] = {};  // by CallKind
  bool cut = false;                     // the power cut happened
  std::int64_t faults = 0;              // calls failed by the fault
  std::int64_t pointsAtFault = -1;      // points before the first failed call (-1: none failed)
};

class FaultVfs {
 public:
  /// The instance, registered under `name()` on first use.
  static FaultVfs& shared();
  /// The VFS's name (registering it first, so a Configuration may name it).
  static const char* name() {
    shared();
    return kName;
  }
  static constexpr const char* kName = "powerloss";

  /// Starts a run: forgets every file and count, takes every file opened from
  /// now on as durable as it is on disk when first opened.
  void arm(const Plan& plan);
  /// Stops a run without touching the disk (counts stay readable).
  void disarm();
  Counts counts();
  /// Ends a fault: later calls succeed again.
  void clearFault();
  /// After a cut, with every connection closed: writes to disk the state a
  /// reboot would find, then disarms. Returns a one-line account (files
  /// rewritten or removed, writes kept, dropped and torn, entries lost).
  std::string materialize();
  /// Treats `directory` as synced now (for file operations done outside
  /// SQLite, which the tests report).
  void directorySynced(const std::string& directory);

  // The core's own file operations (FileOperationAdapter.cpp reports them):
  // a creation, a write, a sync, a directory sync, a link, a rename and a
  // remove are points; writes and syncs are also calls an I/O fault can hit.
  /// 0 when the operation may run; else the errno it must fail with.
  int refusal(bool isWrite, bool isSync);
  void ownCreated(const std::string& path);
  void ownWrote(const std::string& path, std::int64_t offset, const char* data, std::size_t size);
  void ownSynced(const std::string& path);
  void ownLinked(const std::string& from, const std::string& to);
  void ownRenamed(const std::string& from, const std::string& to);
  void ownRemoved(const std::string& path);

 private:
  FaultVfs();
  friend struct FaultVfsAccess;

  struct Change {
    bool truncate = false;
    std::int64_t offset = 0;  // truncate: the new size
    std::string data;
  };
  // One life of a path, from its creation (or the arming) to its removal.
  struct Incarnation {
    std::string path;
    bool syncedEver = false;  // some sync of it completed
    std::string synced;       // content as of its last completed sync
    std::vector<Change> pending;
  };
  struct EntryChange {
    enum class Kind { Create, Remove, Rename } kind = Kind::Create;
    std::string path;
    std::string target;    // Rename: the new name (in the same directory)
    int incarnation = -1;  // Create, Rename: the file the entry names
  };

  int incarnationOf(const std::string& path);
  void synced(int incarnation, const std::string& content);
  void entryChanged(EntryChange::Kind kind, const std::string& path, int incarnation,
                    const std::string& target = std::string());
  void applyEntry(const EntryChange& change);  // makes it durable
  bool hitsPoint();                            // counts a point; true when it is the cut
  bool faultHits(CallKind kind);               // counts a call; true when it must fail
  int faultCode(CallKind kind) const;
  bool cutFor(std::int64_t point) const;  // whether the plan cuts the power at `point`

  std::recursive_mutex mutex_;
  Plan plan_;
  Counts counts_;
  bool armed_ = false;
  std::uint64_t generation_ = 0;  // counts armings: a file's incarnation holds for one
  std::vector<Incarnation> incarnations_;
  std::map<std::string, int> live_;          // path -> its current incarnation
  std::vector<EntryChange> entries_;         // entry changes not yet made durable by a directory sync
  std::map<std::string, int> durableEntry_;  // path -> incarnation its durable entry names (-1: none)
  sqlite3_vfs vfs_{};
  sqlite3_vfs* base_ = nullptr;
};

}  // namespace powerloss
