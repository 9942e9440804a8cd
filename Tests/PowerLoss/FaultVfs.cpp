#include "FaultVfs.hpp"

#include <fcntl.h>
#include <sys/stat.h>

#include <cerrno>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <random>

namespace powerloss {

const char* callKindName(CallKind kind) {
  switch (kind) {
    case CallKind::Read:
      return "read";
    case CallKind::Write:
      return "write";
    case CallKind::Sync:
      return "sync";
    case CallKind::Truncate:
      return "truncate";
    case CallKind::Lock:
      return "lock";
    case CallKind::Unlock:
      return "unlock";
    case CallKind::FileSize:
      return "filesize";
    case CallKind::Open:
      return "open";
    case CallKind::Delete:
      return "delete";
    case CallKind::Access:
      return "access";
    case CallKind::Shm:
      return "shm";
  }
  return "?";
}

namespace {

std::string parentOf(const std::string& path) {
  const std::size_t slash = path.find_last_of('/');
  if (slash == std::string::npos) return ".";
  return slash == 0 ? "/" : path.substr(0, slash);
}

bool readWholeFile(const std::string& path, std::string& out) {
  out.clear();
  const int fd = ::open(path.c_str(), O_RDONLY);
  if (fd < 0) return false;
  char buffer[1 << 16];
  for (;;) {
    const ssize_t got = ::read(fd, buffer, sizeof buffer);
    if (got <= 0) break;
    out.append(buffer, static_cast<std::size_t>(got));
  }
  ::close(fd);
  return true;
}

bool writeWholeFile(const std::string& path, const std::string& content) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (fd < 0) return false;
  std::size_t done = 0;
  while (done < content.size()) {
    const ssize_t put = ::write(fd, content.data() + done, content.size() - done);
    if (put <= 0) break;
    done += static_cast<std::size_t>(put);
  }
  // No fsync: the machine is not really losing power, and the next reader is
  // in this process.
  ::close(fd);
  return done == content.size();
}

// `size` bytes of garbage (what a sector never written, or torn, may hold).
std::string garbage(std::mt19937_64& random, std::size_t size) {
  std::string bytes(size, '\0');
  for (std::size_t i = 0; i < size; ++i) bytes[i] = static_cast<char>(random() & 0xff);
  return bytes;
}

// Makes `content` at least `size` long, the space it grows into garbage.
void growWithGarbage(std::string& content, std::size_t size, std::mt19937_64& random) {
  if (content.size() < size) content += garbage(random, size - content.size());
}

// Puts `size` bytes of `data` at `at` (the file growing with garbage up to it).
void put(std::string& content, std::size_t at, const char* data, std::size_t size, std::mt19937_64& random) {
  growWithGarbage(content, at, random);
  if (content.size() < at + size) content.resize(at + size);
  std::memcpy(&content[at], data, size);
}

}  // namespace

// The file handle the VFS gives SQLite: ours first, the default VFS's after.
struct FaultFile {
  sqlite3_file base;
  FaultVfs* vfs;
  int incarnation;           // in the arming `generation`; -1: not tracked yet
  std::uint64_t generation;  // the arming `incarnation` belongs to
  bool syncsDirectory;       // the default VFS syncs the directory at this file's first sync
  std::string* path;         // owned; null for a file never tracked (a temporary without a name)
  sqlite3_file* real() { return reinterpret_cast<sqlite3_file*>(this + 1); }
};

struct FaultVfsAccess {
  // The file's incarnation in the current arming (the mutex held), or -1
  // when nothing is armed or the file is never tracked. A file opened under
  // an earlier arming (or before any) is taken up at its first call under
  // this one, as durable as it is on disk then: an arming forgets every
  // incarnation, so an index from an earlier one names another file, or none.
  static int tracked(FaultVfs& vfs, FaultFile& ours) {
    if (!vfs.armed_ || ours.path == nullptr) return -1;
    if (ours.generation != vfs.generation_ || ours.incarnation < 0) {
      ours.incarnation = vfs.incarnationOf(*ours.path);
      ours.generation = vfs.generation_;
    }
    return ours.incarnation;
  }

