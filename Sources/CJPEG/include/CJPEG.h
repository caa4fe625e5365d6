#ifndef MDOC_CJPEG_H
#define MDOC_CJPEG_H

/* libjpeg (libjpeg-turbo), opened on first use (CDynamicLibrary.h): JPEG images of QR codes. */

#include <stdio.h>
#include <jpeglib.h>

/* Opens libjpeg and resolves the functions the toolkit calls, once: NULL when they are
 * available, else why not. Call before any jpeg function. */
const char *mdoc_jpeg_open(void);

#endif
