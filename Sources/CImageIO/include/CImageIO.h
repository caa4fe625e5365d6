#ifndef MDOC_CIMAGEIO_H
#define MDOC_CIMAGEIO_H

/*
 * PNG and JPEG reading and writing for 8-bit greyscale pixel buffers.
 *
 * libpng and libjpeg report errors by longjmp, which Swift cannot catch: no longjmp ever leaves
 * these functions. PNG goes through libpng's simplified API (png_image_*), which catches its
 * own errors; JPEG installs an error manager whose error_exit jumps back to a setjmp inside the
 * function. Either way the caller gets a status code and a message.
 * Pixel buffers are row-major, one byte per pixel (0 black, 255 white), no row padding.
 * Buffers returned through `out` parameters are allocated with malloc; release them with
 * mdoc_image_free. On failure nothing is returned that needs freeing.
 */

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Status codes returned by every function below. */
enum {
    MDOC_IMAGE_OK = 0,
    /* The library rejected the data (corrupt, truncated, unsupported variant); see the message. */
    MDOC_IMAGE_ERROR_DECODE = 1,
    /* The image is larger than the caller's maximum pixel count. */
    MDOC_IMAGE_ERROR_TOO_LARGE = 2,
    /* Allocation failed. */
    MDOC_IMAGE_ERROR_MEMORY = 3,
    /* A parameter was out of range (zero width or height, null buffer, bad quality). */
    MDOC_IMAGE_ERROR_PARAMETER = 4,
    /* Encoding failed inside the library; see the message. */
    MDOC_IMAGE_ERROR_ENCODE = 5,
    /* libpng or libjpeg cannot be opened (it is opened on first use); see the message. */
    MDOC_IMAGE_ERROR_LIBRARY = 6,
};

/* Size of the message buffers the functions fill (including the terminating NUL). */
#define MDOC_IMAGE_MESSAGE_CAPACITY 256

/* Encodes a greyscale image as an 8-bit greyscale PNG (colour type 0, no interlace). */
int mdoc_png_write_grey8(const uint8_t *pixels, uint32_t width, uint32_t height,
                         uint8_t **out, size_t *out_length,
                         char message[MDOC_IMAGE_MESSAGE_CAPACITY]);

/* Decodes any PNG (palette, grey, RGB, with or without alpha, 1-16 bit, interlaced) into
 * 8-bit greyscale; transparent pixels are composited over white. Fails with
 * MDOC_IMAGE_ERROR_TOO_LARGE before allocating when width * height > maximum_pixel_count. */
int mdoc_png_read_grey8(const uint8_t *data, size_t length, uint64_t maximum_pixel_count,
                        uint8_t **pixels, uint32_t *width, uint32_t *height,
                        char message[MDOC_IMAGE_MESSAGE_CAPACITY]);

/* Decodes a baseline or progressive JPEG (greyscale or YCbCr) into 8-bit greyscale. Fails with
 * MDOC_IMAGE_ERROR_TOO_LARGE before allocating when width * height > maximum_pixel_count. */
int mdoc_jpeg_read_grey8(const uint8_t *data, size_t length, uint64_t maximum_pixel_count,
                         uint8_t **pixels, uint32_t *width, uint32_t *height,
                         char message[MDOC_IMAGE_MESSAGE_CAPACITY]);

/* Encodes a greyscale image as a baseline greyscale JPEG with quality 1-100. */
int mdoc_jpeg_write_grey8(const uint8_t *pixels, uint32_t width, uint32_t height, int quality,
                          uint8_t **out, size_t *out_length,
                          char message[MDOC_IMAGE_MESSAGE_CAPACITY]);

/* Releases a buffer returned by one of the functions above. */
void mdoc_image_free(void *buffer);

#ifdef __cplusplus
}
#endif

#endif