  static FaultVfs& of(sqlite3_file* file) { return *reinterpret_cast<FaultFile*>(file)->vfs; }
  static FaultFile& file(sqlite3_file* file) { return *reinterpret_cast<FaultFile*>(file); }
  static sqlite3_file* real(sqlite3_file* file) { return reinterpret_cast<FaultFile*>(file)->real(); }

  static int close(sqlite3_file* file) {
    FaultFile& ours = FaultVfsAccess::file(file);
    const int rc = ours.real()->pMethods != nullptr ? ours.real()->pMethods->xClose(ours.real()) : SQLITE_OK;
    delete ours.path;
    ours.path = nullptr;
    return rc;
  }

  static int read(sqlite3_file* file, void* buffer, int amount, sqlite3_int64 offset) {
    FaultVfs& vfs = of(file);
    {
      std::lock_guard<std::recursive_mutex> lock(vfs.mutex_);
      if (vfs.faultHits(CallKind::Read)) return vfs.faultCode(CallKind::Read);
    }
    return real(file)->pMethods->xRead(real(file), buffer, amount, offset);
  }

  static int write(sqlite3_file* file, const void* data, int amount, sqlite3_int64 offset) {
    FaultVfs& vfs = of(file);
    FaultFile& ours = FaultVfsAccess::file(file);
    std::lock_guard<std::recursive_mutex> lock(vfs.mutex_);
    if (vfs.counts_.cut) return SQLITE_IOERR_WRITE;
    if (vfs.faultHits(CallKind::Write)) return vfs.faultCode(CallKind::Write);
    const int incarnation = tracked(vfs, ours);
    if (incarnation >= 0) {
      if (vfs.hitsPoint()) return SQLITE_IOERR_WRITE;
      FaultVfs::Change change;
      change.offset = offset;
      change.data.assign(static_cast<const char*>(data), static_cast<std::size_t>(amount));
      vfs.incarnations_[static_cast<std::size_t>(incarnation)].pending.push_back(std::move(change));
    }
    return real(file)->pMethods->xWrite(real(file), data, amount, offset);
  }

  static int truncate(sqlite3_file* file, sqlite3_int64 size) {
    FaultVfs& vfs = of(file);
    FaultFile& ours = FaultVfsAccess::file(file);
    std::lock_guard<std::recursive_mutex> lock(vfs.mutex_);
    if (vfs.counts_.cut) return SQLITE_IOERR_TRUNCATE;
    if (vfs.faultHits(CallKind::Truncate)) return vfs.faultCode(CallKind::Truncate);
    const int incarnation = tracked(vfs, ours);
    if (incarnation >= 0) {
      FaultVfs::Change change;
      change.truncate = true;
      change.offset = size;
      vfs.incarnations_[static_cast<std::size_t>(incarnation)].pending.push_back(std::move(change));
    }
    return real(file)->pMethods->xTruncate(real(file), size);
  }

  static int sync(sqlite3_file* file, int flags) {
    FaultVfs& vfs = of(file);
    FaultFile& ours = FaultVfsAccess::file(file);
    std::lock_guard<std::recursive_mutex> lock(vfs.mutex_);
    if (vfs.counts_.cut) return SQLITE_IOERR_FSYNC;
    if (vfs.faultHits(CallKind::Sync)) return vfs.faultCode(CallKind::Sync);
    const int incarnation = tracked(vfs, ours);
    if (incarnation < 0) return SQLITE_OK;  // a temporary file, or nothing armed: nothing to keep
    if (vfs.hitsPoint()) return SQLITE_IOERR_FSYNC;
    // The real fsync is skipped: what is durable is the model's to say.
    (void)flags;
    const int rc = SQLITE_OK;
    std::string content;
    sqlite3_int64 size = 0;
    if (real(file)->pMethods->xFileSize(real(file), &size) == SQLITE_OK && size > 0) {
      content.resize(static_cast<std::size_t>(size));
      const int got = real(file)->pMethods->xRead(real(file), &content[0], static_cast<int>(size), 0);
      if (got != SQLITE_OK) content.clear();
    }
    if (!vfs.plan_.sabotageSyncs) vfs.synced(incarnation, content);
    if (ours.syncsDirectory) {
      ours.syncsDirectory = false;
      vfs.directorySynced(parentOf(*ours.path));
    }
    return rc;
  }

