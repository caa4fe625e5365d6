#include "COpenSSLShims.h"
#include <openssl/core_names.h>
#include <openssl/evp.h>

int mdoc_EVP_PKEY_PUBLIC_KEY(void) { return EVP_PKEY_PUBLIC_KEY; }
int mdoc_EVP_PKEY_KEYPAIR(void) { return EVP_PKEY_KEYPAIR; }

const char *mdoc_OSSL_PKEY_PARAM_GROUP_NAME(void) { return OSSL_PKEY_PARAM_GROUP_NAME; }
const char *mdoc_OSSL_PKEY_PARAM_PUB_KEY(void) { return OSSL_PKEY_PARAM_PUB_KEY; }
const char *mdoc_OSSL_PKEY_PARAM_PRIV_KEY(void) { return OSSL_PKEY_PARAM_PRIV_KEY; }
const char *mdoc_OSSL_KDF_PARAM_DIGEST(void) { return OSSL_KDF_PARAM_DIGEST; }
const char *mdoc_OSSL_KDF_PARAM_KEY(void) { return OSSL_KDF_PARAM_KEY; }
const char *mdoc_OSSL_KDF_PARAM_SALT(void) { return OSSL_KDF_PARAM_SALT; }
const char *mdoc_OSSL_KDF_PARAM_INFO(void) { return OSSL_KDF_PARAM_INFO; }
const char *mdoc_OSSL_KDF_PARAM_MODE(void) { return OSSL_KDF_PARAM_MODE; }
