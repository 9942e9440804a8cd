import Foundation

/// Which file a path names, after following links: the device and inode.
struct FileIdentity: Equatable {
  let device: UInt64
  let inode: UInt64

  /// Nil when `path` names no file (or cannot be examined).
  init?(_ path: String) {
    var info = stat()
    guard stat(path, &info) == 0 else { return nil }
    device = UInt64(info.st_dev)
    inode = UInt64(info.st_ino)
  }
}
