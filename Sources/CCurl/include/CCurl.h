#ifndef MDOC_CCURL_H
#define MDOC_CCURL_H

/* libcurl, opened on first use (CDynamicLibrary.h): the HTTP(S) client of MdocHTTP, which
 * fetches Status List Tokens (draft-ietf-oauth-status-list section 8). libcurl brings some thirty
 * further objects with it (TLS, HTTP/2, IDN, LDAP, SSH...) that a program not fetching anything
 * never loads.
 *
 * curl_easy_setopt and curl_easy_getinfo are variadic, which Swift cannot call: the
 * mdoc_curl_setopt_* and mdoc_curl_getinfo_* functions below call them with one argument of the
 * type the option takes (curl_easy_setopt(3): a long, a char *, a pointer, a function pointer or a
 * curl_off_t). */

#include <curl/curl.h>

/* Opens libcurl, resolves the functions the toolkit calls and initialises the library
 * (curl_global_init(3)), once: NULL when it is usable, else why not. Call before any libcurl
 * function. */
const char *mdoc_curl_open(void);

/* curl_easy_setopt with an option that takes a long (CURLOPT_MAXREDIRS, CURLOPT_NOSIGNAL...). */
CURLcode mdoc_curl_setopt_long(CURL *handle, CURLoption option, long value);

/* curl_easy_setopt with an option that takes a char * (CURLOPT_URL, CURLOPT_CAINFO...); libcurl
 * copies the text. */
CURLcode mdoc_curl_setopt_string(CURL *handle, CURLoption option, const char *value);

/* curl_easy_setopt with an option that takes a data pointer (CURLOPT_WRITEDATA,
 * CURLOPT_HTTPHEADER, CURLOPT_ERRORBUFFER...); the pointer must stay valid while the handle uses
 * it. */
CURLcode mdoc_curl_setopt_pointer(CURL *handle, CURLoption option, void *value);

/* curl_easy_setopt with an option that takes a curl_off_t (CURLOPT_MAXFILESIZE_LARGE...). */
CURLcode mdoc_curl_setopt_off_t(CURL *handle, CURLoption option, curl_off_t value);

/* CURLOPT_WRITEFUNCTION: where the body's bytes go. */
CURLcode mdoc_curl_setopt_write_function(CURL *handle, curl_write_callback function);

/* CURLOPT_XFERINFOFUNCTION: called while the transfer runs, even when no byte moves; a non-zero
 * return aborts it with CURLE_ABORTED_BY_CALLBACK. */
CURLcode mdoc_curl_setopt_xferinfo_function(CURL *handle, curl_xferinfo_callback function);

/* curl_easy_getinfo with an item that gives a long (CURLINFO_RESPONSE_CODE...). */
CURLcode mdoc_curl_getinfo_long(CURL *handle, CURLINFO info, long *value);

/* curl_easy_getinfo with an item that gives a char * owned by the handle (CURLINFO_CONTENT_TYPE,
 * CURLINFO_EFFECTIVE_URL), NULL when there is none. */
CURLcode mdoc_curl_getinfo_string(CURL *handle, CURLINFO info, const char **value);

#endif
