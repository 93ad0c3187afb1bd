/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sha256.h - SHA-256 (FIPS 180-4), incremental or in one call: 32-byte
 * digests for the compiled-BPF cache's key and file checksum.
 */
#ifndef SWITCHSTAT_SHA256_H
#define SWITCHSTAT_SHA256_H

#include <stddef.h>
#include <stdint.h>

/* SHA-256, incremental */
struct ss_sha256 {
	uint32_t h[8];
	uint64_t len; /* bytes so far */
	uint8_t buf[64];
	size_t n; /* bytes in buf */
};

/* ss_sha256_init - start a digest */
void ss_sha256_init(struct ss_sha256 *s);
/* ss_sha256_update - add @len bytes at @data */
void ss_sha256_update(struct ss_sha256 *s, const void *data, size_t len);
/* ss_sha256_final - the 32-byte digest of what was added, into @out */
void ss_sha256_final(struct ss_sha256 *s, uint8_t out[32]);
/* ss_sha256 - the digest of @len bytes at @data, in one call */
void ss_sha256(const void *data, size_t len, uint8_t out[32]);

#endif