  // Fails the call when the armed fault says so (the mutex taken); else 0.
  static int refused(sqlite3_file* file, CallKind kind) {
    FaultVfs& vfs = of(file);
    std::lock_guard<std::recursive_mutex> guard(vfs.mutex_);
    return vfs.faultHits(kind) ? vfs.faultCode(kind) : 0;
  }

  static int fileSize(sqlite3_file* file, sqlite3_int64* size) {
    if (const int rc = refused(file, CallKind::FileSize)) return rc;
    return real(file)->pMethods->xFileSize(real(file), size);
  }
  static int lock(sqlite3_file* file, int level) {
    FaultVfs& vfs = of(file);
    {
      std::lock_guard<std::recursive_mutex> guard(vfs.mutex_);
      if (vfs.faultHits(CallKind::Lock)) return vfs.faultCode(CallKind::Lock);
    }
    return real(file)->pMethods->xLock(real(file), level);
  }
  static int unlock(sqlite3_file* file, int level) {
    if (const int rc = refused(file, CallKind::Unlock)) return rc;
    return real(file)->pMethods->xUnlock(real(file), level);
  }
  static int checkReservedLock(sqlite3_file* file, int* out) {
    return real(file)->pMethods->xCheckReservedLock(real(file), out);
  }
  static int fileControl(sqlite3_file* file, int op, void* argument) {
    return real(file)->pMethods->xFileControl(real(file), op, argument);
  }
  // The plan's disk, never the host's.
  static int sectorSize(sqlite3_file* file) {
    FaultVfs& vfs = of(file);
    std::lock_guard<std::recursive_mutex> guard(vfs.mutex_);
    return vfs.plan_.sectorSize;
  }
  static int deviceCharacteristics(sqlite3_file* file) {
    FaultVfs& vfs = of(file);
    std::lock_guard<std::recursive_mutex> guard(vfs.mutex_);
    return vfs.plan_.powersafeOverwrite ? SQLITE_IOCAP_POWERSAFE_OVERWRITE : 0;
  }
  static int shmMap(sqlite3_file* file, int region, int size, int extend, void volatile** out) {
    if (const int rc = refused(file, CallKind::Shm)) {
      *out = nullptr;
      return rc;
    }
    return real(file)->pMethods->xShmMap(real(file), region, size, extend, out);
  }
  static int shmLock(sqlite3_file* file, int offset, int n, int flags) {
    return real(file)->pMethods->xShmLock(real(file), offset, n, flags);
  }
  static void shmBarrier(sqlite3_file* file) { real(file)->pMethods->xShmBarrier(real(file)); }
  static int shmUnmap(sqlite3_file* file, int deleteFlag) {
    return real(file)->pMethods->xShmUnmap(real(file), deleteFlag);
  }
  static int fetch(sqlite3_file* file, sqlite3_int64 offset, int amount, void** out) {
    // No memory-mapped reads: every read goes through xRead, where faults land.
    (void)file;
    (void)offset;
    (void)amount;
    *out = nullptr;
    return SQLITE_OK;
  }
  static int unfetch(sqlite3_file* file, sqlite3_int64 offset, void* pointer) {
    (void)file;
    (void)offset;
    (void)pointer;
    return SQLITE_OK;
  }

