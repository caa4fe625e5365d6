#ifndef MDOC_CDYNAMICLIBRARY_H
#define MDOC_CDYNAMICLIBRARY_H

/*
 * Shared libraries opened when a program first needs them (dlopen(3)), not when it starts.
 *
 * The camera/QR-image libraries (zbar, libpng, libjpeg) and the Bluetooth ones (libbluetooth,
 * libsystemd for sd-bus) bring some forty further objects with them (X11, v4l, D-Bus, gcrypt,
 * ...) that `mdoc-reader verify` and `mdoc inspect` never use; loading and relocating them was
 * most of those programs' start-up. The C target of each such library defines every function
 * the toolkit calls, under the library's own name and declared by its own header (so the
 * compiler checks each signature), as a call through a pointer that mdoc_dynamic_library_open()
 * resolves from the library. The definitions are hidden: no other object binds to them, so the
 * library's calls to its own functions stay inside it. Swift and C callers call the functions
 * as if the library were linked.
 *
 * Every entry point into such a library opens it first and reports a failure as an error; a
 * function called before its library was opened ends the program with a message naming it.
 *
 * A library's C file lists its functions and expands MDOC_DYNAMIC_LIBRARY:
 *
 *     #define ZBAR_FUNCTIONS(FUNCTION, PROCEDURE) \
 *         FUNCTION(zbar_image_t *, zbar_image_create, (void), ()) \
 *         PROCEDURE(zbar_image_destroy, (zbar_image_t *image), (image))
 *     MDOC_DYNAMIC_LIBRARY("libzbar.so.0", ZBAR_FUNCTIONS)
 *
 * FUNCTION(return type, name, (parameters), (arguments)) for a function returning a value,
 * PROCEDURE(name, (parameters), (arguments)) for one returning void. The expansion defines
 * `mdoc_library`, the library of that translation unit.
 */

#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>

/* The most bytes of a failure message, the terminating NUL included. */
#define MDOC_DYNAMIC_LIBRARY_MESSAGE_CAPACITY 256

/* One library and the functions resolved from it. */
typedef struct mdoc_dynamic_library {
    /* The file dlopen opens: the library's soname, such as "libzbar.so.0". */
    const char *soname;
    /* The names of the functions, and where their addresses go, `count` of each. */
    const char *const *symbols;
    void **functions;
    size_t count;
    pthread_mutex_t lock;
    /* 0 until the first attempt, then 1 when every function was resolved, -1 when not. */
    atomic_int state;
    /* Why the library could not be used, once state is -1. */
    char message[MDOC_DYNAMIC_LIBRARY_MESSAGE_CAPACITY];
} mdoc_dynamic_library;

/* Opens `library` and resolves all its functions, once for the process; later calls give the
 * first result. Returns 1 when every function was found, else 0 with the reason (library not
 * installed, a function missing) in library->message. Safe to call from any thread. */
int mdoc_dynamic_library_open(mdoc_dynamic_library *library);

/* Ends the program: `symbol` was called before its library was opened, which is a bug of the
 * caller, not of the input. */
_Noreturn void mdoc_dynamic_library_unopened(const mdoc_dynamic_library *library, const char *symbol);

/* The address of function `index` of an opened `library`. */
static inline void *mdoc_dynamic_library_function(mdoc_dynamic_library *library, size_t index, const char *symbol) {
    if (atomic_load_explicit(&library->state, memory_order_acquire) != 1) {
        mdoc_dynamic_library_unopened(library, symbol);
    }
    return library->functions[index];
}

#define MDOC_DYNAMIC_LIBRARY_INDEX_F(type, name, parameters, arguments) mdoc_index_##name,
#define MDOC_DYNAMIC_LIBRARY_INDEX_P(name, parameters, arguments) mdoc_index_##name,
#define MDOC_DYNAMIC_LIBRARY_NAME_F(type, name, parameters, arguments) #name,
#define MDOC_DYNAMIC_LIBRARY_NAME_P(name, parameters, arguments) #name,
#define MDOC_DYNAMIC_LIBRARY_DEFINE_F(type, name, parameters, arguments)                              \
    type name parameters {                                                                            \
        return ((type(*) parameters)mdoc_dynamic_library_function(&mdoc_library, mdoc_index_##name, #name)) \
            arguments;                                                                                \
    }
#define MDOC_DYNAMIC_LIBRARY_DEFINE_P(name, parameters, arguments)                                    \
    void name parameters {                                                                            \
        ((void(*) parameters)mdoc_dynamic_library_function(&mdoc_library, mdoc_index_##name, #name)) \
            arguments;                                                                                \
    }

#define MDOC_DYNAMIC_LIBRARY(soname, LIST)                                                            \
    enum { LIST(MDOC_DYNAMIC_LIBRARY_INDEX_F, MDOC_DYNAMIC_LIBRARY_INDEX_P) mdoc_function_count };    \
    static const char *const mdoc_symbols[] = {                                                       \
        LIST(MDOC_DYNAMIC_LIBRARY_NAME_F, MDOC_DYNAMIC_LIBRARY_NAME_P)};                              \
    static void *mdoc_functions[mdoc_function_count];                                                 \
    static mdoc_dynamic_library mdoc_library = {                                                      \
        soname, mdoc_symbols, mdoc_functions, mdoc_function_count, PTHREAD_MUTEX_INITIALIZER, 0, ""}; \
    _Pragma("GCC visibility push(hidden)")                                                            \
    LIST(MDOC_DYNAMIC_LIBRARY_DEFINE_F, MDOC_DYNAMIC_LIBRARY_DEFINE_P)                                \
    _Pragma("GCC visibility pop")

/* The text of a numeric macro, for sonames built from a header's ABI number. */
#define MDOC_DYNAMIC_LIBRARY_TEXT(value) MDOC_DYNAMIC_LIBRARY_TEXT_(value)
#define MDOC_DYNAMIC_LIBRARY_TEXT_(value) #value

#endif
