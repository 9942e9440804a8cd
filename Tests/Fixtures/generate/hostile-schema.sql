-- The schema `sqlite-bridge generate` is tested on (Tests/CLI/test_generate.py,
-- and through the committed Tests/CxxTests/Generate/HostileRecords.hpp the C++
-- round trip): hostile names, each affinity, NULL and NOT NULL, composite and
-- WITHOUT ROWID keys, two foreign keys to one table, a self-reference. Rows:
-- hostile-rows.sql.
CREATE TABLE "folder" (
  id INTEGER PRIMARY KEY,
  "class" TEXT NOT NULL,
  "my column" VARCHAR(20),
  "2fa" INT,
  "quote""d" TEXT,
  "Straße" REAL,
  "this" BOOLEAN NOT NULL DEFAULT 0,
  "ID_URL" DATETIME,
  "anything",
  "price" DECIMAL(10, 2),
  "photo" BLOB,
  "typed_clob" CLOB NOT NULL DEFAULT '',
  "default" DOUBLE PRECISION,
  "errno" INTEGER NOT NULL DEFAULT 7
);
CREATE TABLE "person's note" (
  "note id" INTEGER PRIMARY KEY,
  "author_id" INTEGER NOT NULL REFERENCES "folder"(id),
  "editor_id" INTEGER REFERENCES "folder"(id),
  "parent_id" INTEGER REFERENCES "person's note"("note id"),
  "created" DATE,
  "stamp" TIMESTAMP NOT NULL
);
CREATE TABLE "tag" (
  "namespace" TEXT NOT NULL,
  "name" TEXT NOT NULL,
  "weight" FLOAT,
  "folder" INTEGER REFERENCES "folder",
  PRIMARY KEY ("namespace", "name")
) WITHOUT ROWID;
CREATE TABLE "2nd table" (a INT, b TEXT, PRIMARY KEY (b, a));
CREATE TABLE "café" ("名前" TEXT PRIMARY KEY, "🙂 mood" TEXT);
CREATE VIEW "folder names" AS SELECT "class" FROM "folder";