  static const sqlite3_io_methods* methods() {
    static const sqlite3_io_methods table = {
        3,
        close,
        read,
        write,
        truncate,
        sync,
        fileSize,
        lock,
        unlock,
        checkReservedLock,
        fileControl,
        sectorSize,
        deviceCharacteristics,
        shmMap,
        shmLock,
        shmBarrier,
        shmUnmap,
        fetch,
        unfetch,
    };
    return &table;
  }

  static int open(sqlite3_vfs* vfs, const char* name, sqlite3_file* file, int flags, int* outFlags) {
    FaultVfs& self = *static_cast<FaultVfs*>(vfs->pAppData);
    FaultFile& ours = FaultVfsAccess::file(file);
    ours.vfs = &self;
    ours.incarnation = -1;
    ours.generation = 0;
    ours.syncsDirectory = false;
    ours.path = nullptr;
    ours.base.pMethods = nullptr;
    {
      std::lock_guard<std::recursive_mutex> lock(self.mutex_);
      if (self.faultHits(CallKind::Open)) return SQLITE_CANTOPEN;
      if (self.counts_.cut && (flags & SQLITE_OPEN_CREATE) != 0) {
        struct stat info;
        if (name == nullptr || ::stat(name, &info) != 0) return SQLITE_CANTOPEN;
      }
    }
    // Whether the open makes the file (a new directory entry, not durable
    // until its directory is synced).
    struct stat before;
    const bool existed = name == nullptr || ::stat(name, &before) == 0;
    const int rc = self.base_->xOpen(self.base_, name, ours.real(), flags, outFlags);
    if (rc != SQLITE_OK) return rc;
    ours.base.pMethods = methods();
    if (name != nullptr && (flags & SQLITE_OPEN_DELETEONCLOSE) == 0) {
      std::lock_guard<std::recursive_mutex> lock(self.mutex_);
      ours.path = new std::string(name);
      const int journals = SQLITE_OPEN_MAIN_JOURNAL | SQLITE_OPEN_SUPER_JOURNAL | SQLITE_OPEN_WAL;
      ours.syncsDirectory = (flags & SQLITE_OPEN_CREATE) != 0 && (flags & journals) != 0;
      if (!existed && self.armed_) {
        self.ownCreated(name);
        ours.incarnation = self.live_[name];
        ours.generation = self.generation_;
      } else {
        tracked(self, ours);
      }
    }
    return SQLITE_OK;
  }

  static int remove(sqlite3_vfs* vfs, const char* name, int syncDirectory) {
    FaultVfs& self = *static_cast<FaultVfs*>(vfs->pAppData);
    std::lock_guard<std::recursive_mutex> lock(self.mutex_);
    if (self.counts_.cut) return SQLITE_IOERR_DELETE;
    if (self.faultHits(CallKind::Delete)) return SQLITE_IOERR_DELETE;
    // Armed, the model syncs the directory; the real one need not be.
    const int rc = self.base_->xDelete(self.base_, name, self.armed_ ? 0 : syncDirectory);
    if (self.armed_) {
      auto live = self.live_.find(name);
      if (live != self.live_.end()) {
        self.entryChanged(FaultVfs::EntryChange::Kind::Remove, name, live->second);
        self.live_.erase(live);
      }
      if (syncDirectory != 0 && rc == SQLITE_OK) self.directorySynced(parentOf(name));
    }
    return rc;
  }

