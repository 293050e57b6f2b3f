-- Recording a result and importing a client are the hottest writes. With a trigger on them, every INSERT INTO
-- results or clients became a program of several statements that SQLite must be able to undo by itself: a
-- statement journal, into which SQLCipher writes an encrypted copy of every page the insert touches (a third of
-- the writer's time per recorded result). The one code path that inserts results
-- (SQLCipherResultRepository.create) and the one that inserts clients (SQLCipherClientRepository.insert) now move
-- the version themselves, in the same transaction. Updates and deletes, rarer and reached from more paths (and by
-- cascades), keep their triggers (0003, 0005).
DROP TRIGGER results_version_on_insert;
DROP TRIGGER clients_version_on_client_insert;
