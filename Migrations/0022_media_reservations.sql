-- Ids an app chose for photos and videos whose upload is under way (`POST /v1/results/{id}/media?id=`): a media
-- file's id names its stored bytes, so an id is held here from the upload's start until its row is stored (the
-- insert deletes it) or the upload ends, and two uploads under one id never write the same files. An id is held
-- only when no media row, no removed file and no other upload has it; one held longer than an hour was left by a
-- node that stopped mid-upload and may be taken over.
CREATE TABLE media_reservations (
    id TEXT PRIMARY KEY NOT NULL,
    company_id TEXT NOT NULL,
    reserved_at INTEGER NOT NULL
);