  static int access(sqlite3_vfs* vfs, const char* name, int flags, int* out) {
    FaultVfs& self = *static_cast<FaultVfs*>(vfs->pAppData);
    {
      std::lock_guard<std::recursive_mutex> lock(self.mutex_);
      if (self.faultHits(CallKind::Access)) return SQLITE_IOERR_ACCESS;
    }
    return self.base_->xAccess(self.base_, name, flags, out);
  }
  static int fullPathname(sqlite3_vfs* vfs, const char* name, int size, char* out) {
    sqlite3_vfs* base = static_cast<FaultVfs*>(vfs->pAppData)->base_;
    return base->xFullPathname(base, name, size, out);
  }
  static void* dlOpen(sqlite3_vfs* vfs, const char* name) {
    sqlite3_vfs* base = static_cast<FaultVfs*>(vfs->pAppData)->base_;
    return base->xDlOpen(base, name);
  }
  static void dlError(sqlite3_vfs* vfs, int size, char* out) {
    sqlite3_vfs* base = static_cast<FaultVfs*>(vfs->pAppData)->base_;
    base->xDlError(base, size, out);
  }
  static void (*dlSym(sqlite3_vfs* vfs, void* handle, const char* symbol))(void) {
    sqlite3_vfs* base = static_cast<FaultVfs*>(vfs->pAppData)->base_;
    return base->xDlSym(base, handle, symbol);
  }
  static void dlClose(sqlite3_vfs* vfs, void* handle) {
    sqlite3_vfs* base = static_cast<FaultVfs*>(vfs->pAppData)->base_;
    base->xDlClose(base, handle);
  }
  static int randomness(sqlite3_vfs* vfs, int size, char* out) {
    sqlite3_vfs* base = static_cast<FaultVfs*>(vfs->pAppData)->base_;
    return base->xRandomness(base, size, out);
  }
  static int sleep(sqlite3_vfs* vfs, int microseconds) {
    sqlite3_vfs* base = static_cast<FaultVfs*>(vfs->pAppData)->base_;
    return base->xSleep(base, microseconds);
  }
  static int currentTime(sqlite3_vfs* vfs, double* out) {
    sqlite3_vfs* base = static_cast<FaultVfs*>(vfs->pAppData)->base_;
    return base->xCurrentTime(base, out);
  }
  static int lastError(sqlite3_vfs* vfs, int size, char* out) {
    sqlite3_vfs* base = static_cast<FaultVfs*>(vfs->pAppData)->base_;
    return base->xGetLastError(base, size, out);
  }
  static int currentTimeInt64(sqlite3_vfs* vfs, sqlite3_int64* out) {
    sqlite3_vfs* base = static_cast<FaultVfs*>(vfs->pAppData)->base_;
    return base->xCurrentTimeInt64(base, out);
  }
};

FaultVfs::FaultVfs() {
  base_ = sqlite3_vfs_find(nullptr);
  vfs_.iVersion = 2;
  vfs_.szOsFile = static_cast<int>(sizeof(FaultFile)) + base_->szOsFile;
  vfs_.mxPathname = base_->mxPathname;
  vfs_.zName = kName;
  vfs_.pAppData = this;
  vfs_.xOpen = FaultVfsAccess::open;
  vfs_.xDelete = FaultVfsAccess::remove;
  vfs_.xAccess = FaultVfsAccess::access;
  vfs_.xFullPathname = FaultVfsAccess::fullPathname;
  vfs_.xDlOpen = FaultVfsAccess::dlOpen;
  vfs_.xDlError = FaultVfsAccess::dlError;
  vfs_.xDlSym = FaultVfsAccess::dlSym;
  vfs_.xDlClose = FaultVfsAccess::dlClose;
  vfs_.xRandomness = FaultVfsAccess::randomness;
  vfs_.xSleep = FaultVfsAccess::sleep;
  vfs_.xCurrentTime = FaultVfsAccess::currentTime;
  vfs_.xGetLastError = FaultVfsAccess::lastError;
  vfs_.xCurrentTimeInt64 = FaultVfsAccess::currentTimeInt64;
  sqlite3_vfs_register(&vfs_, 0);
}

FaultVfs& FaultVfs::shared() {
  static FaultVfs* instance = new FaultVfs();  // lives as long as SQLite may call it
  return *instance;
}

void FaultVfs::arm(const Plan& plan) {
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  plan_ = plan;
  counts_ = Counts{};
  armed_ = true;
  ++generation_;
  incarnations_.clear();
  live_.clear();
  entries_.clear();
  durableEntry_.clear();
}

