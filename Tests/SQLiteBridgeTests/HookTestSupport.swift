import SQLiteBridge

/// What a trace or hook callback saw, kept in a class so that escaping
/// closures can add to it.
final class Recorder<Element> {
  var items: [Element] = []

  func add(_ item: Element) {
    items.append(item)
  }
}

/// A captured object whose release a test watches through a weak reference:
/// it is gone once the core released every callback holding it.
final class ReleaseToken {}

/// Makes a token and gives it to `install` (which captures it in the
/// callbacks it installs); returns a watch on it, which answers nil once
/// nothing holds the token any more.
func installWatched(_ install: (ReleaseToken) -> Void) -> () -> ReleaseToken? {
  let token = ReleaseToken()
  weak let weakToken = token
  install(token)
  return { weakToken }
}
