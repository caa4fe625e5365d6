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

#endif
