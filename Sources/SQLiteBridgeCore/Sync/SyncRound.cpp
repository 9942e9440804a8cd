// SyncRound: the steps of one sync, and the local work between them.
#include "sqlitebridge/SyncRound.hpp"

#include <new>
#include <utility>

#include "SessionAPI.hpp"
#include "SyncBookkeeping.hpp"
#include "SyncRewrite.hpp"
#include "SyncState.hpp"
#include "sqlitebridge/ConnectionLease.hpp"
#include "sqlitebridge/Sync.hpp"

namespace sqlitebridge {

namespace {

// How many entries one pull asks for, and how many times a round pulls
// again because the log moved before its push.
constexpr std::size_t kPullLimit = 500;
constexpr int kMaxRounds = 10;

}  // namespace

struct SyncRoundState {
  std::shared_ptr<SyncState> engine;
  bool ownsRound = false;
  SyncRound::Step step = SyncRound::Step::Failed;
  // The last hub position this copy holds, as read when the pull began.
  std::int64_t position = 0;
  std::int64_t after = 0;
  std::vector<SyncEntry> pulled;
  std::vector<SyncEntry> toPush;
  SyncReport report;
  Error error;

  ~SyncRoundState() { release(); }

  void release() noexcept {
    if (ownsRound) engine->roundRunning.store(false);
    ownsRound = false;
  }
  void fail(const Error& reason) noexcept {
    try {
      error = reason;
    } catch (const std::bad_alloc&) {
      error = Error{reason.code, reason.extendedCode, std::string(), std::string()};
    }
    if (!error.isError()) changesetFailure(&error, SQLITE_ERROR, "the sync round failed");
    step = SyncRound::Step::Failed;
    toPush.clear();
    release();
  }
  void failWith(int code, const std::string& message) noexcept {
    Error reason;
    changesetFailure(&reason, code, message);
    fail(reason);
  }
  void finish() noexcept {
    step = SyncRound::Step::Finished;
    toPush.clear();
    release();
  }

  // Reads where this copy stands and asks for what follows.
  void beginPull() noexcept {
    detail::LeaseScope scope(engine->pool, LeaseKind::Read);
    Error failure;
    if (!scope.acquired()) return fail(scope.error());
    if (!readSyncPosition(scope.database(), position, &failure)) return fail(failure);
    pulled.clear();
    after = position;
    step = SyncRound::Step::Pull;
  }

  void receive(const SyncEntry& entry) noexcept {
    if (step != SyncRound::Step::Pull) return;
    // The log has no gap: each entry follows the one before.
    const std::int64_t expected = (pulled.empty() ? position : pulled.back().position) + 1;
    if (entry.position != expected) {
      return failWith(SQLITE_CORRUPT, "the hub answered position " + std::to_string(entry.position) + " where " +
                                          std::to_string(expected) + " comes next (a hub's log has no gap)");
    }
    try {
      pulled.push_back(entry);
    } catch (const std::bad_alloc&) {
      failWith(SQLITE_NOMEM, "out of memory");
    }
  }

  void endPage(std::size_t received) noexcept {
    if (step != SyncRound::Step::Pull) return;
    if (received > kPullLimit) {
      return failWith(SQLITE_ERROR, "the hub answered " + std::to_string(received) + " entries where at most " +
                                        std::to_string(kPullLimit) + " were asked for");
    }
    if (received == kPullLimit) {
      after = pulled.back().position;
      return;  // more may follow
    }
    integrate();
  }

  // Applies what was pulled, in one transaction on the writer, and reads
  // what to push.
  void integrate() noexcept {
    SyncState& state = *engine;
    detail::LeaseScope scope(state.pool, LeaseKind::Write);
    if (!scope.acquired()) return fail(scope.error());
    Database& db = scope.database();
    Error failure;
    std::int64_t current = 0;
    std::vector<PendingChange> pending;
    if (!readSyncPosition(db, current, &failure) || !readPendingChanges(db, pending, &failure)) return fail(failure);
    if (current != position) {
      return failWith(SQLITE_BUSY,
                      "this copy's place in the hub's log moved during the round (another sync engine "
                      "on the same database?)");
    }
    // This device's own entries come first: pushed by an earlier round
    // whose answer was lost. They are in the log now.
    std::size_t own = 0;
    while (own < pulled.size() && pulled[own].device == state.device) {
      const SyncEntry& entry = pulled[own];
      if (own >= pending.size() || pending[own].sequence != entry.sequence ||
          pending[own].changeset != entry.changeset) {
        return failWith(SQLITE_CORRUPT, "the hub's log holds sequence " + std::to_string(entry.sequence) +
                                            " of device '" + state.device + "' at position " +
                                            std::to_string(entry.position) +
                                            ", which this database did not push: does another database sync as '" +
                                            state.device + "'?");
      }
      ++own;
    }
    std::vector<SyncEntry> others;
    try {
      others.assign(pulled.begin() + static_cast<std::ptrdiff_t>(own), pulled.end());
      for (const SyncEntry& entry : others) {
        if (entry.device == state.device) {
          return failWith(SQLITE_CORRUPT, "the hub's log holds an entry of device '" + state.device +
                                              "' after another device's (position " + std::to_string(entry.position) +
                                              "): does another database sync as '" + state.device + "'?");
        }
      }
      if (own > 0) {
        if (!forgetPendingChanges(db, pending[own - 1].sequence, &failure)) return fail(failure);
        pending.erase(pending.begin(), pending.begin() + static_cast<std::ptrdiff_t>(own));
      }
    } catch (const std::bad_alloc&) {
      return failWith(SQLITE_NOMEM, "out of memory");
    }
    if (!others.empty()) {
      state.recorder->setRecording(false);
      const bool rewritten = rewriteForPulledEntries(db, state, pending, others, report, &failure);
      state.recorder->setRecording(true);
      if (!rewritten) {
        scope.finish(false);
        return fail(failure);
      }
    }
    if (!pulled.empty() && !writeSyncPosition(db, pulled.back().position, &failure)) return fail(failure);
    const std::int64_t reached = pulled.empty() ? position : pulled.back().position;
    if (!scope.finish(true)) return fail(scope.error());
    report.pulled += static_cast<std::int64_t>(others.size());
    position = reached;
    try {
      toPush.clear();
      for (PendingChange& change : pending) {
        SyncEntry entry;
        entry.device = state.device;
        entry.sequence = change.sequence;
        entry.changeset = std::move(change.changeset);
        toPush.push_back(std::move(entry));
      }
    } catch (const std::bad_alloc&) {
      return failWith(SQLITE_NOMEM, "out of memory");
    }
    pulled.clear();
    if (toPush.empty()) return finish();
    after = position;
    step = SyncRound::Step::Push;
  }

