#ifndef CVIPS_SHIM_PUBLIC_H
#define CVIPS_SHIM_PUBLIC_H
#include <stddef.h>

/// Starts libvips once per process: one worker thread, no operation cache, untrusted loaders (ImageMagick and
/// the like) blocked. Returns 0 on success.
int hw_vips_start(void);

/// A JPEG (or, with `as_png`, PNG) thumbnail of an encoded photo (JPEG, PNG or HEIF), fitting `size` × `size`, turned upright by its EXIF
/// orientation, transparency flattened on white, metadata stripped. On success returns 0 and sets `*out` (free it
/// with `hw_vips_free`) and `*length`; on failure returns -1 and writes libvips' message into `error`.
int hw_vips_thumbnail(const void *bytes, size_t count, int size, int as_png, void **out, size_t *length, char *error, size_t error_size);

/// The same for one of our own previews (an upright JPEG without metadata, see `hw_vips_thumbnail`): scaled down
/// with a linear kernel and no orientation or colour work, a third less work than `hw_vips_thumbnail` at the
/// small factors a preview is scaled by, alike to the eye.
int hw_vips_scale_down(const void *bytes, size_t count, int size, int as_png, void **out, size_t *length, char *error, size_t error_size);

void hw_vips_free(void *pointer);

#endif
