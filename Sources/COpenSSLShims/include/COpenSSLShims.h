#ifndef MDOC_COPENSSL_SHIMS_H
#define MDOC_COPENSSL_SHIMS_H
// Functions over OpenSSL macros, callable from Swift. Each is named mdoc_<the macro it wraps>.
#include <stddef.h>
#include <stdint.h>

// Key selections for EVP_PKEY_fromdata (composite macros Swift does not import).
int mdoc_EVP_PKEY_PUBLIC_KEY(void);
int mdoc_EVP_PKEY_KEYPAIR(void);

// OSSL_PARAM names. OSSL_PARAM and OSSL_PARAM_BLD keep the name pointer until the parameters
// are used, so Swift must pass these static strings, not temporary bridged ones.
const char *mdoc_OSSL_PKEY_PARAM_GROUP_NAME(void);
const char *mdoc_OSSL_PKEY_PARAM_PUB_KEY(void);
const char *mdoc_OSSL_PKEY_PARAM_PRIV_KEY(void);
const char *mdoc_OSSL_KDF_PARAM_DIGEST(void);
const char *mdoc_OSSL_KDF_PARAM_KEY(void);
const char *mdoc_OSSL_KDF_PARAM_SALT(void);
const char *mdoc_OSSL_KDF_PARAM_INFO(void);
const char *mdoc_OSSL_KDF_PARAM_MODE(void);
const char *mdoc_OSSL_KDF_PARAM_PASSWORD(void);
const char *mdoc_OSSL_KDF_PARAM_SCRYPT_N(void);
const char *mdoc_OSSL_KDF_PARAM_SCRYPT_R(void);
const char *mdoc_OSSL_KDF_PARAM_SCRYPT_P(void);
const char *mdoc_OSSL_KDF_PARAM_SCRYPT_MAXMEM(void);

#include "certificate_builder.h"
#include "key_provider.h"
#endif