  // The hub appended `toPush` after `position`: they are in the log.
  void acknowledge() noexcept {
    detail::LeaseScope scope(engine->pool, LeaseKind::Write);
    if (!scope.acquired()) return fail(scope.error());
    Database& db = scope.database();
    Error failure;
    const std::int64_t reached = position + static_cast<std::int64_t>(toPush.size());
    if (!forgetPendingChanges(db, toPush.back().sequence, &failure) || !writeSyncPosition(db, reached, &failure)) {
      return fail(failure);
    }
    if (!scope.finish(true)) return fail(scope.error());
    report.pushed += static_cast<std::int64_t>(toPush.size());
    position = reached;
    finish();
  }
};

SyncRound::SyncRound(SyncEngine& engine) noexcept {
  try {
    state_ = std::make_unique<SyncRoundState>();
  } catch (const std::bad_alloc&) {
    return;
  }
  SyncRoundState& state = *state_;
  state.engine = SyncAccess::state(engine);
  if (!state.engine) {
    state.failWith(SQLITE_MISUSE, "the sync engine was moved");
    return;
  }
  if (state.engine->startError.isError()) {
    state.fail(state.engine->startError);
    return;
  }
  if (state.engine->roundRunning.exchange(true)) {
    state.failWith(SQLITE_MISUSE, "another sync round of this engine is running");
    return;
  }
  state.ownsRound = true;
  const Error recording = state.engine->recorder->failure();
  if (recording.isError()) {
    state.fail(recording);
    return;
  }
  state_->report.rounds = 1;
  state_->beginPull();
}

SyncRound::SyncRound(SyncRound&&) noexcept = default;

SyncRound& SyncRound::operator=(SyncRound&& other) noexcept {
  if (this != &other) state_ = std::move(other.state_);
  return *this;
}

SyncRound::~SyncRound() = default;

SyncRound::Step SyncRound::step() const noexcept { return state_ ? state_->step : Step::Failed; }

std::int64_t SyncRound::after() const noexcept { return state_ ? state_->after : 0; }

std::size_t SyncRound::limit() const noexcept { return kPullLimit; }

const std::vector<SyncEntry>& SyncRound::entriesToPush() const noexcept {
  static const std::vector<SyncEntry> none;
  return state_ ? state_->toPush : none;
}

void SyncRound::pulled(const std::vector<SyncEntry>& entries) noexcept {
  if (!state_ || state_->step != Step::Pull) return;
  for (const SyncEntry& entry : entries) state_->receive(entry);
  endPull();
}

void SyncRound::addPulled(const SyncEntry& entry) noexcept {
  if (state_) state_->receive(entry);
}

void SyncRound::endPull() noexcept {
  if (!state_ || state_->step != Step::Pull) return;
  // The entries of this page: those after the page's start.
  std::size_t received = 0;
  for (auto entry = state_->pulled.rbegin(); entry != state_->pulled.rend() && entry->position > state_->after;
       ++entry) {
    ++received;
  }
  state_->endPage(received);
}

void SyncRound::pushed(bool appended) noexcept {
  if (!state_ || state_->step != Step::Push) return;
  if (appended) return state_->acknowledge();
  // The log moved since the pull: pull again, rewrite, push again.
  if (state_->report.rounds >= kMaxRounds) {
    return state_->failWith(SQLITE_BUSY, "the hub's log moved before each of " + std::to_string(kMaxRounds) +
                                             " pushes; the pending changes are kept for the next sync");
  }
  ++state_->report.rounds;
  state_->toPush.clear();
  state_->beginPull();
}

void SyncRound::hubFailed(const Error& error) noexcept {
  if (!state_ || (state_->step != Step::Pull && state_->step != Step::Push)) return;
  state_->fail(error);
}

const SyncReport& SyncRound::report() const noexcept {
  static const SyncReport none;
  return state_ ? state_->report : none;
}

Error SyncRound::error() const noexcept {
  if (!state_) {
    Error error;
    changesetFailure(&error, SQLITE_MISUSE, "the sync round was moved, or could not be made (out of memory)");
    return error;
  }
  return state_->error;
}

}  // namespace sqlitebridge
