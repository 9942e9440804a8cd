import Foundation
import NotesKit
import SQLiteBridge
import Testing

/// Two copies of the notes (a phone's and a laptop's data directories),
/// synced through a hub file: each adds, edits and marks notes offline,
/// then both converge, the full-text index of each copy following.
@Suite("Sync")
struct SyncTests {
  @Test func twoCopiesSyncedThroughAFileHubEndTheSame() async throws {
    try await withTemporaryDirectoryAsync { root in
      let hub = try DatabaseSyncHub(path: root + "/hub.sqlite")
      let phoneStore = try NotesStore(directory: try makeDirectory(root + "/phone"))
      let laptopStore = try NotesStore(directory: try makeDirectory(root + "/laptop"))
      let phone = try NotesSync(store: phoneStore, device: "phone", hub: hub)
      let laptop = try NotesSync(store: laptopStore, device: "laptop", hub: hub)

      let milk = try phone.add(title: "Buy milk", body: "oat, 2 l")
      let mum = try laptop.add(title: "Call mum")
      try laptopStore.markDone(id: 1)  // the seed's welcome note
      #expect(try await phone.sync().pushed == 1)
      let second = try await laptop.sync()
      #expect(second.pulled == 1)
      #expect(second.pushed == 2)
      #expect(second.conflicts.isEmpty)
      #expect(try await phone.sync().pulled == 2)

      let phoneNotes = try phoneStore.all()
      #expect(phoneNotes == (try laptopStore.all()))
      #expect(Set(phoneNotes.map(\.title)) == ["Welcome to notes", "Buy milk", "Call mum"])
      #expect(phoneNotes.first { $0.id == 1 }?.done == true)
      // Each copy's search index took the notes it pulled.
      #expect(try laptopStore.search("milk").contains(milk))
      #expect(try phoneStore.search("mum") == [mum])
      #expect(try phone.engine.pendingCount == 0)
      #expect(try laptop.engine.pendingCount == 0)
    }
  }
}

/// `withTemporaryDirectory` for an async body.
func withTemporaryDirectoryAsync(_ body: (String) async throws -> Void) async throws {
  let path = FileManager.default.temporaryDirectory
    .appendingPathComponent("NotesKitTests-\(UUID().uuidString)", isDirectory: true).path
  try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
  defer { try? FileManager.default.removeItem(atPath: path) }
  try await body(path)
}

/// Makes the directory `path`; returns it.
func makeDirectory(_ path: String) throws -> String {
  try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
  return path
}
