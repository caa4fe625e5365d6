#include "key_provider.h"
#include <openssl/bio.h>
#include <openssl/conf.h>
#include <openssl/ui.h>
#include <string.h>

static int mdoc_pin_callback(char *buffer, int size, int rwflag, void *userdata) {
    (void)rwflag;
    struct mdoc_pin_source *source = userdata;
    if (source == NULL) {
        return -1;
    }
    source->asked = 1;
    // No PIN: an empty answer, which pkcs11-provider takes as a login cancelled.
    if (source->pin == NULL) {
        return 0;
    }
    if (size < 0 || source->length > (size_t)size) {
        return -1;
    }
    memcpy(buffer, source->pin, source->length);
    return (int)source->length;
}

UI_METHOD *mdoc_pin_ui_method_new(void) {
    return UI_UTIL_wrap_read_pem_callback(mdoc_pin_callback, 0);
}

int mdoc_load_config_text(OSSL_LIB_CTX *context, const char *text) {
    CONF *configuration = NCONF_new_ex(context, NULL);
    BIO *input = BIO_new_mem_buf(text, -1);
    long errorLine = 0;
    int status = configuration != NULL && input != NULL
        && NCONF_load_bio(configuration, input, &errorLine) > 0
        && CONF_modules_load(configuration, NULL, 0) > 0;
    BIO_free(input);
    NCONF_free(configuration);
    return status;
}
