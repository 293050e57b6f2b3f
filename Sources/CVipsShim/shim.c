#include "CVipsShim.h"
#include <string.h>
#include <vips/vips.h>

int hw_vips_start(void) {
    if (VIPS_INIT("healthwheel")) return -1;
    vips_concurrency_set(1);
    vips_cache_set_max(0);
    vips_cache_set_max_mem(0);
    vips_block_untrusted_set(TRUE);
    return 0;
}

static int fail(char *error, size_t error_size) {
    if (error_size > 0) {
        strncpy(error, vips_error_buffer(), error_size - 1);
        error[error_size - 1] = 0;
    }
    vips_error_clear();
    return -1;
}

// Writes `image` as a PNG or a JPEG without metadata, and lets it go.
static int save(VipsImage *image, int as_png, void **out, size_t *length, char *error, size_t error_size) {
    int failed = as_png ? vips_pngsave_buffer(image, out, length, "compression", 6, "strip", TRUE, NULL)
                        : vips_jpegsave_buffer(image, out, length, "Q", 82, "strip", TRUE, NULL);
    g_object_unref(image);
    return failed ? fail(error, error_size) : 0;
}

int hw_vips_thumbnail(const void *bytes, size_t count, int size, int as_png, void **out, size_t *length, char *error, size_t error_size) {
    VipsImage *thumbnail = NULL;
    // The buffer is only read; libvips' signature is not const.
    if (vips_thumbnail_buffer((void *)bytes, count, &thumbnail, size, "height", size, "size", VIPS_SIZE_DOWN, NULL)) {
        return fail(error, error_size);
    }
    VipsImage *opaque = thumbnail;
    if (vips_image_hasalpha(thumbnail)) {
        VipsArrayDouble *white = vips_array_double_newv(1, 255.0);
        int failed = vips_flatten(thumbnail, &opaque, "background", white, NULL);
        vips_area_unref(VIPS_AREA(white));
        g_object_unref(thumbnail);
        if (failed) return fail(error, error_size);
    }
    return save(opaque, as_png, out, length, error, error_size);
}

int hw_vips_scale_down(const void *bytes, size_t count, int size, int as_png, void **out, size_t *length, char *error, size_t error_size) {
    // The header first (libvips decodes lazily): a preview at least twice the size is decoded at a half, quarter
    // or eighth of its size by libjpeg itself, which is most of the saving.
    VipsImage *image = vips_image_new_from_buffer((void *)bytes, count, "", "access", VIPS_ACCESS_SEQUENTIAL, NULL);
    if (!image) return fail(error, error_size);
    int longest = MAX(image->Xsize, image->Ysize);
    int shrink = 1;
    while (shrink < 8 && longest / (shrink * 2) >= size) shrink *= 2;
    if (shrink > 1) {
        g_object_unref(image);
        image = NULL;
        if (vips_jpegload_buffer((void *)bytes, count, &image, "shrink", shrink, "access", VIPS_ACCESS_SEQUENTIAL, NULL)) return fail(error, error_size);
        longest = MAX(image->Xsize, image->Ysize);
    }
    VipsImage *scaled = image;
    if (size < longest) {
        // Exact sides, the longest `size`, as vips_thumbnail gives them.
        double factor = (double)size / longest;
        int width = MAX(1, (int)(image->Xsize * factor + 0.5)), height = MAX(1, (int)(image->Ysize * factor + 0.5));
        int failed = vips_resize(image, &scaled, (double)width / image->Xsize, "vscale", (double)height / image->Ysize, "kernel", VIPS_KERNEL_LINEAR, NULL);
        g_object_unref(image);
        if (failed) return fail(error, error_size);
    }
    return save(scaled, as_png, out, length, error, error_size);
}

void hw_vips_free(void *pointer) { g_free(pointer); }
