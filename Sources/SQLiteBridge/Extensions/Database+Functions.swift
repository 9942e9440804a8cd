import CxxStdlib
import Foundation
import SQLiteBridgeCore
import SQLiteBridgeCore.Interop

// Custom functions, aggregates and collations. The core owns the sqlite3
// calls and every rule (`Database::createFunction`, `createAggregate`,
// `createCollation`): a Swift closure reaches SQLite as a retained context
// pointer and the C trampolines below, which the core calls; the core
// releases the context when SQLite destroys the function (replaced, removed
// or at close). No Swift error crosses the trampolines: each is reported
// to the core as the query's error message.

private typealias FunctionAccess = sqlitebridge.interop.FunctionAccess

extension Database {
  /// Registers the SQL function `name` taking `argumentCount` arguments
  /// (nil: any number), replacing one registered with the same name and
  /// count (which is then released, as on `removeFunction` and at `close()`).
  /// `function` receives every value exactly (NULL, integers, reals, text
  /// with NUL characters, blobs, zero-length blobs; text that is not valid
  /// UTF-8 arrives as `.blob`) and its result is returned to SQL exactly.
  /// An error thrown by `function` fails the query with `ResultCode.error`
  /// and the error's message (a `DatabaseError`'s `message`, otherwise
  /// `String(describing:)` of the error), never crashes. With
  /// `deterministic`, the function may be used in an index expression
  /// (SQLite refuses a non-deterministic one there). Called on the thread
  /// that runs the query.
  ///
  /// - Throws: `DatabaseError` with `.misuse` when `name` holds NUL, is
  ///   longer than 255 bytes of UTF-8, or `argumentCount` is not nil and
  ///   outside -1 up to the engine's SQLITE_MAX_FUNCTION_ARG (127 in Debian
  ///   12's SQLite 3.40, 1000 in 3.53), or when the database is closed; `.busy` while a
  ///   statement using the function being replaced is running.
  public func createFunction(
    _ name: String, argumentCount: Int? = nil, deterministic: Bool = false,
    _ function: @escaping ([DatabaseValue]) throws -> DatabaseValue
  ) throws {
    let context = Unmanaged.passRetained(ScalarFunction(function)).toOpaque()
    // The core releases `context` in every case, failure included.
    guard
      FunctionAccess.createFunction(
        &core, std.string(name), Self.functionArity(argumentCount), deterministic, callScalarFunction,
        releaseContext, context)
    else { throw lastError }
  }

  /// Registers the aggregate function `name` (as `createFunction`, with the
  /// same failures): each group gets a new `A()`, whose `step` sees each row
  /// and `finalize` gives the group's result (see `DatabaseAggregate`). An
  /// error thrown by either fails the query with `ResultCode.error` and its
  /// message.
  public func createAggregate<A: DatabaseAggregate>(
    _ name: String, argumentCount: Int? = nil, deterministic: Bool = false, _ type: A.Type
  ) throws {
    var callbacks = sqlitebridge.interop.AggregateCallbacks()
    callbacks.makeAggregate = makeAggregateGroup
    callbacks.step = stepAggregateGroup
    callbacks.finalize = finalizeAggregateGroup
    callbacks.releaseAggregate = releaseContext
    callbacks.release = releaseContext
    callbacks.box = Unmanaged.passRetained(AggregateMaker { TypedAggregateGroup<A>() }).toOpaque()
    guard
      FunctionAccess.createAggregate(
        &core, std.string(name), Self.functionArity(argumentCount), deterministic, callbacks)
    else { throw lastError }
  }

  /// Removes the function (scalar or aggregate) `name` registered with
  /// exactly `argumentCount` (nil: the one taking any number), releasing
  /// it; afterwards SQL calling it fails ("no such function"). Removing one
  /// that is not registered does nothing.
  ///
  /// - Throws: `DatabaseError`, as `createFunction`.
  public func removeFunction(_ name: String, argumentCount: Int? = nil) throws {
    guard core.removeFunction(std.string(name), Self.functionArity(argumentCount)) else { throw lastError }
  }

  /// Registers the collation `name` (`COLLATE name` in ORDER BY,
  /// comparisons, column definitions and indexes), replacing one of the same
  /// name (which is then released, as on `removeCollation` and at
  /// `close()`). `compare` must be a consistent order; text that is not
  /// valid UTF-8 reaches it repaired (U+FFFD).
  ///
  /// - Throws: `DatabaseError` with `.misuse` when `name` holds NUL or the
  ///   database is closed; `.busy` while a statement using the collation
  ///   being replaced is running.
  public func createCollation(_ name: String, _ compare: @escaping (String, String) -> ComparisonResult) throws {
    let context = Unmanaged.passRetained(Collation(compare)).toOpaque()
    guard FunctionAccess.createCollation(&core, std.string(name), compareWithCollation, releaseContext, context)
    else { throw lastError }
  }

  /// Removes the collation `name`, releasing it; afterwards SQL using it
  /// fails ("no such collation sequence"). Removing one that is not
  /// registered does nothing.
  ///
  /// - Throws: `DatabaseError` with `.misuse` when `name` holds NUL or the
  ///   database is closed.
  public func removeCollation(_ name: String) throws {
    guard core.removeCollation(std.string(name)) else { throw lastError }
  }

  /// SQLite's argument count: -1 for any, and a count SQLite refuses stays
  /// one it refuses.
  private static func functionArity(_ argumentCount: Int?) -> Int32 {
    guard let argumentCount else { return -1 }
    return Int32(clamping: argumentCount)
  }
}

// MARK: What the core holds

