import SQLiteBridge

/// Keeps a store's notes in step with other copies (a phone's, a laptop's)
/// through a hub: each copy works offline, `sync()` pulls what the others
/// pushed, puts this copy's own changes on top (the later change in the
/// hub's order wins a conflict) and pushes them. Every change the store
/// commits while this object lives is recorded for the next sync, in the
/// transaction that makes it.
///
/// ```swift
/// let store = try NotesStore(directory: directory)
/// let sync = try NotesSync(store: store, device: "phone", hub: try DatabaseSyncHub(path: hubPath))
/// _ = try sync.add(title: "Buy milk")
/// let report = try await sync.sync()
/// ```
public final class NotesSync: Sendable {
  /// The engine recording the store's `notes` table.
  public let engine: SyncEngine
  private let store: NotesStore

  /// Starts recording `store`'s notes as `device`, syncing through `hub`.
  ///
  /// - Throws: `DatabaseError` with `.misuse` when the store's database
  ///   syncs as another device.
  public init(store: NotesStore, device: String, hub: some SyncHub) throws {
    self.store = store
    engine = try SyncEngine(store.queue, tables: ["notes"], device: device, hub: hub)
  }

  /// Adds a note with an id picked at random among 2^62 (the ids SQLite
  /// assigns, one more than the largest, would collide between copies).
  ///
  /// - Throws: as `NotesStore.add(title:body:id:)`.
  public func add(title: String, body: String = "") throws -> Note {
    try store.add(title: title, body: body, id: Int64.random(in: (1 << 62)...Int64.max))
  }

  /// One sync through the hub.
  ///
  /// - Throws: the hub's failure (the changes are kept for the next sync),
  ///   `DatabaseError` when the copy cannot be rewritten.
  @discardableResult
  public func sync() async throws -> SyncReport {
    try await engine.sync()
  }
}
