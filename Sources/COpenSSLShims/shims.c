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
const char *mdoc_OSSL_KDF_PARAM_PASSWORD(void) { return OSSL_KDF_PARAM_PASSWORD; }
const char *mdoc_OSSL_KDF_PARAM_SCRYPT_N(void) { return OSSL_KDF_PARAM_SCRYPT_N; }
const char *mdoc_OSSL_KDF_PARAM_SCRYPT_R(void) { return OSSL_KDF_PARAM_SCRYPT_R; }
const char *mdoc_OSSL_KDF_PARAM_SCRYPT_P(void) { return OSSL_KDF_PARAM_SCRYPT_P; }
const char *mdoc_OSSL_KDF_PARAM_SCRYPT_MAXMEM(void) { return OSSL_KDF_PARAM_SCRYPT_MAXMEM; }