/// A scalar function's closure, retained by the core.
private final class ScalarFunction {
  let function: ([DatabaseValue]) throws -> DatabaseValue
  init(_ function: @escaping ([DatabaseValue]) throws -> DatabaseValue) { self.function = function }
}

/// An aggregate's type, retained by the core: makes each group's state.
private final class AggregateMaker {
  let make: () -> AggregateGroup
  init(_ make: @escaping () -> AggregateGroup) { self.make = make }
}

/// One group's state, retained by the core from its first row (or its
/// finalize, for an empty group) until SQLite is done with the group.
private class AggregateGroup {
  func step(_ arguments: [DatabaseValue]) throws {}
  func finalize() throws -> DatabaseValue { .null }
}

private final class TypedAggregateGroup<A: DatabaseAggregate>: AggregateGroup {
  var aggregate = A()
  override func step(_ arguments: [DatabaseValue]) throws { try aggregate.step(arguments) }
  override func finalize() throws -> DatabaseValue { try aggregate.finalize() }
}

/// A collation's closure, retained by the core.
private final class Collation {
  let compare: (String, String) -> ComparisonResult
  init(_ compare: @escaping (String, String) -> ComparisonResult) { self.compare = compare }
}

// MARK: Trampolines the core calls

private func releaseContext(_ context: UnsafeMutableRawPointer?) {
  guard let context else { return }
  Unmanaged<AnyObject>.fromOpaque(context).release()
}

/// The arguments as Swift values, read in place from the core's list.
private func databaseValues(_ arguments: UnsafePointer<sqlitebridge.interop.ValueList>) -> [DatabaseValue] {
  let count = Int(FunctionAccess.count(arguments))
  return (0..<count).map { DatabaseValue(FunctionAccess.argument(arguments, $0)) }
}

/// Stores `value` as the function's result; false only when memory ran out.
private func store(_ value: DatabaseValue, in result: UnsafeMutablePointer<sqlitebridge.Value>) -> Bool {
  switch value {
  case .null:
    FunctionAccess.setNull(result)
    return true
  case .integer(let integer):
    FunctionAccess.setInteger(result, integer)
    return true
  case .real(let real):
    FunctionAccess.setReal(result, real)
    return true
  case .text(var text):
    return text.withUTF8 { FunctionAccess.setText(result, $0.baseAddress, $0.count) }
  case .blob(let data):
    return data.withUnsafeBytes { FunctionAccess.setBlob(result, $0.baseAddress, $0.count) }
  }
}

/// Reports `error` as the query's error message; returns false.
private func report(_ error: any Error, in message: UnsafeMutablePointer<std.string>) -> Bool {
  report((error as? DatabaseError)?.message ?? String(describing: error), in: message)
}

private func report(_ text: String, in message: UnsafeMutablePointer<std.string>) -> Bool {
  var text = text
  _ = text.withUTF8 { FunctionAccess.setError(message, $0.baseAddress, $0.count) }
  return false
}

private func storeResult(
  _ compute: () throws -> DatabaseValue, _ result: UnsafeMutablePointer<sqlitebridge.Value>?,
  _ error: UnsafeMutablePointer<std.string>?
) -> Bool {
  do {
    guard store(try compute(), in: result!) else { return report("out of memory", in: error!) }
    return true
  } catch let thrown {
    return report(thrown, in: error!)
  }
}

private func callScalarFunction(
  _ context: UnsafeMutableRawPointer?, _ arguments: UnsafePointer<sqlitebridge.interop.ValueList>?,
  _ result: UnsafeMutablePointer<sqlitebridge.Value>?, _ error: UnsafeMutablePointer<std.string>?
) -> Bool {
  let function = Unmanaged<ScalarFunction>.fromOpaque(context!).takeUnretainedValue()
  return storeResult({ try function.function(databaseValues(arguments!)) }, result, error)
}

private func makeAggregateGroup(_ context: UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? {
  let maker = Unmanaged<AggregateMaker>.fromOpaque(context!).takeUnretainedValue()
  return Unmanaged<AnyObject>.passRetained(maker.make()).toOpaque()
}

private func stepAggregateGroup(
  _ group: UnsafeMutableRawPointer?, _ arguments: UnsafePointer<sqlitebridge.interop.ValueList>?,
  _ error: UnsafeMutablePointer<std.string>?
) -> Bool {
  let group = Unmanaged<AggregateGroup>.fromOpaque(group!).takeUnretainedValue()
  do {
    try group.step(databaseValues(arguments!))
    return true
  } catch let thrown {
    return report(thrown, in: error!)
  }
}

private func finalizeAggregateGroup(
  _ group: UnsafeMutableRawPointer?, _ result: UnsafeMutablePointer<sqlitebridge.Value>?,
  _ error: UnsafeMutablePointer<std.string>?
) -> Bool {
  let group = Unmanaged<AggregateGroup>.fromOpaque(group!).takeUnretainedValue()
  return storeResult({ try group.finalize() }, result, error)
}

private func compareWithCollation(
  _ context: UnsafeMutableRawPointer?, _ a: UnsafePointer<CChar>?, _ aSize: Int, _ b: UnsafePointer<CChar>?,
  _ bSize: Int
) -> Int32 {
  let collation = Unmanaged<Collation>.fromOpaque(context!).takeUnretainedValue()
  let first = String(decoding: UnsafeRawBufferPointer(start: a.map(UnsafeRawPointer.init), count: aSize), as: UTF8.self)
  let second = String(
    decoding: UnsafeRawBufferPointer(start: b.map(UnsafeRawPointer.init), count: bSize), as: UTF8.self)
  switch collation.compare(first, second) {
  case .orderedAscending: return -1
  case .orderedSame: return 0
  case .orderedDescending: return 1
  }
}
