-- Rows of hostile-schema.sql: every storage class a column's type allows,
-- NULLs where allowed, dates in the libraries' text form (what a record
-- writes back), booleans 0 and 1.
INSERT INTO "folder" VALUES
  (1, 'a', 'x y', 2, 'it''s', 1.5, 1, '2024-03-05 12:34:56.789', 42, 9.75, x'00ff10', 'clob', 2.5, 7),
  (2, 'b', NULL, NULL, NULL, NULL, 0, NULL, NULL, NULL, NULL, '', NULL, -1),
  (5, 'c', '', -9223372036854775808, '', -0.0, 1, '1969-12-31 23:59:59.999', 'text', 3, x'', 'z', 1e300, 0),
  (6, 'd', 'é', 9223372036854775807, 'NUL', 1e-300, 0, NULL, x'0102', 12345678901234, NULL, 'w', NULL, 3);
UPDATE "folder" SET "anything" = 1.25 WHERE id = 2;
INSERT INTO "person's note" VALUES
  (1, 1, NULL, NULL, '2020-02-29 00:00:00.000', '2024-01-01 00:00:00.000'),
  (2, 1, 2, 1, NULL, '2024-01-02 03:04:05.006'),
  (3, 5, 5, 2, NULL, '1970-01-01 00:00:00.000');
INSERT INTO "tag" VALUES ('n', 'a', 0.5, 1), ('n', 'b', NULL, NULL), ('m', 'a', 2, 6);
INSERT INTO "2nd table" VALUES (1, 'x'), (NULL, 'y'), (3, NULL);
INSERT INTO "café" VALUES ('un', '😀'), ('deux', NULL);
