#ifndef MDOC_CERTIFICATE_BUILDER_H
#define MDOC_CERTIFICATE_BUILDER_H
// X.509 v3 extensions for the ISO/IEC 18013-5 Annex B certificate profiles, built as OpenSSL
// structures (never from configuration strings, so no value can smuggle in extra entries).
// Each function adds one extension to `certificate` and returns 1 on success, 0 on failure
// (with OpenSSL's error queue holding the reason).
#include <openssl/x509.h>

// basicConstraints (RFC 5280 4.2.1.9), critical: cA TRUE with pathLenConstraint `path_length`,
// or without one when `path_length` is negative.
int mdoc_certificate_add_basic_constraints_ca(X509 *certificate, long path_length);

// keyUsage (RFC 5280 4.2.1.3), critical: bit n of `bits` sets the named bit n
// (digitalSignature = 0 ... decipherOnly = 8).
int mdoc_certificate_add_key_usage(X509 *certificate, unsigned int bits);

// extendedKeyUsage (RFC 5280 4.2.1.12), critical, holding the `count` (at least one) purposes
// `dotted_oids`, in order.
int mdoc_certificate_add_extended_key_usage(X509 *certificate, const char *const *dotted_oids, size_t count);

// subjectKeyIdentifier (RFC 5280 4.2.1.2 method 1): SHA-1 of the subjectPublicKey bits.
int mdoc_certificate_add_subject_key_identifier(X509 *certificate);

// authorityKeyIdentifier (RFC 5280 4.2.1.1) with only keyIdentifier = `key_identifier`.
int mdoc_certificate_add_authority_key_identifier(X509 *certificate, const unsigned char *key_identifier,
                                                  size_t length);

// issuerAltName (RFC 5280 4.2.1.7), non-critical, one GeneralName: a uniformResourceIdentifier
// when `is_uri` is non-zero, an rfc822Name otherwise.
int mdoc_certificate_add_issuer_alternative_name(X509 *certificate, int is_uri, const char *value);

// cRLDistributionPoints (RFC 5280 4.2.1.13), non-critical: one DistributionPoint whose fullName
// is the uniformResourceIdentifier `uri`, without reasons or cRLIssuer.
int mdoc_certificate_add_crl_distribution_point(X509 *certificate, const char *uri);

// Sets a random positive serial number of `length` bytes (at most 20, RFC 5280 4.1.2.2) from
// OpenSSL's random generator: the top bit is cleared (positive) and the next one set, so the
// number has exactly 8 * length - 1 significant bits, all but the top one random.
int mdoc_certificate_set_random_serial(X509 *certificate, size_t length);
#endif
