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
    int failed = as_png ? vips_pngsave_buffer(opaque, out, length, "compression", 6, "strip", TRUE, NULL)
                        : vips_jpegsave_buffer(opaque, out, length, "Q", 82, "strip", TRUE, NULL);
    g_object_unref(opaque);
    return failed ? fail(error, error_size) : 0;
}

void hw_vips_free(void *pointer) { g_free(pointer); }
