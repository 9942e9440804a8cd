/// A Swift closure handed to the core as a hook's context: retained while
/// the core holds it, and released by the core's release call (when the
/// hook is replaced or removed or the connection closes).
final class HookBox<Callback> {
  let callback: Callback

  init(_ callback: Callback) {
    self.callback = callback
  }

  /// A retained pointer to a box holding `callback`, for the core.
  static func retained(_ callback: Callback) -> UnsafeMutableRawPointer {
    Unmanaged.passRetained(HookBox(callback)).toOpaque()
  }

  /// The callback of the box at `context` (not consumed).
  static func callback(at context: UnsafeMutableRawPointer?) -> Callback {
    Unmanaged<HookBox<Callback>>.fromOpaque(context!).takeUnretainedValue().callback
  }
}

/// What the core calls to release a `HookBox` it was given.
func releaseHookBox(_ context: UnsafeMutableRawPointer?) {
  Unmanaged<AnyObject>.fromOpaque(context!).release()
}
