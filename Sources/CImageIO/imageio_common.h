#ifndef MDOC_CIMAGEIO_COMMON_H
#define MDOC_CIMAGEIO_COMMON_H

#include "CImageIO.h"
#include <stdarg.h>
#include <stdio.h>

/* Writes a formatted message into the caller's buffer (which may be NULL). */
static inline void mdoc_image_set_message(char *message, const char *format, ...) {
    if (message == NULL) return;
    va_list arguments;
    va_start(arguments, format);
    vsnprintf(message, MDOC_IMAGE_MESSAGE_CAPACITY, format, arguments);
    va_end(arguments);
}

/* MDOC_IMAGE_OK when a library's open function found it (`unavailable` is NULL), else
 * MDOC_IMAGE_ERROR_LIBRARY with the reason in the message. */
static inline int mdoc_image_library(const char *unavailable, char *message) {
    if (unavailable == NULL) return MDOC_IMAGE_OK;
    mdoc_image_set_message(message, "%s", unavailable);
    return MDOC_IMAGE_ERROR_LIBRARY;
}

#endif
