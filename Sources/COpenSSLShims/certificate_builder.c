#include "certificate_builder.h"
#include <openssl/bn.h>
#include <openssl/objects.h>
#include <openssl/rand.h>
#include <openssl/x509v3.h>
#include <string.h>

static int add_extension(X509 *certificate, int nid, void *value, int critical) {
    return X509_add1_ext_i2d(certificate, nid, value, critical, X509V3_ADD_REPLACE) == 1;
}

int mdoc_certificate_add_basic_constraints_ca(X509 *certificate, long path_length) {
    BASIC_CONSTRAINTS *constraints = BASIC_CONSTRAINTS_new();
    if (constraints == NULL) return 0;
    constraints->ca = 0xFF;
    int ok = 1;
    if (path_length >= 0) {
        constraints->pathlen = ASN1_INTEGER_new();
        ok = constraints->pathlen != NULL && ASN1_INTEGER_set(constraints->pathlen, path_length) == 1;
    }
    ok = ok && add_extension(certificate, NID_basic_constraints, constraints, 1);
    BASIC_CONSTRAINTS_free(constraints);
    return ok;
}

int mdoc_certificate_add_key_usage(X509 *certificate, unsigned int bits) {
    ASN1_BIT_STRING *usage = ASN1_BIT_STRING_new();
    if (usage == NULL) return 0;
    int ok = 1;
    for (int bit = 0; bit < 9 && ok; bit++) {
        if (bits & (1u << bit)) ok = ASN1_BIT_STRING_set_bit(usage, bit, 1) == 1;
    }
    ok = ok && add_extension(certificate, NID_key_usage, usage, 1);
    ASN1_BIT_STRING_free(usage);
    return ok;
}

int mdoc_certificate_add_extended_key_usage(X509 *certificate, const char *const *dotted_oids, size_t count) {
    if (count == 0) return 0;
    EXTENDED_KEY_USAGE *usage = sk_ASN1_OBJECT_new_null();
    if (usage == NULL) return 0;
    int ok = 1;
    for (size_t index = 0; index < count && ok; index++) {
        ASN1_OBJECT *purpose = OBJ_txt2obj(dotted_oids[index], 1);
        ok = purpose != NULL && sk_ASN1_OBJECT_push(usage, purpose) > 0;
        if (!ok) ASN1_OBJECT_free(purpose);
    }
    ok = ok && add_extension(certificate, NID_ext_key_usage, usage, 1);
    sk_ASN1_OBJECT_pop_free(usage, ASN1_OBJECT_free);
    return ok;
}

int mdoc_certificate_add_subject_key_identifier(X509 *certificate) {
    unsigned char digest[EVP_MAX_MD_SIZE];
    unsigned int length = 0;
    if (X509_pubkey_digest(certificate, EVP_sha1(), digest, &length) != 1) return 0;
    ASN1_OCTET_STRING *identifier = ASN1_OCTET_STRING_new();
    if (identifier == NULL) return 0;
    int ok = ASN1_OCTET_STRING_set(identifier, digest, (int)length) == 1
        && add_extension(certificate, NID_subject_key_identifier, identifier, 0);
    ASN1_OCTET_STRING_free(identifier);
    return ok;
}

int mdoc_certificate_add_authority_key_identifier(X509 *certificate, const unsigned char *key_identifier,
                                                  size_t length) {
    if (length == 0 || length > 64) return 0;
    AUTHORITY_KEYID *authority = AUTHORITY_KEYID_new();
    if (authority == NULL) return 0;
    authority->keyid = ASN1_OCTET_STRING_new();
    int ok = authority->keyid != NULL
        && ASN1_OCTET_STRING_set(authority->keyid, key_identifier, (int)length) == 1
        && add_extension(certificate, NID_authority_key_identifier, authority, 0);
    AUTHORITY_KEYID_free(authority);
    return ok;
}

/// A GeneralName holding `value` as a URI or an rfc822Name (both IA5String), or NULL.
static GENERAL_NAME *general_name(int is_uri, const char *value) {
    ASN1_IA5STRING *text = ASN1_IA5STRING_new();
    if (text == NULL) return NULL;
    if (ASN1_STRING_set(text, value, (int)strlen(value)) != 1) {
        ASN1_IA5STRING_free(text);
        return NULL;
    }
    GENERAL_NAME *name = GENERAL_NAME_new();
    if (name == NULL) {
        ASN1_IA5STRING_free(text);
        return NULL;
    }
    GENERAL_NAME_set0_value(name, is_uri ? GEN_URI : GEN_EMAIL, text);
    return name;
}

/// GENERAL_NAMES holding one name, or NULL.
static GENERAL_NAMES *general_names(int is_uri, const char *value) {
    GENERAL_NAMES *names = sk_GENERAL_NAME_new_null();
    if (names == NULL) return NULL;
    GENERAL_NAME *name = general_name(is_uri, value);
    if (name == NULL || sk_GENERAL_NAME_push(names, name) <= 0) {
        GENERAL_NAME_free(name);
        sk_GENERAL_NAME_free(names);
        return NULL;
    }
    return names;
}

int mdoc_certificate_add_issuer_alternative_name(X509 *certificate, int is_uri, const char *value) {
    GENERAL_NAMES *names = general_names(is_uri, value);
    if (names == NULL) return 0;
    int ok = add_extension(certificate, NID_issuer_alt_name, names, 0);
    GENERAL_NAMES_free(names);
    return ok;
}

int mdoc_certificate_add_crl_distribution_point(X509 *certificate, const char *uri) {
    CRL_DIST_POINTS *points = sk_DIST_POINT_new_null();
    if (points == NULL) return 0;
    DIST_POINT *point = DIST_POINT_new();
    DIST_POINT_NAME *name = DIST_POINT_NAME_new();
    GENERAL_NAMES *full = general_names(1, uri);
    int ok = point != NULL && name != NULL && full != NULL;
    if (ok) {
        name->type = 0;  // fullName
        name->name.fullname = full;
        full = NULL;
        point->distpoint = name;
        name = NULL;
        ok = sk_DIST_POINT_push(points, point) > 0;
        if (ok) point = NULL;
    }
    GENERAL_NAMES_free(full);
    DIST_POINT_NAME_free(name);
    DIST_POINT_free(point);
    ok = ok && add_extension(certificate, NID_crl_distribution_points, points, 0);
    sk_DIST_POINT_pop_free(points, DIST_POINT_free);
    return ok;
}

int mdoc_certificate_set_random_serial(X509 *certificate, size_t length) {
    unsigned char bytes[20];
    if (length == 0 || length > sizeof bytes) return 0;
    if (RAND_bytes(bytes, (int)length) != 1) return 0;
    bytes[0] = (unsigned char)((bytes[0] & 0x7F) | 0x40);
    BIGNUM *number = BN_bin2bn(bytes, (int)length, NULL);
    if (number == NULL) return 0;
    ASN1_INTEGER *serial = BN_to_ASN1_INTEGER(number, NULL);
    BN_free(number);
    if (serial == NULL) return 0;
    int ok = X509_set_serialNumber(certificate, serial) == 1;
    ASN1_INTEGER_free(serial);
    return ok;
}
