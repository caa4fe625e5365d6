#include "CPNG.h"
#include "CDynamicLibrary.h"

#define PNG_FUNCTIONS(FUNCTION, PROCEDURE)                                                              \
    FUNCTION(int, png_image_begin_read_from_memory, (png_imagep image, png_const_voidp memory, size_t size), \
             (image, memory, size))                                                                     \
    FUNCTION(int, png_image_finish_read,                                                                \
             (png_imagep image, png_const_colorp background, void *buffer, png_int_32 row_stride, void *colormap), \
             (image, background, buffer, row_stride, colormap))                                         \
    PROCEDURE(png_image_free, (png_imagep image), (image))                                              \
    FUNCTION(int, png_image_write_to_memory,                                                            \
             (png_imagep image, void *memory, png_alloc_size_t *PNG_RESTRICT memory_bytes, int convert_to_8_bit, \
              const void *buffer, png_int_32 row_stride, const void *colormap),                         \
             (image, memory, memory_bytes, convert_to_8_bit, buffer, row_stride, colormap))

/* libpng16.so.16: the soname libpng builds from its header's ABI numbers. */
MDOC_DYNAMIC_LIBRARY("libpng" MDOC_DYNAMIC_LIBRARY_TEXT(PNG_LIBPNG_VER_DLLNUM) ".so." MDOC_DYNAMIC_LIBRARY_TEXT(PNG_LIBPNG_VER_SONUM),
                     PNG_FUNCTIONS)

const char *mdoc_png_open(void) {
    return mdoc_dynamic_library_open(&mdoc_library) ? NULL : mdoc_library.message;
}