void FaultVfs::disarm() {
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  armed_ = false;
  plan_ = Plan{};
  counts_.cut = false;
}

Counts FaultVfs::counts() {
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  return counts_;
}

void FaultVfs::clearFault() {
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  if (plan_.mode == Plan::Mode::Fault) plan_.mode = Plan::Mode::Record;
}

int FaultVfs::incarnationOf(const std::string& path) {
  auto live = live_.find(path);
  if (live != live_.end()) return live->second;
  const int id = static_cast<int>(incarnations_.size());
  Incarnation incarnation;
  incarnation.path = path;
  struct stat info;
  const bool exists = ::stat(path.c_str(), &info) == 0;
  if (exists) {
    incarnation.syncedEver = true;
    readWholeFile(path, incarnation.synced);
  }
  incarnations_.push_back(std::move(incarnation));
  live_[path] = id;
  // A file there before the run (which the harness synced) is durable as it
  // is; any other is a new entry.
  bool seenBefore = durableEntry_.count(path) != 0;
  for (const EntryChange& change : entries_) seenBefore = seenBefore || change.path == path;
  if (exists && !seenBefore) {
    durableEntry_[path] = id;
  } else {
    entryChanged(EntryChange::Kind::Create, path, id);
  }
  return id;
}

void FaultVfs::synced(int incarnation, const std::string& content) {
  Incarnation& which = incarnations_[static_cast<std::size_t>(incarnation)];
  which.syncedEver = true;
  which.synced = content;
  which.pending.clear();
}

void FaultVfs::entryChanged(EntryChange::Kind kind, const std::string& path, int incarnation,
                            const std::string& target) {
  EntryChange change;
  change.kind = kind;
  change.path = path;
  change.target = target;
  change.incarnation = incarnation;
  entries_.push_back(std::move(change));
}

void FaultVfs::applyEntry(const EntryChange& change) {
  switch (change.kind) {
    case EntryChange::Kind::Create:
      durableEntry_[change.path] = change.incarnation;
      break;
    case EntryChange::Kind::Remove:
      durableEntry_[change.path] = -1;
      break;
    case EntryChange::Kind::Rename:
      durableEntry_[change.path] = -1;
      durableEntry_[change.target] = change.incarnation;
      break;
  }
}

void FaultVfs::directorySynced(const std::string& directory) {
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  if (plan_.sabotageDirectories) return;
  std::vector<EntryChange> left;
  for (EntryChange& change : entries_) {
    if (parentOf(change.path) == directory) {
      applyEntry(change);
    } else {
      left.push_back(std::move(change));
    }
  }
  entries_ = std::move(left);
}

int FaultVfs::refusal(bool isWrite, bool isSync) {
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  if (!armed_) return 0;
  if (counts_.cut) return EIO;
  if (isWrite && faultHits(CallKind::Write)) return plan_.diskFull ? ENOSPC : EIO;
  if (isSync && faultHits(CallKind::Sync)) return EIO;
  return hitsPoint() ? EIO : 0;
}

void FaultVfs::ownCreated(const std::string& path) {
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  if (!armed_) return;
  const int id = static_cast<int>(incarnations_.size());
  Incarnation incarnation;
  incarnation.path = path;
  incarnations_.push_back(std::move(incarnation));
  live_[path] = id;
  entryChanged(EntryChange::Kind::Create, path, id);
}

void FaultVfs::ownWrote(const std::string& path, std::int64_t offset, const char* data, std::size_t size) {
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  if (!armed_) return;
  Change change;
  change.offset = offset;
  change.data.assign(data, size);
  incarnations_[static_cast<std::size_t>(incarnationOf(path))].pending.push_back(std::move(change));
}

void FaultVfs::ownSynced(const std::string& path) {
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  if (!armed_ || plan_.sabotageSyncs) return;
  std::string content;
  readWholeFile(path, content);
  synced(incarnationOf(path), content);
}

