/// What a command printed and how it ended; the `notes` executable writes
/// the two texts to stdout and stderr and exits with `exitCode`.
public struct CommandResult: Equatable, Sendable {
  /// 0 success, 1 failure (an unknown note, a database or file error),
  /// 2 a usage error.
  public var exitCode: Int32
  /// For stdout.
  public var output: String
  /// For stderr: one line saying what went wrong, or empty.
  public var errorOutput: String

  public init(exitCode: Int32, output: String = "", errorOutput: String = "") {
    self.exitCode = exitCode
    self.output = output
    self.errorOutput = errorOutput
  }
}
