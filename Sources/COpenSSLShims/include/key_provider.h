#ifndef MDOC_KEY_PROVIDER_H
#define MDOC_KEY_PROVIDER_H
// What MdocCrypto's KeyProvider needs of OpenSSL 3 that Swift cannot write: a UI method over a C
// callback, and a configuration read from memory into one library context.
#include <stddef.h>
#include <openssl/types.h>

// The PIN a provider's login prompt is answered with (the user data of mdoc_pin_ui_method_new's
// method), and whether the prompt came: a provider asks only when it logs in to a token.
struct mdoc_pin_source {
    const unsigned char *pin;
    size_t length;
    int asked;
};

// A UI method whose one prompt is answered with the struct mdoc_pin_source given as the UI's user
// data (OSSL_STORE_open_ex's ui_data); an absent PIN answers with nothing, a cancelled login. Free it with
// UI_destroy_method.
UI_METHOD *mdoc_pin_ui_method_new(void);

// Loads the configuration `text` (openssl.cnf syntax) into `context` as OSSL_LIB_CTX_load_config
// loads a file: NCONF_load_bio, then CONF_modules_load. Returns 1 on success.
int mdoc_load_config_text(OSSL_LIB_CTX *context, const char *text);

#endif