void FaultVfs::ownLinked(const std::string& from, const std::string& to) {
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  if (!armed_) return;
  const int id = incarnationOf(from);
  live_[to] = id;
  entryChanged(EntryChange::Kind::Create, to, id);
}

void FaultVfs::ownRenamed(const std::string& from, const std::string& to) {
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  if (!armed_) return;
  const int id = incarnationOf(from);
  live_.erase(from);
  live_[to] = id;
  entryChanged(EntryChange::Kind::Rename, from, id, to);
}

void FaultVfs::ownRemoved(const std::string& path) {
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  if (!armed_) return;
  auto live = live_.find(path);
  if (live == live_.end()) return;
  entryChanged(EntryChange::Kind::Remove, path, live->second);
  live_.erase(live);
}

bool FaultVfs::cutFor(std::int64_t point) const {
  if (plan_.mode == Plan::Mode::PowerCut) return point == plan_.at;
  return plan_.mode == Plan::Mode::Fault && plan_.cutAt > 0 && point == plan_.cutAt;
}

bool FaultVfs::hitsPoint() {
  if (!armed_) return false;
  ++counts_.points;
  if (cutFor(counts_.points)) {
    counts_.cut = true;
    return true;
  }
  return false;
}

bool FaultVfs::faultHits(CallKind kind) {
  if (!armed_) return false;
  const std::int64_t call = ++counts_.calls[static_cast<int>(kind)];
  if (plan_.mode != Plan::Mode::Fault || plan_.kind != kind) return false;
  if (call == plan_.at || (plan_.persistent && call > plan_.at)) {
    if (counts_.faults == 0) counts_.pointsAtFault = counts_.points;
    ++counts_.faults;
    return true;
  }
  return false;
}

int FaultVfs::faultCode(CallKind kind) const {
  const bool full = plan_.diskFull && (kind == CallKind::Write || kind == CallKind::Truncate);
  if (full) return SQLITE_FULL;
  switch (kind) {
    case CallKind::Read:
      return SQLITE_IOERR_READ;
    case CallKind::Write:
      return SQLITE_IOERR_WRITE;
    case CallKind::Sync:
      return SQLITE_IOERR_FSYNC;
    case CallKind::Truncate:
      return SQLITE_IOERR_TRUNCATE;
    case CallKind::Lock:
      return SQLITE_IOERR_LOCK;
    case CallKind::Unlock:
      return SQLITE_IOERR_UNLOCK;
    case CallKind::FileSize:
      return SQLITE_IOERR_FSTAT;
    case CallKind::Open:
      return SQLITE_CANTOPEN;
    case CallKind::Delete:
      return SQLITE_IOERR_DELETE;
    case CallKind::Access:
      return SQLITE_IOERR_ACCESS;
    case CallKind::Shm:
      return SQLITE_IOERR_SHMMAP;
  }
  return SQLITE_IOERR;
}

