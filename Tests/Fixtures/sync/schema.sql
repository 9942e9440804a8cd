-- The synced tables both test suites (and scripts/sync-simulation) use:
-- text keys, one foreign key with a cascade, and a table keyed by an
-- integer that SQLite assigns (to show collisions between devices).
CREATE TABLE notes(id TEXT PRIMARY KEY, title TEXT NOT NULL, body TEXT NOT NULL DEFAULT '');
CREATE TABLE tags(id TEXT PRIMARY KEY, note_id TEXT NOT NULL REFERENCES notes(id) ON DELETE CASCADE, name TEXT NOT NULL);
CREATE TABLE counters(id INTEGER PRIMARY KEY, label TEXT NOT NULL, value INTEGER NOT NULL DEFAULT 0);
CREATE TABLE local_settings(key TEXT PRIMARY KEY, value TEXT);
