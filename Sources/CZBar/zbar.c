#include "CZBar.h"
#include "CDynamicLibrary.h"

#define ZBAR_FUNCTIONS(FUNCTION, PROCEDURE)                                                             \
    FUNCTION(zbar_image_t *, zbar_image_create, (void), ())                                             \
    PROCEDURE(zbar_image_destroy, (zbar_image_t * image), (image))                                      \
    FUNCTION(const zbar_symbol_t *, zbar_image_first_symbol, (const zbar_image_t *image), (image))      \
    FUNCTION(zbar_image_scanner_t *, zbar_image_scanner_create, (void), ())                             \
    PROCEDURE(zbar_image_scanner_destroy, (zbar_image_scanner_t * scanner), (scanner))                  \
    FUNCTION(int, zbar_image_scanner_set_config,                                                        \
             (zbar_image_scanner_t * scanner, zbar_symbol_type_t symbology, zbar_config_t config, int value), \
             (scanner, symbology, config, value))                                                       \
    PROCEDURE(zbar_image_set_data,                                                                      \
              (zbar_image_t * image, const void *data, unsigned long length, zbar_image_cleanup_handler_t *cleanup), \
              (image, data, length, cleanup))                                                           \
    PROCEDURE(zbar_image_set_format, (zbar_image_t * image, unsigned long format), (image, format))     \
    PROCEDURE(zbar_image_set_size, (zbar_image_t * image, unsigned width, unsigned height), (image, width, height)) \
    FUNCTION(int, zbar_scan_image, (zbar_image_scanner_t * scanner, zbar_image_t *image), (scanner, image)) \
    FUNCTION(const char *, zbar_symbol_get_data, (const zbar_symbol_t *symbol), (symbol))             \
    FUNCTION(unsigned int, zbar_symbol_get_data_length, (const zbar_symbol_t *symbol), (symbol))       \
    FUNCTION(zbar_symbol_type_t, zbar_symbol_get_type, (const zbar_symbol_t *symbol), (symbol))        \
    FUNCTION(const zbar_symbol_t *, zbar_symbol_next, (const zbar_symbol_t *symbol), (symbol))

/* zbar has kept soname major 0 through its releases. */
MDOC_DYNAMIC_LIBRARY("libzbar.so.0", ZBAR_FUNCTIONS)

const char *mdoc_zbar_open(void) {
    return mdoc_dynamic_library_open(&mdoc_library) ? NULL : mdoc_library.message;
}
