-- A photo's second, smaller preview (a JPEG fitting 320 x 320, made from the first when the photo is stored, sealed
-- beside it): list-sized thumbnails and report pictures are drawn from it, which takes half the time of drawing them
-- from the 1024-pixel preview. NULL for videos, and for photos stored before it existed (they use the larger one).
ALTER TABLE media ADD COLUMN small_preview_bytes INTEGER;