std::string FaultVfs::materialize() {
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  std::mt19937_64 random(plan_.seed * 0x9E3779B97F4A7C15ULL + static_cast<std::uint64_t>(plan_.at) +
                         static_cast<std::uint64_t>(plan_.cutAt) * 31);
  // Unsynced directory entries: each name keeps a prefix of its own changes
  // (a rename belongs to both its names), independently of other names.
  std::map<std::string, int> finalEntry;  // every path seen: the incarnation on disk, or -1
  for (const Incarnation& incarnation : incarnations_) finalEntry[incarnation.path] = -1;
  std::map<std::string, bool> brokenName;  // a change of this name was lost: so are its later ones
  std::size_t entriesLost = 0;
  for (const EntryChange& change : entries_) {
    finalEntry[change.path] = -1;
    if (!change.target.empty()) finalEntry[change.target] = -1;
    const bool blocked = brokenName[change.path] || (!change.target.empty() && brokenName[change.target]);
    if (!blocked && random() % 2 == 0) {
      applyEntry(change);
    } else {
      ++entriesLost;
      brokenName[change.path] = true;
      if (!change.target.empty()) brokenName[change.target] = true;
    }
  }
  for (const auto& entry : durableEntry_) finalEntry[entry.first] = entry.second;

  const std::size_t sector = static_cast<std::size_t>(plan_.sectorSize > 0 ? plan_.sectorSize : 512);
  std::size_t kept = 0, dropped = 0, torn = 0, grown = 0, garbled = 0, removed = 0, rewritten = 0;
  for (const auto& entry : finalEntry) {
    if (entry.second < 0) {
      if (::unlink(entry.first.c_str()) == 0) ++removed;
      continue;
    }
    const Incarnation& incarnation = incarnations_[static_cast<std::size_t>(entry.second)];
    std::string content = incarnation.syncedEver ? incarnation.synced : std::string();
    for (const Change& change : incarnation.pending) {
      const int fate = static_cast<int>(random() % 3);  // 0 kept, 1 dropped, 2 torn
      if (change.truncate) {
        if (fate == 1) {
          ++dropped;
        } else {
          content.resize(static_cast<std::size_t>(change.offset), '\0');
          ++kept;
        }
        continue;
      }
      const std::size_t at = static_cast<std::size_t>(change.offset);
      const std::size_t end = at + change.data.size();
      const std::size_t oldSize = content.size();
      const std::size_t first = at / sector;                 // the sectors the write covers
      const std::size_t last = (end + sector - 1) / sector;  // one past
      if (fate == 0 || (fate == 2 && last - first < 2)) {
        put(content, at, change.data.data(), change.data.size(), random);
        ++kept;
        continue;
      }
      // Not all of it reached the disk: the sectors in [keepFrom, keepTo) did.
      std::size_t keepFrom = first, keepTo = first;
      if (fate == 2) {
        const std::size_t count = 1 + static_cast<std::size_t>(random() % (last - first - 1));
        if (random() % 2 == 0) {
          keepTo = first + count;  // a prefix of its sectors
        } else {
          keepFrom = last - count;  // a suffix
          keepTo = last;
        }
        ++torn;
      } else {
        ++dropped;
      }
      const std::size_t from = std::max(at, keepFrom * sector);
      const std::size_t to = std::min(end, keepTo * sector);
      if (from < to) put(content, from, change.data.data() + (from - at), to - from, random);
      // An append: the size may have reached the disk before the data.
      if (end > content.size() && random() % 2 == 0) {
        growWithGarbage(content, end, random);
        ++grown;
      }
      // Without powersafe overwrite, a sector the write only partly covered
      // and did not finish may be garbage through, old bytes included.
      if (!plan_.powersafeOverwrite) {
        for (const std::size_t partial : {first, last - 1}) {
          const bool covered = partial >= keepFrom && partial < keepTo;
          const bool whole = partial * sector >= at && (partial + 1) * sector <= end;
          if (covered || whole || partial * sector >= std::min(oldSize, content.size())) continue;
          if (random() % 2 != 0) continue;
          const std::size_t start = partial * sector;
          const std::size_t size = std::min(sector, content.size() - start);
          content.replace(start, size, garbage(random, size));
          ++garbled;
          if (first == last - 1) break;
        }
      }
    }
    if (writeWholeFile(entry.first, content)) ++rewritten;
  }
  armed_ = false;
  counts_.cut = false;
  plan_ = Plan{};
  return "files rewritten " + std::to_string(rewritten) + ", removed " + std::to_string(removed) +
         "; unsynced writes kept " + std::to_string(kept) + ", dropped " + std::to_string(dropped) + ", torn " +
         std::to_string(torn) + ", left the file longer " + std::to_string(grown) + ", garbled a sector " +
         std::to_string(garbled) + "; directory changes lost " + std::to_string(entriesLost);
}

}  // namespace powerloss
