/// A mistake in the command line (exit status 2).
struct UsageError: Error {
  let message: String
  init(_ message: String) { self.message = message }
}

/// The arguments after the command name: `--name value` options are taken
/// out by name, the rest are positional in order; everything after a lone
/// `--` is positional even if it starts with `--`. Parsed by hand because no
/// outside package can be fetched here.
struct Arguments {
  private var remaining: [String]
  private var literal: [String]

  init(_ arguments: [String]) {
    if let separator = arguments.firstIndex(of: "--") {
      remaining = Array(arguments[..<separator])
      literal = Array(arguments[(separator + 1)...])
    } else {
      remaining = arguments
      literal = []
    }
  }

  /// Removes `--name VALUE` (or `--name=VALUE`) and returns VALUE; nil when
  /// the option is absent. Throws when the value is missing.
  mutating func option(_ name: String) throws -> String? {
    let flag = "--" + name
    for (index, argument) in remaining.enumerated() {
      if argument == flag {
        guard index + 1 < remaining.count else { throw UsageError("\(flag) needs a value") }
        let value = remaining[index + 1]
        remaining.removeSubrange(index...index + 1)
        return value
      }
      if argument.hasPrefix(flag + "=") {
        remaining.remove(at: index)
        return String(argument.dropFirst(flag.count + 1))
      }
    }
    return nil
  }

  /// Removes `--name` (a flag without a value) and says whether it was
  /// there.
  mutating func flag(_ name: String) throws -> Bool {
    guard let index = remaining.firstIndex(of: "--" + name) else { return false }
    remaining.remove(at: index)
    return true
  }

  /// Removes and returns the next positional argument; throws naming `what`
  /// when there is none.
  mutating func positional(_ what: String) throws -> String {
    if let index = remaining.firstIndex(where: { !isOption($0) }) { return remaining.remove(at: index) }
    guard !literal.isEmpty else { throw UsageError("missing \(what)") }
    return literal.removeFirst()
  }

  /// Removes and returns all remaining positional arguments.
  mutating func rest() throws -> [String] {
    try finishOptions()
    defer {
      remaining = []
      literal = []
    }
    return remaining + literal
  }

  /// Throws when arguments are left over (unknown options or extra values).
  func finish() throws {
    try finishOptions()
    if let extra = (remaining + literal).first { throw UsageError("unexpected argument '\(extra)'") }
  }

  private func finishOptions() throws {
    if let unknown = remaining.first(where: isOption) { throw UsageError("unknown option '\(unknown)'") }
  }

  private func isOption(_ argument: String) -> Bool {
    argument.hasPrefix("--") && argument.count > 2
  }
}
