import Dispatch
import Foundation

/// Runs `work` (a call that waits: for the writer, for a hub) on a thread of
/// Dispatch's and awaits it, so that no thread of Swift's cooperative pool
/// waits with it. Rethrows what `work` throws.
///
/// `work`'s result, and with it everything `work` wrote (a sync round's
/// state, say), reaches the caller through a lock; the continuation only
/// wakes the caller. The lock orders those writes before the caller's reads
/// in a way ThreadSanitizer sees, which it does not for a continuation
/// resumed before the caller suspended (the CI run of fc719d5 reported a
/// race on a round's state there).
package func awaitOffThePool<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
  let handoff = Handoff<T>()
  await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
    DispatchQueue.global(qos: .userInitiated).async {
      handoff.put(Result { try work() })
      continuation.resume()
    }
  }
  return try handoff.take().get()
}

/// One result passed from the thread that made it to the task that awaits
/// it, under a lock.
private final class Handoff<T: Sendable>: @unchecked Sendable {
  private let lock = NSLock()
  private var result: Result<T, any Error>?

  func put(_ result: Result<T, any Error>) {
    lock.lock()
    defer { lock.unlock() }
    self.result = result
  }

  /// The result `put` gave; only called after it (the continuation's resume
  /// follows `put`).
  func take() -> Result<T, any Error> {
    lock.lock()
    defer { lock.unlock() }
    return result!
  }
}
