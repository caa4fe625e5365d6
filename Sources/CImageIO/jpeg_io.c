/*
 * JPEG through libjpeg(-turbo): error_exit is replaced by a longjmp back into the function
 * that called libjpeg, which then cleans up and returns a status code with the message.
 */
#include "imageio_common.h"
#include "CJPEG.h"
#include <limits.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    struct jpeg_error_mgr base;
    jmp_buf jump;
    char *message;
} mdoc_jpeg_error;

static void mdoc_jpeg_error_exit(j_common_ptr info) {
    mdoc_jpeg_error *error = (mdoc_jpeg_error *)info->err;
    char text[JMSG_LENGTH_MAX];
    error->base.format_message(info, text);
    mdoc_image_set_message(error->message, "libjpeg: %s", text);
    longjmp(error->jump, 1);
}

/* Warnings (corrupt-data recoveries) are not printed to stderr; the decode carries on. */
static void mdoc_jpeg_output_message(j_common_ptr info) { (void)info; }

static void mdoc_jpeg_install_errors(mdoc_jpeg_error *error, char *message) {
    jpeg_std_error(&error->base);
    error->base.error_exit = mdoc_jpeg_error_exit;
    error->base.output_message = mdoc_jpeg_output_message;
    error->message = message;
}

int mdoc_jpeg_read_grey8(const uint8_t *data, size_t length, uint64_t maximum_pixel_count,
                         uint8_t **pixels, uint32_t *width, uint32_t *height,
                         char message[MDOC_IMAGE_MESSAGE_CAPACITY]) {
    if (pixels != NULL) *pixels = NULL;
    if (width != NULL) *width = 0;
    if (height != NULL) *height = 0;
    int opened = mdoc_image_library(mdoc_jpeg_open(), message);
    if (opened != MDOC_IMAGE_OK) return opened;
    if (data == NULL || length == 0 || length > (size_t)ULONG_MAX
        || pixels == NULL || width == NULL || height == NULL) {
        mdoc_image_set_message(message, "invalid JPEG read parameters");
        return MDOC_IMAGE_ERROR_PARAMETER;
    }
    struct jpeg_decompress_struct decoder;
    mdoc_jpeg_error error;
    uint8_t *volatile buffer = NULL;
    volatile int status = MDOC_IMAGE_ERROR_DECODE;
    memset(&decoder, 0, sizeof decoder);
    decoder.err = jpeg_std_error(&error.base);
    mdoc_jpeg_install_errors(&error, message);
    if (setjmp(error.jump)) {
        jpeg_destroy_decompress(&decoder);
        free(buffer);
        return status;
    }
    jpeg_create_decompress(&decoder);
    jpeg_mem_src(&decoder, data, (unsigned long)length);
    jpeg_read_header(&decoder, TRUE);
    uint64_t pixel_count = (uint64_t)decoder.image_width * (uint64_t)decoder.image_height;
    if (pixel_count > maximum_pixel_count || pixel_count > SIZE_MAX) {
        mdoc_image_set_message(message, "JPEG is %u x %u = %llu pixels, more than the limit of %llu",
                               decoder.image_width, decoder.image_height,
                               (unsigned long long)pixel_count, (unsigned long long)maximum_pixel_count);
        jpeg_destroy_decompress(&decoder);
        return MDOC_IMAGE_ERROR_TOO_LARGE;
    }
    decoder.out_color_space = JCS_GRAYSCALE;
    jpeg_start_decompress(&decoder);
    if (decoder.output_components != 1 || decoder.output_width != decoder.image_width
        || decoder.output_height != decoder.image_height) {
        mdoc_image_set_message(message, "JPEG could not be converted to 8-bit greyscale");
        jpeg_destroy_decompress(&decoder);
        return MDOC_IMAGE_ERROR_DECODE;
    }
    size_t row_length = decoder.output_width;
    uint32_t decoded_height = decoder.output_height;
    buffer = malloc((size_t)pixel_count == 0 ? 1 : (size_t)pixel_count);
    if (buffer == NULL) {
        mdoc_image_set_message(message, "out of memory for %llu pixels", (unsigned long long)pixel_count);
        jpeg_destroy_decompress(&decoder);
        return MDOC_IMAGE_ERROR_MEMORY;
    }
    while (decoder.output_scanline < decoder.output_height) {
        JSAMPROW row = buffer + (size_t)decoder.output_scanline * row_length;
        jpeg_read_scanlines(&decoder, &row, 1);
    }
    jpeg_finish_decompress(&decoder);
    jpeg_destroy_decompress(&decoder);
    *pixels = buffer;
    *width = (uint32_t)row_length;
    *height = decoded_height;
    return MDOC_IMAGE_OK;
}

int mdoc_jpeg_write_grey8(const uint8_t *pixels, uint32_t width, uint32_t height, int quality,
                          uint8_t **out, size_t *out_length,
                          char message[MDOC_IMAGE_MESSAGE_CAPACITY]) {
    if (out != NULL) *out = NULL;
    if (out_length != NULL) *out_length = 0;
    int opened = mdoc_image_library(mdoc_jpeg_open(), message);
    if (opened != MDOC_IMAGE_OK) return opened;
    if (pixels == NULL || out == NULL || out_length == NULL || width == 0 || height == 0
        || width > JPEG_MAX_DIMENSION || height > JPEG_MAX_DIMENSION || quality < 1 || quality > 100) {
        mdoc_image_set_message(message, "invalid JPEG write parameters (%u x %u, quality %d)",
                               width, height, quality);
        return MDOC_IMAGE_ERROR_PARAMETER;
    }
    struct jpeg_compress_struct encoder;
    mdoc_jpeg_error error;
    unsigned char *volatile buffer = NULL;
    unsigned long volatile buffer_length = 0;
    memset(&encoder, 0, sizeof encoder);
    encoder.err = jpeg_std_error(&error.base);
    mdoc_jpeg_install_errors(&error, message);
    if (setjmp(error.jump)) {
        jpeg_destroy_compress(&encoder);
        free(buffer);
        return MDOC_IMAGE_ERROR_ENCODE;
    }
    jpeg_create_compress(&encoder);
    jpeg_mem_dest(&encoder, (unsigned char **)&buffer, (unsigned long *)&buffer_length);
    encoder.image_width = width;
    encoder.image_height = height;
    encoder.input_components = 1;
    encoder.in_color_space = JCS_GRAYSCALE;
    jpeg_set_defaults(&encoder);
    jpeg_set_quality(&encoder, quality, TRUE);
    jpeg_start_compress(&encoder, TRUE);
    while (encoder.next_scanline < encoder.image_height) {
        JSAMPROW row = (JSAMPROW)(pixels + (size_t)encoder.next_scanline * width);
        jpeg_write_scanlines(&encoder, &row, 1);
    }
    jpeg_finish_compress(&encoder);
    jpeg_destroy_compress(&encoder);
    *out = buffer;
    *out_length = (size_t)buffer_length;
    return MDOC_IMAGE_OK;
}
