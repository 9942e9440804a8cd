import Foundation

/// A one-line progress bar on stderr, redrawn in place (`\r`): meant for a
/// terminal only (callers check `isatty` first).
struct ProgressBar {
  static let width = 30
  let unit: String

  /// Draws `done` of `total` (a `total` of 0 shows as complete).
  func show(done: Int, of total: Int) {
    let fraction = total > 0 ? Double(min(max(done, 0), total)) / Double(total) : 1
    let filled = Int((fraction * Double(Self.width)).rounded(.down))
    let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: Self.width - filled)
    let percent = Int((fraction * 100).rounded(.down))
    let percentText = String(repeating: " ", count: 3 - String(percent).count) + String(percent)
    FileHandle.standardError.write(Data("\r[\(bar)] \(percentText)% \(done)/\(total) \(unit)".utf8))
  }

  /// Ends the bar's line.
  func finish() {
    FileHandle.standardError.write(Data("\n".utf8))
  }
}
