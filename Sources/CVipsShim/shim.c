#include "CVipsShim.h"
#include <dlfcn.h>
#include <string.h>
#include <vips/vips.h>
#include <vips/vector.h>

// libvips is opened on first use, not linked: it brings some sixty libraries (X11, HDF5, OpenEXR, FITS, ...)
// whose pages a server that never draws a thumbnail would otherwise map and touch at start, about 13 MB of its idle
// memory. Each function the shim calls is looked up once, with libvips' own prototype, and the calls below go
// through these pointers under the functions' names.
#define HW_VIPS_FUNCTIONS(X) \
    X(vips_init) X(vips_concurrency_set) X(vips_cache_set_max) X(vips_cache_set_max_mem) X(vips_block_untrusted_set) \
    X(vips_error_buffer) X(vips_error_clear) X(vips_pngsave_buffer) X(vips_jpegsave_buffer) X(vips_thumbnail_buffer) \
    X(vips_image_hasalpha) X(vips_array_double_newv) X(vips_flatten) X(vips_area_unref) X(vips_image_new_from_buffer) \
    X(vips_jpegload_buffer) X(vips_resize) X(vips_vector_set_enabled) X(g_object_unref) X(g_free) X(g_log_set_writer_func)

#define HW_DECLARE(name) static __typeof__(name) *hw_##name;
HW_VIPS_FUNCTIONS(HW_DECLARE)

static int load(void) {
    void *library = dlopen("libvips.so.42", RTLD_NOW | RTLD_LOCAL);
    if (!library) return -1;
#define HW_LOOK_UP(name) if (!(hw_##name = (__typeof__(name) *)dlsym(library, #name))) return -1;
    HW_VIPS_FUNCTIONS(HW_LOOK_UP)
    return 0;
}

#define vips_init hw_vips_init
#define vips_concurrency_set hw_vips_concurrency_set
#define vips_cache_set_max hw_vips_cache_set_max
#define vips_cache_set_max_mem hw_vips_cache_set_max_mem
#define vips_block_untrusted_set hw_vips_block_untrusted_set
#define vips_error_buffer hw_vips_error_buffer
#define vips_error_clear hw_vips_error_clear
#define vips_pngsave_buffer hw_vips_pngsave_buffer
#define vips_jpegsave_buffer hw_vips_jpegsave_buffer
#define vips_thumbnail_buffer hw_vips_thumbnail_buffer
#define vips_image_hasalpha hw_vips_image_hasalpha
#define vips_array_double_newv hw_vips_array_double_newv
#define vips_flatten hw_vips_flatten
#define vips_area_unref hw_vips_area_unref
#define vips_image_new_from_buffer hw_vips_image_new_from_buffer
#define vips_jpegload_buffer hw_vips_jpegload_buffer
#define vips_resize hw_vips_resize
#define vips_vector_set_enabled hw_vips_vector_set_enabled
#define g_object_unref hw_g_object_unref
#define g_free hw_g_free
#define g_log_set_writer_func hw_g_log_set_writer_func

// glib's warnings (libvips on a damaged file) are dropped: the decoder's error for a file that fails is what is
// reported, and glib's writer looks for journald on stderr, which a confined media worker may not.
static GLogWriterOutput quiet(GLogLevelFlags level, const GLogField *fields, gsize count, gpointer data) {
    (void)level; (void)fields; (void)count; (void)data;
    return G_LOG_WRITER_HANDLED;
}

int hw_vips_start(void) {
    if (load()) return -1;
    g_log_set_writer_func(quiet, NULL, NULL);
    if (vips_init("healthwheel")) return -1;
    vips_concurrency_set(1);
    vips_cache_set_max(0);
    vips_cache_set_max_mem(0);
    vips_block_untrusted_set(TRUE);
    // No run-time generated SIMD code (liborc): it needs executable memory, which a media worker may not map, and
    // it is where a general-protection fault once ended the server.
    vips_vector_set_enabled(FALSE);
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
