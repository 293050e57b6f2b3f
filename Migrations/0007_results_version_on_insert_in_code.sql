-- Recording a result is the hottest write. With a trigger on it, every INSERT INTO results became a program of
-- several statements that SQLite must be able to undo by itself: a statement journal, into which SQLCipher writes
-- an encrypted copy of every page the insert touches — a third of the writer's time per result. The one code path
-- that inserts results (SQLCipherResultRepository.create) now moves the client's results version itself, in the
-- same transaction. Updates and deletes, rarer and reached from more paths, keep their triggers (0005).
DROP TRIGGER results_version_on_insert;
