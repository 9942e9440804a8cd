#include "FileOperationAdapter.hpp"

#include "FaultVfs.hpp"
#include "FileOperationObserver.hpp"

namespace powerloss {

namespace {

using sqlitebridge::FileOperation;

class Adapter : public sqlitebridge::FileOperationObserver {
 public:
  int refusal(const FileOperation& operation) noexcept override {
    return FaultVfs::shared().refusal(
        operation.kind == FileOperation::Kind::Write,
        operation.kind == FileOperation::Kind::Sync || operation.kind == FileOperation::Kind::SyncDirectory);
  }

  void done(const FileOperation& operation, bool succeeded) noexcept override {
    if (!succeeded) return;
    FaultVfs& vfs = FaultVfs::shared();
    try {
      switch (operation.kind) {
        case FileOperation::Kind::Create:
          vfs.ownCreated(operation.path);
          break;
        case FileOperation::Kind::Write:
          vfs.ownWrote(operation.path, operation.offset, operation.data, operation.size);
          break;
        case FileOperation::Kind::Sync:
          vfs.ownSynced(operation.path);
          break;
        case FileOperation::Kind::SyncDirectory:
          vfs.directorySynced(operation.path);
          break;
        case FileOperation::Kind::Link:
          vfs.ownLinked(operation.path, *operation.target);
          break;
        case FileOperation::Kind::Rename:
          vfs.ownRenamed(operation.path, *operation.target);
          break;
        case FileOperation::Kind::Remove:
          vfs.ownRemoved(operation.path);
          break;
      }
    } catch (...) {
      // Out of memory in a test: the model misses one operation.
    }
  }
};

}  // namespace

void observeOwnFileOperations() {
  static Adapter adapter;
  sqlitebridge::setFileOperationObserver(&adapter);
}

}  // namespace powerloss
