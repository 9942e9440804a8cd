// One sync, as steps a caller drives: the engine says what to ask the hub,
// the caller asks it (synchronously, asynchronously, over any transport)
// and hands the answer back. `SyncEngine::sync` drives one with the
// engine's hub; the Swift face drives one with its `SyncHub`. The rules
// (what is pulled, rewritten, pushed, when to pull again) are the round's.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "Error.hpp"
#include "Export.hpp"

namespace sqlitebridge {

class SyncEngine;
struct SyncEntry;
struct SyncReport;
struct SyncRoundState;

/// One sync of a `SyncEngine`, driven by its caller:
///
///     SyncRound round(engine);
///     while (true) {
///       if (round.step() == SyncRound::Step::Pull) {
///         std::vector<SyncEntry> page;
///         Error error;
///         if (hub.entries(round.after(), round.limit(), page, &error)) round.pulled(page);
///         else round.hubFailed(error);
///       } else if (round.step() == SyncRound::Step::Push) {
///         bool appended = false;
///         Error error;
///         if (hub.append(round.entriesToPush(), round.after(), appended, &error)) round.pushed(appended);
///         else round.hubFailed(error);
///       } else break;  // Finished: round.report(); Failed: round.error()
///     }
///
/// The local work (applying what was pulled, acknowledging what was
/// pushed) happens inside `pulled` and `pushed`, on the writer, on the
/// calling thread. Only one round of an engine runs at a time: a second
/// one starts `Failed` (SQLITE_MISUSE). Used from one thread at a time;
/// the engine must outlive it. Move-only.
class SQLITEBRIDGE_API SyncRound {
 public:
  /// What the caller does next.
  enum class Step {
    /// Ask the hub for the entries after `after()`, at most `limit()`, and
    /// hand them to `pulled` (or the failure to `hubFailed`).
    Pull,
    /// Ask the hub to append `entriesToPush()` after `after()`, and hand
    /// its answer to `pushed` (or the failure to `hubFailed`).
    Push,
    /// The round is over: `report()` says what it did.
    Finished,
    /// The round failed: `error()` says why; the copy is as the last
    /// committed step left it, pending changes kept.
    Failed,
  };

  /// Starts a round of `engine` (reading where the device stands).
  explicit SyncRound(SyncEngine& engine) noexcept;
  /// Takes over the other round (which is then `Failed`, SQLITE_MISUSE).
  SyncRound(SyncRound&&) noexcept;
  /// Ends this round, then takes over the other one.
  SyncRound& operator=(SyncRound&&) noexcept;
  SyncRound(const SyncRound&) = delete;
  SyncRound& operator=(const SyncRound&) = delete;
  /// Ends the round (an unfinished one leaves its pending changes for the
  /// next).
  ~SyncRound();

  /// What to do next.
  Step step() const noexcept;
  /// For `Pull`: the position to read after. For `Push`: the position the
  /// log must still end at.
  std::int64_t after() const noexcept;
  /// For `Pull`: how many entries to ask for at most.
  std::size_t limit() const noexcept;
  /// For `Push`: the entries to append (empty otherwise).
  const std::vector<SyncEntry>& entriesToPush() const noexcept;

  /// The hub's answer to `Pull`: fewer than `limit()` entries ends the
  /// pull; the round then applies what it pulled (one transaction).
  void pulled(const std::vector<SyncEntry>& entries) noexcept;
  /// `pulled`, one entry at a time (for callers that cannot build a C++
  /// vector): `addPulled` each entry of the page, then `endPull`.
  void addPulled(const SyncEntry& entry) noexcept;
  /// Ends a page given entry by entry with `addPulled`.
  void endPull() noexcept;
  /// The hub's answer to `Push`: whether it appended.
  void pushed(bool appended) noexcept;
  /// The hub failed to answer `Pull` or `Push`: the round fails with
  /// `error` (after a failed push, the next round pulls before pushing
  /// again, so an append whose outcome was unknown is never repeated).
  void hubFailed(const Error& error) noexcept;

  /// What the round did so far (complete once `Finished`).
  const SyncReport& report() const noexcept;
  /// Why the round failed (code 0 unless `Failed`).
  Error error() const noexcept;

 private:
  std::unique_ptr<SyncRoundState> state_;
};

}  // namespace sqlitebridge
