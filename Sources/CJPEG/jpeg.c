#include "CJPEG.h"
#include "CDynamicLibrary.h"

#define JPEG_FUNCTIONS(FUNCTION, PROCEDURE)                                                             \
    PROCEDURE(jpeg_CreateCompress, (j_compress_ptr cinfo, int version, size_t structsize), (cinfo, version, structsize)) \
    PROCEDURE(jpeg_CreateDecompress, (j_decompress_ptr cinfo, int version, size_t structsize),           \
              (cinfo, version, structsize))                                                             \
    PROCEDURE(jpeg_destroy_compress, (j_compress_ptr cinfo), (cinfo))                                   \
    PROCEDURE(jpeg_destroy_decompress, (j_decompress_ptr cinfo), (cinfo))                               \
    PROCEDURE(jpeg_finish_compress, (j_compress_ptr cinfo), (cinfo))                                    \
    FUNCTION(boolean, jpeg_finish_decompress, (j_decompress_ptr cinfo), (cinfo))                        \
    PROCEDURE(jpeg_mem_dest, (j_compress_ptr cinfo, unsigned char **outbuffer, unsigned long *outsize),  \
              (cinfo, outbuffer, outsize))                                                              \
    PROCEDURE(jpeg_mem_src, (j_decompress_ptr cinfo, const unsigned char *inbuffer, unsigned long insize), \
              (cinfo, inbuffer, insize))                                                                \
    FUNCTION(int, jpeg_read_header, (j_decompress_ptr cinfo, boolean require_image), (cinfo, require_image)) \
    FUNCTION(JDIMENSION, jpeg_read_scanlines, (j_decompress_ptr cinfo, JSAMPARRAY scanlines, JDIMENSION max_lines), \
             (cinfo, scanlines, max_lines))                                                             \
    PROCEDURE(jpeg_set_defaults, (j_compress_ptr cinfo), (cinfo))                                       \
    PROCEDURE(jpeg_set_quality, (j_compress_ptr cinfo, int quality, boolean force_baseline),            \
              (cinfo, quality, force_baseline))                                                         \
    PROCEDURE(jpeg_start_compress, (j_compress_ptr cinfo, boolean write_all_tables), (cinfo, write_all_tables)) \
    FUNCTION(boolean, jpeg_start_decompress, (j_decompress_ptr cinfo), (cinfo))                         \
    FUNCTION(struct jpeg_error_mgr *, jpeg_std_error, (struct jpeg_error_mgr * err), (err))             \
    FUNCTION(JDIMENSION, jpeg_write_scanlines, (j_compress_ptr cinfo, JSAMPARRAY scanlines, JDIMENSION num_lines), \
             (cinfo, scanlines, num_lines))

/* libjpeg.so.62 for the libjpeg 6b ABI, .so.8 for 8: the header's JPEG_LIB_VERSION. */
MDOC_DYNAMIC_LIBRARY("libjpeg.so." MDOC_DYNAMIC_LIBRARY_TEXT(JPEG_LIB_VERSION), JPEG_FUNCTIONS)

const char *mdoc_jpeg_open(void) {
    return mdoc_dynamic_library_open(&mdoc_library) ? NULL : mdoc_library.message;
}
