/// Lets one ``SyncEngine/sync()`` of an engine run its round at a time
/// (the core fails a second concurrent round with `.misuse`): the others
/// wait, without blocking a thread, and go in the order they came.
///
/// The lock is handed straight to the first waiter when it is given up, so
/// no later caller can overtake the waiters and no wake-up is lost.
actor SyncRoundLock {
  private var held = false
  private var waiters: [CheckedContinuation<Void, Never>] = []

  /// Waits until the lock is this caller's. Not cancellable: a cancelled
  /// caller gets the lock in its turn and gives it up at once.
  func lock() async {
    guard held else {
      held = true
      return
    }
    // The body runs on this actor before it suspends: the waiter is queued
    // before any `unlock` can look for it.
    await withCheckedContinuation { waiters.append($0) }
  }

  /// Gives the lock up: to the first waiter (which then holds it), or to
  /// nobody.
  func unlock() {
    guard !waiters.isEmpty else {
      held = false
      return
    }
    waiters.removeFirst().resume()
  }

  /// How many callers wait for the lock (for tests that must know a caller
  /// is queued before they go on).
  var waitingCount: Int { waiters.count }
}
