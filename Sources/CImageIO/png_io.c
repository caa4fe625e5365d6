/*
 * PNG through libpng's simplified API (png_image_*), which catches libpng's longjmp errors
 * internally and reports them as a false return with image.message set.
 */
#include "imageio_common.h"
#include "CPNG.h"
#include <stdlib.h>
#include <string.h>

int mdoc_png_write_grey8(const uint8_t *pixels, uint32_t width, uint32_t height,
                         uint8_t **out, size_t *out_length,
                         char message[MDOC_IMAGE_MESSAGE_CAPACITY]) {
    if (out != NULL) *out = NULL;
    if (out_length != NULL) *out_length = 0;
    int opened = mdoc_image_library(mdoc_png_open(), message);
    if (opened != MDOC_IMAGE_OK) return opened;
    if (pixels == NULL || out == NULL || out_length == NULL || width == 0 || height == 0
        || width > PNG_UINT_31_MAX || height > PNG_UINT_31_MAX) {
        mdoc_image_set_message(message, "invalid PNG write parameters (%u x %u)", width, height);
        return MDOC_IMAGE_ERROR_PARAMETER;
    }
    png_image image;
    memset(&image, 0, sizeof image);
    image.version = PNG_IMAGE_VERSION;
    image.width = width;
    image.height = height;
    image.format = PNG_FORMAT_GRAY;

    png_alloc_size_t size = 0;
    if (!png_image_write_to_memory(&image, NULL, &size, 0, pixels, (png_int_32)width, NULL)) {
        mdoc_image_set_message(message, "libpng: %s", image.message);
        png_image_free(&image);
        return MDOC_IMAGE_ERROR_ENCODE;
    }
    uint8_t *buffer = malloc(size == 0 ? 1 : size);
    if (buffer == NULL) {
        mdoc_image_set_message(message, "out of memory for %zu PNG bytes", (size_t)size);
        return MDOC_IMAGE_ERROR_MEMORY;
    }
    if (!png_image_write_to_memory(&image, buffer, &size, 0, pixels, (png_int_32)width, NULL)) {
        mdoc_image_set_message(message, "libpng: %s", image.message);
        png_image_free(&image);
        free(buffer);
        return MDOC_IMAGE_ERROR_ENCODE;
    }
    *out = buffer;
    *out_length = (size_t)size;
    return MDOC_IMAGE_OK;
}

int mdoc_png_read_grey8(const uint8_t *data, size_t length, uint64_t maximum_pixel_count,
                        uint8_t **pixels, uint32_t *width, uint32_t *height,
                        char message[MDOC_IMAGE_MESSAGE_CAPACITY]) {
    if (pixels != NULL) *pixels = NULL;
    if (width != NULL) *width = 0;
    if (height != NULL) *height = 0;
    int opened = mdoc_image_library(mdoc_png_open(), message);
    if (opened != MDOC_IMAGE_OK) return opened;
    if (data == NULL || length == 0 || pixels == NULL || width == NULL || height == NULL) {
        mdoc_image_set_message(message, "invalid PNG read parameters");
        return MDOC_IMAGE_ERROR_PARAMETER;
    }
    png_image image;
    memset(&image, 0, sizeof image);
    image.version = PNG_IMAGE_VERSION;
    if (!png_image_begin_read_from_memory(&image, data, length)) {
        mdoc_image_set_message(message, "libpng: %s", image.message);
        png_image_free(&image);
        return MDOC_IMAGE_ERROR_DECODE;
    }
    uint64_t pixel_count = (uint64_t)image.width * (uint64_t)image.height;
    if (image.width == 0 || image.height == 0) {
        mdoc_image_set_message(message, "PNG has an empty size (%u x %u)", image.width, image.height);
        png_image_free(&image);
        return MDOC_IMAGE_ERROR_DECODE;
    }
    if (pixel_count > maximum_pixel_count) {
        mdoc_image_set_message(message, "PNG is %u x %u = %llu pixels, more than the limit of %llu",
                               image.width, image.height, (unsigned long long)pixel_count,
                               (unsigned long long)maximum_pixel_count);
        png_image_free(&image);
        return MDOC_IMAGE_ERROR_TOO_LARGE;
    }
    if (pixel_count > SIZE_MAX || image.width > PNG_UINT_31_MAX) {
        mdoc_image_set_message(message, "PNG is too large for this machine");
        png_image_free(&image);
        return MDOC_IMAGE_ERROR_TOO_LARGE;
    }
    image.format = PNG_FORMAT_GRAY;
    uint8_t *buffer = malloc((size_t)pixel_count);
    if (buffer == NULL) {
        mdoc_image_set_message(message, "out of memory for %llu pixels", (unsigned long long)pixel_count);
        png_image_free(&image);
        return MDOC_IMAGE_ERROR_MEMORY;
    }
    /* Transparent pixels are composited onto the buffer's contents: start from white. */
    memset(buffer, 0xFF, (size_t)pixel_count);
    uint32_t decoded_width = image.width, decoded_height = image.height;
    if (!png_image_finish_read(&image, NULL, buffer, (png_int_32)image.width, NULL)) {
        mdoc_image_set_message(message, "libpng: %s", image.message);
        png_image_free(&image);
        free(buffer);
        return MDOC_IMAGE_ERROR_DECODE;
    }
    *pixels = buffer;
    *width = decoded_width;
    *height = decoded_height;
    return MDOC_IMAGE_OK;
}

void mdoc_image_free(void *buffer) { free(buffer); }
