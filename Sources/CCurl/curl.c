#include "CCurl.h"
#include "CDynamicLibrary.h"

#define CURL_FUNCTIONS(FUNCTION, PROCEDURE)                                                             \
    FUNCTION(CURLcode, curl_global_init, (long flags), (flags))                                          \
    FUNCTION(CURL *, curl_easy_init, (void), ())                                                         \
    PROCEDURE(curl_easy_cleanup, (CURL * handle), (handle))                                              \
    FUNCTION(CURLcode, curl_easy_perform, (CURL * handle), (handle))                                     \
    FUNCTION(const char *, curl_easy_strerror, (CURLcode code), (code))                                  \
    FUNCTION(CURLHcode, curl_easy_header,                                                                \
             (CURL * handle, const char *name, size_t index, unsigned int origin, int request,           \
              struct curl_header **header),                                                              \
             (handle, name, index, origin, request, header))                                             \
    FUNCTION(struct curl_slist *, curl_slist_append, (struct curl_slist * list, const char *text), (list, text)) \
    PROCEDURE(curl_slist_free_all, (struct curl_slist * list), (list))

/* libcurl has kept soname major 4 since 7.16 (2006). */
MDOC_DYNAMIC_LIBRARY("libcurl.so.4", CURL_FUNCTIONS)

/* The variadic functions, which cannot be defined under their own names by forwarding their
 * arguments: resolved from the same library (dlopen gives the same handle again) and called
 * through pointers of their variadic type by the typed functions of CCurl.h. */
enum { mdoc_index_setopt, mdoc_index_getinfo, mdoc_variadic_count };
static const char *const mdoc_variadic_symbols[] = {"curl_easy_setopt", "curl_easy_getinfo"};
static void *mdoc_variadic_functions[mdoc_variadic_count];
static mdoc_dynamic_library mdoc_variadic_library = {
    "libcurl.so.4", mdoc_variadic_symbols, mdoc_variadic_functions, mdoc_variadic_count, PTHREAD_MUTEX_INITIALIZER, 0, ""};

typedef CURLcode (*mdoc_curl_setopt_t)(CURL *, CURLoption, ...);
typedef CURLcode (*mdoc_curl_getinfo_t)(CURL *, CURLINFO, ...);

static pthread_once_t mdoc_curl_once = PTHREAD_ONCE_INIT;
static const char *mdoc_curl_failure;

static void mdoc_curl_initialise(void) {
    if (!mdoc_dynamic_library_open(&mdoc_library)) {
        mdoc_curl_failure = mdoc_library.message;
    } else if (!mdoc_dynamic_library_open(&mdoc_variadic_library)) {
        mdoc_curl_failure = mdoc_variadic_library.message;
    } else if (curl_global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK) {
        mdoc_curl_failure = "curl_global_init failed";
    }
}

const char *mdoc_curl_open(void) {
    pthread_once(&mdoc_curl_once, mdoc_curl_initialise);
    return mdoc_curl_failure;
}

static mdoc_curl_setopt_t mdoc_curl_setopt(void) {
    return (mdoc_curl_setopt_t)mdoc_dynamic_library_function(&mdoc_variadic_library, mdoc_index_setopt, "curl_easy_setopt");
}

static mdoc_curl_getinfo_t mdoc_curl_getinfo(void) {
    return (mdoc_curl_getinfo_t)mdoc_dynamic_library_function(&mdoc_variadic_library, mdoc_index_getinfo, "curl_easy_getinfo");
}

CURLcode mdoc_curl_setopt_long(CURL *handle, CURLoption option, long value) {
    return mdoc_curl_setopt()(handle, option, value);
}

CURLcode mdoc_curl_setopt_string(CURL *handle, CURLoption option, const char *value) {
    return mdoc_curl_setopt()(handle, option, value);
}

CURLcode mdoc_curl_setopt_pointer(CURL *handle, CURLoption option, void *value) {
    return mdoc_curl_setopt()(handle, option, value);
}

CURLcode mdoc_curl_setopt_off_t(CURL *handle, CURLoption option, curl_off_t value) {
    return mdoc_curl_setopt()(handle, option, value);
}

CURLcode mdoc_curl_setopt_write_function(CURL *handle, curl_write_callback function) {
    return mdoc_curl_setopt()(handle, CURLOPT_WRITEFUNCTION, function);
}

CURLcode mdoc_curl_setopt_xferinfo_function(CURL *handle, curl_xferinfo_callback function) {
    return mdoc_curl_setopt()(handle, CURLOPT_XFERINFOFUNCTION, function);
}

CURLcode mdoc_curl_getinfo_long(CURL *handle, CURLINFO info, long *value) {
    return mdoc_curl_getinfo()(handle, info, value);
}

CURLcode mdoc_curl_getinfo_string(CURL *handle, CURLINFO info, const char **value) {
    return mdoc_curl_getinfo()(handle, info, value);
}
