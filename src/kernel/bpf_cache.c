// SPDX-License-Identifier: GPL-2.0
/*
 * bpf_cache.c - the compiled-BPF cache (see bpf_cache.h): SHA-256, the
 * key, the file format, map fd patching, and the directory's and files'
 * checks.
 */
#define _GNU_SOURCE /* dl_iterate_phdr */
#include "bpf_cache.h"
#include "bpf_host.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include <bcc/bcc_common.h>
#include <bcc/bcc_version.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

/* ---- SHA-256 (FIPS 180-4) ---------------------------------------------- */

static const uint32_t sha256_k[64] = {
	0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1,
	0x923f82a4, 0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3,
	0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786,
	0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
	0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147,
	0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
	0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b,
	0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
	0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a,
	0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208,
	0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

#define ROR32(x, n) (((x) >> (n)) | ((x) << (32 - (n))))

static void sha256_block(struct ss_sha256 *s, const uint8_t *p)
{
	uint32_t w[64], a, b, c, d, e, f, g, h, t1, t2;
	int i;

	for (i = 0; i < 16; i++)
		w[i] = (uint32_t)p[4 * i] << 24 | (uint32_t)p[4 * i + 1] << 16 |
		       (uint32_t)p[4 * i + 2] << 8 | p[4 * i + 3];
	for (i = 16; i < 64; i++)
		w[i] = w[i - 16] +
		       (ROR32(w[i - 15], 7) ^ ROR32(w[i - 15], 18) ^
			(w[i - 15] >> 3)) +
		       w[i - 7] +
		       (ROR32(w[i - 2], 17) ^ ROR32(w[i - 2], 19) ^
			(w[i - 2] >> 10));
	a = s->h[0];
	b = s->h[1];
	c = s->h[2];
	d = s->h[3];
	e = s->h[4];
	f = s->h[5];
	g = s->h[6];
	h = s->h[7];
	for (i = 0; i < 64; i++) {
		t1 = h + (ROR32(e, 6) ^ ROR32(e, 11) ^ ROR32(e, 25)) +
		     ((e & f) ^ (~e & g)) + sha256_k[i] + w[i];
		t2 = (ROR32(a, 2) ^ ROR32(a, 13) ^ ROR32(a, 22)) +
		     ((a & b) ^ (a & c) ^ (b & c));
		h = g;
		g = f;
		f = e;
		e = d + t1;
		d = c;
		c = b;
		b = a;
		a = t1 + t2;
	}
	s->h[0] += a;
	s->h[1] += b;
	s->h[2] += c;
	s->h[3] += d;
	s->h[4] += e;
	s->h[5] += f;
	s->h[6] += g;
	s->h[7] += h;
}

/* ss_sha256_init - see bpf_cache.h */
void ss_sha256_init(struct ss_sha256 *s)
{
	static const uint32_t h0[8] = { 0x6a09e667, 0xbb67ae85, 0x3c6ef372,
					0xa54ff53a, 0x510e527f, 0x9b05688c,
					0x1f83d9ab, 0x5be0cd19 };

	memcpy(s->h, h0, sizeof(h0));
	s->len = 0;
	s->n = 0;
}

/* ss_sha256_update - see bpf_cache.h */
void ss_sha256_update(struct ss_sha256 *s, const void *data, size_t len)
{
	const uint8_t *p = data;

	s->len += len;
	if (s->n) {
		size_t k = 64 - s->n < len ? 64 - s->n : len;

		memcpy(s->buf + s->n, p, k);
		s->n += k;
		p += k;
		len -= k;
		if (s->n < 64)
			return;
		sha256_block(s, s->buf);
		s->n = 0;
	}
	for (; len >= 64; p += 64, len -= 64)
		sha256_block(s, p);
	memcpy(s->buf, p, len);
	s->n = len;
}

/* ss_sha256_final - see bpf_cache.h */
void ss_sha256_final(struct ss_sha256 *s, uint8_t out[32])
{
	uint64_t bits = s->len * 8;
	uint8_t pad[72] = { 0x80 };
	size_t padlen = (s->n < 56 ? 56 : 120) - s->n;

	for (int i = 0; i < 8; i++)
		pad[padlen + i] = bits >> (56 - 8 * i);
	ss_sha256_update(s, pad, padlen + 8);
	for (int i = 0; i < 8; i++) {
		out[4 * i] = s->h[i] >> 24;
		out[4 * i + 1] = s->h[i] >> 16;
		out[4 * i + 2] = s->h[i] >> 8;
		out[4 * i + 3] = s->h[i];
	}
}

/* ss_sha256 - see bpf_cache.h */
void ss_sha256(const void *data, size_t len, uint8_t out[32])
{
	struct ss_sha256 s;

	ss_sha256_init(&s);
	ss_sha256_update(&s, data, len);
	ss_sha256_final(&s, out);
}

/* ---- the key ------------------------------------------------------------ */

/* a field of the key: its tag, its length, its bytes */
static void key_field(struct ss_sha256 *s, char tag, const void *p,
		      uint64_t len)
{
	uint8_t l[8];

	for (int i = 0; i < 8; i++)
		l[i] = len >> (8 * i);
	ss_sha256_update(s, &tag, 1);
	ss_sha256_update(s, l, sizeof(l));
	if (len)
		ss_sha256_update(s, p, len);
}

static void key_str(struct ss_sha256 *s, char tag, const char *str)
{
	/* NULL and "" differ: an identity that could not be read is NULL */
	if (!str)
		key_field(s, tag, "\xff", 1);
	else
		key_field(s, tag, str, strlen(str) + 1);
}

/* ss_cache_key - see bpf_cache.h */
void ss_cache_key(const struct ss_cache_key_in *in,
		  char hex[SS_CACHE_KEY_HEX + 1])
{
	uint32_t v[2] = { SS_CACHE_FORMAT, (uint32_t)in->ncpus };
	struct ss_sha256 s;
	uint8_t d[32];

	ss_sha256_init(&s);
	key_field(&s, 'F', "switchstat BPF cache", 20);
	key_field(&s, 'V', v, sizeof(v));
	key_str(&s, 'T', in->text);
	key_field(&s, 'N', &in->ncflags, sizeof(in->ncflags));
	for (int i = 0; i < in->ncflags; i++)
		key_str(&s, 'C', in->cflags[i]);
	key_str(&s, 'L', in->libs);
	key_str(&s, 'H', in->headers);
	key_str(&s, 'K', in->kernel);
	key_str(&s, 'E', in->env);
	ss_sha256_final(&s, d);
	for (int i = 0; i < 32; i++)
		snprintf(hex + 2 * i, 3, "%02x", d[i]);
}

static bool ident_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '_';
}

/* the identifier at *p (after blanks), copied to out; false if none */
static bool take_ident(const char **p, char *out, size_t outlen)
{
	const char *s = *p;
	size_t n = 0;

	while (*s == ' ' || *s == '\t')
		s++;
	while (ident_char(s[n]))
		n++;
	if (!n || n >= outlen)
		return false;
	memcpy(out, s, n);
	out[n] = '\0';
	*p = s + n;
	while (**p == ' ' || **p == '\t')
		(*p)++;
	return true;
}

/* ss_cache_tracepoints - see bpf_cache.h */
int ss_cache_tracepoints(const char *text, char *out, size_t outlen)
{
	static const char mac[] = "TRACEPOINT_PROBE(";
	const char *p = text;
	int found = 0;

	while ((p = strstr(p, mac))) {
		const char *q = p + sizeof(mac) - 1;
		char cat[128], name[128];
		size_t used = strlen(out);

		/* RAW_TRACEPOINT_PROBE and the like are not it */
		if (p > text && ident_char(p[-1])) {
			p = q;
			continue;
		}
		p = q;
		if (!take_ident(&q, cat, sizeof(cat)) || *q++ != ',' ||
		    !take_ident(&q, name, sizeof(name)) || *q != ')')
			continue;
		snprintf(out + used, outlen - used, "%s/%s\n", cat, name);
		found++;
	}
	return found;
}

/* a file's identity: its real path, size and mtime; "?" when missing */
static void ident_file(FILE *f, const char *what, const char *path, bool mtime)
{
	char real[PATH_MAX];
	struct stat st;

	if (!realpath(path, real))
		snprintf(real, sizeof(real), "%s", path);
	if (stat(real, &st)) {
		fprintf(f, "%s %s ?\n", what, real);
		return;
	}
	fprintf(f, "%s %s %lld", what, real, (long long)st.st_size);
	if (mtime)
		fprintf(f, " %lld.%09ld", (long long)st.st_mtim.tv_sec,
			st.st_mtim.tv_nsec);
	fputc('\n', f);
}

/* the loaded libraries that compile: libbcc, libclang*, libLLVM* */
static int ident_lib(struct dl_phdr_info *info, size_t size, void *data)
{
	static const char *const libs[] = { "libbcc", "libclang", "libLLVM" };
	const char *base = strrchr(info->dlpi_name, '/');

	base = base ? base + 1 : info->dlpi_name;
	for (size_t i = 0; i < sizeof(libs) / sizeof(libs[0]); i++)
		if (!strncmp(base, libs[i], strlen(libs[i])))
			ident_file(data, "lib", info->dlpi_name, true);
	return 0;
}

/* what a FILE * built with open_memstream holds, or NULL */
static char *memstream_done(FILE *f, char **buf)
{
	if (fclose(f)) {
		free(*buf);
		return NULL;
	}
	return *buf;
}

/* ss_cache_key_gather - see bpf_cache.h */
int ss_cache_key_gather(struct ss_cache_key_in *in, const char *text,
			const char *headers)
{
	static const char *const envs[] = { "ARCH", "BCC_KERNEL_SOURCE",
					    "BCC_LINUX_VERSION_CODE",
					    "BCC_KERNEL_MODULES_SUFFIX" };
	static const char *const hfiles[] = {
		"Makefile", "include/generated/uapi/linux/version.h",
		"include/generated/autoconf.h", "include/config/kernel.release"
	};
	char *lb = NULL, *hb = NULL, *kb = NULL, *eb = NULL;
	size_t ln, hn, kn, en;
	FILE *lf = open_memstream(&lb, &ln), *hf = open_memstream(&hb, &hn);
	FILE *kf = open_memstream(&kb, &kn), *ef = open_memstream(&eb, &en);
	char tps[4096] = "", p[PATH_MAX];
	struct utsname u;
	struct stat st;

	in->libs = in->headers = in->kernel = in->env = NULL;
	if (!lf || !hf || !kf || !ef) {
		if (lf)
			fclose(lf);
		if (hf)
			fclose(hf);
		if (kf)
			fclose(kf);
		if (ef)
			fclose(ef);
		free(lb);
		free(hb);
		free(kb);
		free(eb);
		return -1;
	}

	fprintf(lf, "libbcc version %s\n", LIBBCC_VERSION);
	dl_iterate_phdr(ident_lib, lf);

	fprintf(hf, "headers %s\n", headers);
	if (stat(headers, &st) == 0 && S_ISDIR(st.st_mode)) {
		for (size_t i = 0; i < sizeof(hfiles) / sizeof(hfiles[0]);
		     i++) {
			snprintf(p, sizeof(p), "%s/%s", headers, hfiles[i]);
			ident_file(hf, "file", p, true);
		}
	} else {
		/* kheaders.tar.xz: the kernel's own, named by uname */
		ident_file(hf, "file", headers, false);
	}

	uname(&u);
	fprintf(kf, "%s %s %s %s\n", u.sysname, u.release, u.version,
		u.machine);
	ident_file(kf, "btf", "/sys/kernel/btf/vmlinux", false);
	ss_cache_tracepoints(text, tps, sizeof(tps));
	for (char *t = tps, *nl; (nl = strchr(t, '\n')); t = nl + 1) {
		char buf[4096];
		ssize_t r;
		int fd;

		*nl = '\0';
		snprintf(p, sizeof(p), "%s/events/%s/format", ss_tracefs(), t);
		fd = open(p, O_RDONLY | O_CLOEXEC);
		fprintf(kf, "format %s\n", t);
		while (fd >= 0 && (r = read(fd, buf, sizeof(buf))) > 0)
			fwrite(buf, 1, r, kf);
		if (fd >= 0)
			close(fd);
	}

	for (size_t i = 0; i < sizeof(envs) / sizeof(envs[0]); i++) {
		const char *v = getenv(envs[i]);

		fprintf(ef, "%s%s%s\n", envs[i], v ? "=" : " unset",
			v ? v : "");
	}

	in->libs = memstream_done(lf, &lb);
	in->headers = memstream_done(hf, &hb);
	in->kernel = memstream_done(kf, &kb);
	in->env = memstream_done(ef, &eb);
	in->ncpus = libbpf_num_possible_cpus();
	if (!in->libs || !in->headers || !in->kernel || !in->env) {
		ss_cache_key_free(in);
		return -1;
	}
	return 0;
}

/* ss_cache_key_free - see bpf_cache.h */
void ss_cache_key_free(struct ss_cache_key_in *in)
{
	free((char *)in->libs);
	free((char *)in->headers);
	free((char *)in->kernel);
	free((char *)in->env);
	in->libs = in->headers = in->kernel = in->env = NULL;
}

/* ---- map references ----------------------------------------------------- */

#define LD_IMM64 (BPF_LD | BPF_IMM | BPF_DW)

/*
 * Walk the map references of @insns: to_idx, each imm (an fd) becomes its
 * index in @fds; else each imm (an index) becomes @fds[imm].
 */
static int map_refs(struct bpf_insn *insns, size_t n, const int *fds,
		    size_t nfds, bool to_idx, char *why, size_t whylen)
{
	for (size_t i = 0; i < n; i++) {
		struct bpf_insn *in = &insns[i];
		size_t t;

		if (in->code != LD_IMM64)
			continue;
		if (i + 1 >= n) {
			snprintf(why, whylen, "ld_imm64 cut off at insn %zu",
				 i);
			return -1;
		}
		i++; /* the second half: the imm's upper 32 bits */
		if (in->src_reg == 0)
			continue;
		if (in->src_reg != BPF_PSEUDO_MAP_FD) {
			snprintf(why, whylen,
				 "ld_imm64 with pseudo src_reg %u at insn %zu",
				 in->src_reg, i - 1);
			return -1;
		}
		if (to_idx) {
			for (t = 0; t < nfds && fds[t] != in->imm; t++)
				;
			if (t == nfds) {
				snprintf(why, whylen,
					 "map fd %d at insn %zu is no table's",
					 in->imm, i - 1);
				return -1;
			}
			in->imm = (int32_t)t;
		} else {
			if (in->imm < 0 || (size_t)in->imm >= nfds) {
				snprintf(why, whylen,
					 "table %d at insn %zu: the module "
					 "has %zu",
					 in->imm, i - 1, nfds);
				return -1;
			}
			in->imm = fds[in->imm];
		}
	}
	return 0;
}

/* ss_cache_fds_to_tables - see bpf_cache.h */
int ss_cache_fds_to_tables(struct bpf_insn *insns, size_t n, const int *fds,
			   size_t nfds, char *why, size_t whylen)
{
	return map_refs(insns, n, fds, nfds, true, why, whylen);
}

/* ss_cache_tables_to_fds - see bpf_cache.h */
int ss_cache_tables_to_fds(struct bpf_insn *insns, size_t n, const int *fds,
			   size_t nfds, char *why, size_t whylen)
{
	return map_refs(insns, n, fds, nfds, false, why, whylen);
}

/* ---- the file format ---------------------------------------------------- */

/*
 * header: magic (8 bytes), format version (u32), byte order mark (u32),
 * payload length (u64), payload SHA-256 (32 bytes); all in the host's
 * byte order (a cache is this machine's).  Payload: the key (64 hex
 * digits), kern_version (u32), license (string), tables (u32 count; each
 * name, type, key size, leaf size, max entries, flags), functions (u32
 * count; each name, u32 instruction count, the instructions); a string is
 * a u32 length and its bytes.
 */
static const char magic[8] = { 'S', 'S', 'B', 'P', 'F', 'C', '\r', '\n' };
#define BOM 0x01020304u
#define HDR_LEN (8 + 4 + 4 + 8 + 32)

struct wbuf {
	uint8_t *p;
	size_t len, cap;
	bool bad;
};

static void put(struct wbuf *w, const void *p, size_t len)
{
	if (w->bad)
		return;
	if (w->len + len > w->cap) {
		size_t cap = w->cap ? w->cap : 4096;
		uint8_t *n;

		while (cap < w->len + len)
			cap *= 2;
		n = realloc(w->p, cap);
		if (!n) {
			w->bad = true;
			return;
		}
		w->p = n;
		w->cap = cap;
	}
	memcpy(w->p + w->len, p, len);
	w->len += len;
}

static void put32(struct wbuf *w, uint32_t v)
{
	put(w, &v, sizeof(v));
}

static void put_str(struct wbuf *w, const char *s, size_t max)
{
	size_t len = strlen(s);

	if (len > max)
		w->bad = true;
	put32(w, len);
	put(w, s, len);
}

/* ss_cache_serialize - see bpf_cache.h */
void *ss_cache_serialize(const struct ss_cache_mod *m, size_t *len)
{
	struct wbuf w = { 0 };
	uint64_t plen;
	uint8_t d[32] = { 0 };

	if (strlen(m->key) != SS_CACHE_KEY_HEX ||
	    m->ntables > SS_CACHE_MAX_TABLES || m->nfuncs > SS_CACHE_MAX_FUNCS)
		return NULL;
	put(&w, magic, sizeof(magic));
	put32(&w, SS_CACHE_FORMAT);
	put32(&w, BOM);
	put(&w, &(uint64_t){ 0 }, 8); /* the payload length, below */
	put(&w, d, sizeof(d)); /* ... and its digest */
	put(&w, m->key, SS_CACHE_KEY_HEX);
	put32(&w, m->kern_version);
	put_str(&w, m->license ? m->license : "", SS_CACHE_MAX_NAME);
	put32(&w, m->ntables);
	for (uint32_t i = 0; i < m->ntables; i++) {
		const struct ss_cache_table *t = &m->tables[i];

		put_str(&w, t->name, SS_CACHE_MAX_NAME);
		put32(&w, t->type);
		put32(&w, t->key_size);
		put32(&w, t->leaf_size);
		put32(&w, t->max_entries);
		put32(&w, t->flags);
	}
	put32(&w, m->nfuncs);
	for (uint32_t i = 0; i < m->nfuncs; i++) {
		const struct ss_cache_func *f = &m->funcs[i];

		if (f->ninsns > SS_CACHE_MAX_INSNS)
			w.bad = true;
		put_str(&w, f->name, SS_CACHE_MAX_NAME);
		put32(&w, f->ninsns);
		put(&w, f->insns, (size_t)f->ninsns * sizeof(*f->insns));
	}
	if (w.bad || w.len > SS_CACHE_MAX_FILE) {
		free(w.p);
		return NULL;
	}
	plen = w.len - HDR_LEN;
	memcpy(w.p + 16, &plen, sizeof(plen));
	ss_sha256(w.p + HDR_LEN, plen, w.p + 24);
	*len = w.len;
	return w.p;
}

struct rbuf {
	const uint8_t *p;
	size_t len, off;
	bool bad;
};

static const void *get(struct rbuf *r, size_t len)
{
	const void *p = r->p + r->off;

	if (r->bad || len > r->len - r->off) {
		r->bad = true;
		return NULL;
	}
	r->off += len;
	return p;
}

static uint32_t get32(struct rbuf *r)
{
	const void *p = get(r, 4);
	uint32_t v = 0;

	if (p)
		memcpy(&v, p, sizeof(v));
	return v;
}

/* a string of 1 .. max bytes with no NUL, malloc'd; NULL if bad */
static char *get_str(struct rbuf *r, size_t min, size_t max)
{
	uint32_t len = get32(r);
	const char *p;
	char *s;

	if (r->bad || len < min || len > max) {
		r->bad = true;
		return NULL;
	}
	p = get(r, len);
	if (!p || memchr(p, '\0', len)) {
		r->bad = true;
		return NULL;
	}
	s = malloc(len + 1);
	if (!s) {
		r->bad = true;
		return NULL;
	}
	memcpy(s, p, len);
	s[len] = '\0';
	return s;
}

/* ss_cache_parse - see bpf_cache.h */
int ss_cache_parse(const void *buf, size_t len, struct ss_cache_mod *m,
		   char *why, size_t whylen)
{
	const uint8_t *b = buf;
	struct rbuf r;
	uint32_t version, bom;
	uint64_t plen;
	uint8_t d[32];
	const char *key;

	memset(m, 0, sizeof(*m));
	if (len < HDR_LEN) {
		snprintf(why, whylen, "truncated (%zu bytes)", len);
		return -1;
	}
	if (memcmp(b, magic, sizeof(magic))) {
		snprintf(why, whylen, "not a cache file (bad magic)");
		return -1;
	}
	memcpy(&version, b + 8, 4);
	memcpy(&bom, b + 12, 4);
	memcpy(&plen, b + 16, 8);
	if (version != SS_CACHE_FORMAT) {
		snprintf(why, whylen, "format version %u, want %u", version,
			 SS_CACHE_FORMAT);
		return -1;
	}
	if (bom != BOM) {
		snprintf(why, whylen, "another machine's byte order");
		return -1;
	}
	if (plen != len - HDR_LEN) {
		snprintf(why, whylen,
			 "truncated or extended (%zu payload bytes, header "
			 "says %llu)",
			 len - HDR_LEN, (unsigned long long)plen);
		return -1;
	}
	ss_sha256(b + HDR_LEN, plen, d);
	if (memcmp(d, b + 24, sizeof(d))) {
		snprintf(why, whylen, "checksum mismatch");
		return -1;
	}

	r = (struct rbuf){ .p = b + HDR_LEN, .len = plen };
	key = get(&r, SS_CACHE_KEY_HEX);
	if (key) {
		memcpy(m->key, key, SS_CACHE_KEY_HEX);
		m->key[SS_CACHE_KEY_HEX] = '\0';
	}
	m->kern_version = get32(&r);
	m->license = get_str(&r, 0, SS_CACHE_MAX_NAME);
	m->ntables = get32(&r);
	if (m->ntables > SS_CACHE_MAX_TABLES)
		r.bad = true;
	if (!r.bad && m->ntables) {
		m->tables = calloc(m->ntables, sizeof(*m->tables));
		if (!m->tables)
			r.bad = true;
		for (uint32_t i = 0; m->tables && i < m->ntables; i++)
			m->tables[i].fd = -1;
	}
	for (uint32_t i = 0; !r.bad && i < m->ntables; i++) {
		struct ss_cache_table *t = &m->tables[i];

		t->name = get_str(&r, 1, SS_CACHE_MAX_NAME);
		t->type = get32(&r);
		t->key_size = get32(&r);
		t->leaf_size = get32(&r);
		t->max_entries = get32(&r);
		t->flags = get32(&r);
	}
	m->nfuncs = r.bad ? 0 : get32(&r);
	if (m->nfuncs > SS_CACHE_MAX_FUNCS)
		r.bad = true;
	if (!r.bad && m->nfuncs) {
		m->funcs = calloc(m->nfuncs, sizeof(*m->funcs));
		if (!m->funcs)
			r.bad = true;
	}
	for (uint32_t i = 0; !r.bad && i < m->nfuncs; i++) {
		struct ss_cache_func *f = &m->funcs[i];
		const void *p;

		f->name = get_str(&r, 1, SS_CACHE_MAX_NAME);
		f->ninsns = get32(&r);
		if (r.bad || !f->ninsns || f->ninsns > SS_CACHE_MAX_INSNS) {
			r.bad = true;
			break;
		}
		p = get(&r, (size_t)f->ninsns * sizeof(*f->insns));
		f->insns = p ? malloc((size_t)f->ninsns * sizeof(*f->insns))
			     : NULL;
		if (!f->insns)
			r.bad = true;
		else
			memcpy(f->insns, p, f->ninsns * sizeof(*f->insns));
	}
	if (!r.bad && r.off != r.len)
		r.bad = true;
	if (r.bad) {
		/* the counts say how far the arrays were filled */
		snprintf(why, whylen, "malformed payload (at byte %zu of %zu)",
			 r.off, r.len);
		ss_cache_mod_free(m);
		return -1;
	}
	return 0;
}

/* ss_cache_mod_free - see bpf_cache.h */
void ss_cache_mod_free(struct ss_cache_mod *m)
{
	for (uint32_t i = 0; m->tables && i < m->ntables; i++) {
		free(m->tables[i].name);
		if (m->tables[i].fd >= 0)
			close(m->tables[i].fd);
	}
	for (uint32_t i = 0; m->funcs && i < m->nfuncs; i++) {
		free(m->funcs[i].name);
		free(m->funcs[i].insns);
	}
	free(m->tables);
	free(m->funcs);
	free(m->license);
	memset(m, 0, sizeof(*m));
}

/* ---- from libbcc, to the kernel ---------------------------------------- */

/* Map types the cache cannot create from type and sizes alone. */
static bool type_needs_more(uint32_t type)
{
	switch (type) {
	case BPF_MAP_TYPE_ARRAY_OF_MAPS: /* an inner map */
	case BPF_MAP_TYPE_HASH_OF_MAPS:
	case BPF_MAP_TYPE_SK_STORAGE: /* BTF */
	case BPF_MAP_TYPE_INODE_STORAGE:
	case BPF_MAP_TYPE_TASK_STORAGE:
	case BPF_MAP_TYPE_STRUCT_OPS:
		return true;
	default:
		return false;
	}
}

/* ss_cache_from_bcc - see bpf_cache.h */
int ss_cache_from_bcc(void *mod, struct ss_cache_mod *m, char *why,
		      size_t whylen)
{
	size_t nt = bpf_num_tables(mod), nf = bpf_num_functions(mod);
	const char *lic = bpf_module_license(mod);
	int fds[SS_CACHE_MAX_TABLES];

	memset(m, 0, sizeof(*m));
	if (nt > SS_CACHE_MAX_TABLES || nf > SS_CACHE_MAX_FUNCS || !nf) {
		snprintf(why, whylen, "%zu tables, %zu functions", nt, nf);
		return -1;
	}
	m->kern_version = bpf_module_kern_version(mod);
	m->license = strdup(lic ? lic : "");
	m->tables = calloc(nt ? nt : 1, sizeof(*m->tables));
	m->funcs = calloc(nf, sizeof(*m->funcs));
	if (!m->license || !m->tables || !m->funcs)
		goto oom;
	for (size_t i = 0; i < nt; i++) {
		struct ss_cache_table *t = &m->tables[i];
		const char *name = bpf_table_name(mod, i);
		struct bpf_map_info info = { 0 };
		uint32_t ilen = sizeof(info);

		t->fd = -1; /* libbcc's, not ours to close */
		m->ntables++;
		t->name = strdup(name ? name : "");
		if (!t->name)
			goto oom;
		t->type = bpf_table_type_id(mod, i);
		t->key_size = bpf_table_key_size_id(mod, i);
		t->leaf_size = bpf_table_leaf_size_id(mod, i);
		t->max_entries = bpf_table_max_entries_id(mod, i);
		t->flags = bpf_table_flags_id(mod, i);
		fds[i] = bpf_table_fd_id(mod, i);
		if (!name || !*name || strlen(name) > SS_CACHE_MAX_NAME) {
			snprintf(why, whylen, "table %zu has no usable name",
				 i);
			goto fail;
		}
		if (type_needs_more(t->type)) {
			snprintf(why, whylen,
				 "table %s: map type %u needs BTF or an "
				 "inner map",
				 name, t->type);
			goto fail;
		}
		for (size_t j = 0; j < i; j++)
			if (fds[j] == fds[i]) {
				snprintf(why, whylen,
					 "tables %s and %s share fd %d",
					 m->tables[j].name, name, fds[i]);
				goto fail;
			}
		/* what libbcc says against the map it created */
		if (fds[i] < 0 ||
		    bpf_obj_get_info_by_fd(fds[i], &info, &ilen)) {
			snprintf(why, whylen, "table %s: no map (fd %d)", name,
				 fds[i]);
			goto fail;
		}
		if (info.type != t->type || info.key_size != t->key_size ||
		    info.value_size != t->leaf_size ||
		    info.max_entries != t->max_entries ||
		    info.map_flags != t->flags) {
			snprintf(why, whylen,
				 "table %s: libbcc says type %u key %u "
				 "value %u entries %u flags %#x, the kernel "
				 "%u %u %u %u %#x",
				 name, t->type, t->key_size, t->leaf_size,
				 t->max_entries, t->flags, info.type,
				 info.key_size, info.value_size,
				 info.max_entries, info.map_flags);
			goto fail;
		}
	}
	for (size_t i = 0; i < nf; i++) {
		struct ss_cache_func *f = &m->funcs[i];
		const char *name = bpf_function_name(mod, i);
		const void *start = bpf_function_start_id(mod, i);
		size_t size = bpf_function_size_id(mod, i);
		char w[256];

		m->nfuncs++;
		if (!name || !*name || strlen(name) > SS_CACHE_MAX_NAME ||
		    !start || !size || size % sizeof(struct bpf_insn) ||
		    size / sizeof(struct bpf_insn) > SS_CACHE_MAX_INSNS) {
			snprintf(why, whylen,
				 "function %zu (%s): %zu bytes of "
				 "instructions",
				 i, name ? name : "?", size);
			goto fail;
		}
		f->name = strdup(name);
		f->insns = malloc(size);
		if (!f->name || !f->insns)
			goto oom;
		memcpy(f->insns, start, size);
		f->ninsns = size / sizeof(struct bpf_insn);
		if (ss_cache_fds_to_tables(f->insns, f->ninsns, fds, nt, w,
					   sizeof(w))) {
			snprintf(why, whylen, "function %s: %s", name, w);
			goto fail;
		}
	}
	return 0;
oom:
	snprintf(why, whylen, "out of memory");
fail:
	ss_cache_mod_free(m);
	return -1;
}

/* ss_cache_create_maps - see bpf_cache.h */
int ss_cache_create_maps(struct ss_cache_mod *m, char *why, size_t whylen)
{
	int fds[SS_CACHE_MAX_TABLES];
	char w[256];

	if (m->ntables > SS_CACHE_MAX_TABLES) {
		snprintf(why, whylen, "%u tables", m->ntables);
		return -1;
	}
	for (uint32_t i = 0; i < m->ntables; i++) {
		struct ss_cache_table *t = &m->tables[i];
		LIBBPF_OPTS(bpf_map_create_opts, o, .map_flags = t->flags);
		char name[BPF_OBJ_NAME_LEN];

		/* as libbcc: the kernel keeps 15 characters */
		snprintf(name, sizeof(name), "%s", t->name);
		t->fd = bpf_map_create(t->type, name, t->key_size, t->leaf_size,
				       t->max_entries, &o);
		/* as libbcc: a kernel without map names */
		if (t->fd < 0 && (errno == EINVAL || errno == E2BIG))
			t->fd = bpf_map_create(t->type, NULL, t->key_size,
					       t->leaf_size, t->max_entries,
					       &o);
		if (t->fd < 0) {
			snprintf(why, whylen, "cannot create map %s: %s",
				 t->name, strerror(errno));
			goto fail;
		}
		fds[i] = t->fd;
	}
	for (uint32_t i = 0; i < m->nfuncs; i++)
		if (ss_cache_tables_to_fds(m->funcs[i].insns,
					   m->funcs[i].ninsns, fds, m->ntables,
					   w, sizeof(w))) {
			snprintf(why, whylen, "function %s: %s",
				 m->funcs[i].name, w);
			goto fail;
		}
	return 0;
fail:
	for (uint32_t i = 0; i < m->ntables; i++) {
		if (m->tables[i].fd >= 0)
			close(m->tables[i].fd);
		m->tables[i].fd = -1;
	}
	return -1;
}

/* ss_cache_func - see bpf_cache.h */
const struct bpf_insn *ss_cache_func(const struct ss_cache_mod *m,
				     const char *name, size_t *size)
{
	for (uint32_t i = 0; i < m->nfuncs; i++)
		if (!strcmp(m->funcs[i].name, name)) {
			*size = (size_t)m->funcs[i].ninsns *
				sizeof(struct bpf_insn);
			return m->funcs[i].insns;
		}
	return NULL;
}

/* ss_cache_table_fd - see bpf_cache.h */
int ss_cache_table_fd(const struct ss_cache_mod *m, const char *name)
{
	for (uint32_t i = 0; i < m->ntables; i++)
		if (!strcmp(m->tables[i].name, name))
			return m->tables[i].fd;
	return -1;
}

/* ---- the directory and its files ---------------------------------------- */

/* ss_cache_dir_open - see bpf_cache.h */
int ss_cache_dir_open(const char *path, char *why, size_t whylen)
{
	uid_t euid = geteuid();
	const char *p = path;
	char comp[NAME_MAX + 1];
	struct stat st;
	int fd, nfd;

	if (path[0] != '/') {
		snprintf(why, whylen, "%s is not an absolute path", path);
		return -1;
	}
	fd = open("/", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0) {
		snprintf(why, whylen, "/: %s", strerror(errno));
		return -1;
	}
	for (;;) {
		size_t n;

		while (*p == '/')
			p++;
		if (!*p)
			break;
		n = strcspn(p, "/");
		if (n >= sizeof(comp)) {
			snprintf(why, whylen, "%s: a name too long", path);
			goto fail;
		}
		memcpy(comp, p, n);
		comp[n] = '\0';
		p += n;
		if (!strcmp(comp, "."))
			continue;
		if (!strcmp(comp, "..")) {
			snprintf(why, whylen, "%s has a .. component", path);
			goto fail;
		}
		/*
		 * the directory it is in: root's or ours, and no one else
		 * may rename what is in it (a sticky /tmp is fine)
		 */
		if (fstat(fd, &st)) {
			snprintf(why, whylen, "%s: %s", path, strerror(errno));
			goto fail;
		}
		if ((st.st_uid != 0 && st.st_uid != euid) ||
		    ((st.st_mode & (S_IWGRP | S_IWOTH)) &&
		     !(st.st_mode & S_ISVTX))) {
			snprintf(why, whylen,
				 "the directory holding %s in %s is not "
				 "root's or uid %u's alone",
				 comp, path, (unsigned)euid);
			goto fail;
		}
		nfd = openat(fd, comp,
			     O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (nfd < 0 && errno == ENOENT) {
			if (mkdirat(fd, comp, 0700) && errno != EEXIST) {
				snprintf(why, whylen, "cannot create %s: %s",
					 path, strerror(errno));
				goto fail;
			}
			nfd = openat(fd, comp,
				     O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
					     O_CLOEXEC);
		}
		if (nfd < 0) {
			int e = errno;

			if (!fstatat(fd, comp, &st, AT_SYMLINK_NOFOLLOW) &&
			    S_ISLNK(st.st_mode))
				snprintf(why, whylen,
					 "%s: %s in it is a symlink", path,
					 comp);
			else
				snprintf(why, whylen, "%s: %s", path,
					 strerror(e));
			goto fail;
		}
		close(fd);
		fd = nfd;
	}
	if (fstat(fd, &st)) {
		snprintf(why, whylen, "%s: %s", path, strerror(errno));
		goto fail;
	}
	if (st.st_uid != euid) {
		snprintf(why, whylen, "%s belongs to uid %u, not %u", path,
			 (unsigned)st.st_uid, (unsigned)euid);
		goto fail;
	}
	if (st.st_mode & (S_IWGRP | S_IWOTH)) {
		snprintf(why, whylen, "%s is group/other writable (mode %03o)",
			 path, (unsigned)(st.st_mode & 0777));
		goto fail;
	}
	return fd;
fail:
	close(fd);
	return -1;
}

static bool is_key_name(const char *s)
{
	size_t n = 0;

	for (; s[n]; n++)
		if (!((s[n] >= '0' && s[n] <= '9') ||
		      (s[n] >= 'a' && s[n] <= 'f')))
			return false;
	return n == SS_CACHE_KEY_HEX;
}

/* ss_cache_read - see bpf_cache.h */
int ss_cache_read(int dirfd, const char *key, struct ss_cache_mod *m, char *why,
		  size_t whylen)
{
	int fd = openat(dirfd, key,
			O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	struct stat st;
	uint8_t *buf;
	size_t got = 0;
	int ret = -1;

	memset(m, 0, sizeof(*m));
	if (fd < 0 && errno == ENOENT)
		return 0;
	if (fd < 0) {
		snprintf(why, whylen, "%s", strerror(errno));
		return -1;
	}
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) || st.st_uid != geteuid() ||
	    (st.st_mode & (S_IWGRP | S_IWOTH))) {
		snprintf(why, whylen,
			 "not a regular file of uid %u, or group/other "
			 "writable",
			 (unsigned)geteuid());
		close(fd);
		return -1;
	}
	if (st.st_size > SS_CACHE_MAX_FILE) {
		snprintf(why, whylen, "%lld bytes", (long long)st.st_size);
		close(fd);
		return -1;
	}
	buf = malloc(st.st_size ? st.st_size : 1);
	if (!buf) {
		snprintf(why, whylen, "out of memory");
		close(fd);
		return -1;
	}
	while (got < (size_t)st.st_size) {
		ssize_t r = read(fd, buf + got, st.st_size - got);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		got += r;
	}
	close(fd);
	if (got != (size_t)st.st_size)
		snprintf(why, whylen, "short read");
	else if (!ss_cache_parse(buf, got, m, why, whylen)) {
		if (strcmp(m->key, key)) {
			snprintf(why, whylen, "holds key %.12s...", m->key);
			ss_cache_mod_free(m);
		} else {
			ret = 1;
		}
	}
	free(buf);
	return ret;
}

struct cache_file {
	char name[SS_CACHE_KEY_HEX + 1];
	struct timespec mtime;
};

static int older_first(const void *a, const void *b)
{
	const struct cache_file *x = a, *y = b;

	if (x->mtime.tv_sec != y->mtime.tv_sec)
		return x->mtime.tv_sec < y->mtime.tv_sec ? -1 : 1;
	if (x->mtime.tv_nsec != y->mtime.tv_nsec)
		return x->mtime.tv_nsec < y->mtime.tv_nsec ? -1 : 1;
	return strcmp(x->name, y->name);
}

#define TMP_PREFIX ".tmp-"
#define TMP_STALE_S 3600 /* a temporary file older is a crash's */

/* Keep @keep cache files in @dirfd, the newest; stale temporaries go. */
static void prune(int dirfd, int keep)
{
	struct cache_file *files = NULL;
	size_t n = 0, cap = 0;
	/* its own open file: a dup would share (and leave) dirfd's offset */
	int dfd = openat(dirfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	DIR *d = dfd >= 0 ? fdopendir(dfd) : NULL;
	struct dirent *e;
	time_t now = time(NULL);

	if (!d) {
		if (dfd >= 0)
			close(dfd);
		return;
	}
	while ((e = readdir(d))) {
		struct stat st;

		if (fstatat(dirfd, e->d_name, &st, AT_SYMLINK_NOFOLLOW))
			continue;
		if (!strncmp(e->d_name, TMP_PREFIX, strlen(TMP_PREFIX))) {
			if (now - st.st_mtime > TMP_STALE_S)
				unlinkat(dirfd, e->d_name, 0);
			continue;
		}
		if (!is_key_name(e->d_name))
			continue;
		if (n == cap) {
			struct cache_file *f;

			cap = cap ? 2 * cap : 64;
			f = realloc(files, cap * sizeof(*files));
			if (!f)
				break;
			files = f;
		}
		memcpy(files[n].name, e->d_name, sizeof(files[n].name));
		files[n++].mtime = st.st_mtim;
	}
	closedir(d);
	if (n > (size_t)keep) {
		qsort(files, n, sizeof(*files), older_first);
		for (size_t i = 0; i < n - keep; i++)
			unlinkat(dirfd, files[i].name, 0);
	}
	free(files);
}

/* ss_cache_write - see bpf_cache.h */
int ss_cache_write(int dirfd, const struct ss_cache_mod *m, int keep, char *why,
		   size_t whylen)
{
	char tmp[64];
	size_t len, off = 0;
	uint8_t *buf = ss_cache_serialize(m, &len);
	int fd = -1;

	if (!buf) {
		snprintf(why, whylen, "out of memory or over the limits");
		return -1;
	}
	/*
	 * mkstemp's O_EXCL create with a random name, but in the checked
	 * directory's fd rather than by its path again
	 */
	for (int tries = 0; fd < 0 && tries < 16; tries++) {
		uint64_t r = 0;

		if (getrandom(&r, sizeof(r), 0) != sizeof(r))
			r = ((uint64_t)getpid() << 32) ^ (uint64_t)time(NULL) ^
			    (uint64_t)tries;
		snprintf(tmp, sizeof(tmp), TMP_PREFIX "%016llx",
			 (unsigned long long)r);
		fd = openat(dirfd, tmp,
			    O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW |
				    O_CLOEXEC,
			    0600);
		if (fd < 0 && errno != EEXIST)
			break;
	}
	if (fd < 0) {
		snprintf(why, whylen, "cannot create a file: %s",
			 strerror(errno));
		free(buf);
		return -1;
	}
	while (off < len) {
		ssize_t w = write(fd, buf + off, len - off);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			break;
		off += w;
	}
	free(buf);
	if (off != len || fsync(fd)) {
		snprintf(why, whylen, "cannot write: %s", strerror(errno));
		close(fd);
		unlinkat(dirfd, tmp, 0);
		return -1;
	}
	close(fd);
	if (renameat(dirfd, tmp, dirfd, m->key)) {
		snprintf(why, whylen, "cannot rename: %s", strerror(errno));
		unlinkat(dirfd, tmp, 0);
		return -1;
	}
	prune(dirfd, keep);
	return 0;
}

/* ---- one start-up --------------------------------------------------- */

/* ss_cache_lookup - see bpf_cache.h */
int ss_cache_lookup(struct ss_cache *c, const char *text,
		    const char *const *cflags, int ncflags, const char *headers,
		    struct ss_cache_mod *m)
{
	const char *env = getenv(SS_CACHE_ENV);
	struct ss_cache_key_in in = { .text = text,
				      .cflags = cflags,
				      .ncflags = ncflags };
	char w[384];
	int r;

	memset(c, 0, sizeof(*c));
	memset(m, 0, sizeof(*m));
	c->dirfd = -1;
	if (env && !strcmp(env, "off")) {
		snprintf(c->why, sizeof(c->why), "cache off: %s=off",
			 SS_CACHE_ENV);
		return 0;
	}
	snprintf(c->dir, sizeof(c->dir), "%s",
		 env && *env ? env : SS_CACHE_DEFAULT_DIR);
	if (ss_cache_key_gather(&in, text, headers)) {
		snprintf(c->why, sizeof(c->why), "cache off: out of memory");
		return 0;
	}
	ss_cache_key(&in, c->key);
	ss_cache_key_free(&in);
	c->dirfd = ss_cache_dir_open(c->dir, w, sizeof(w));
	if (c->dirfd < 0) {
		snprintf(c->why, sizeof(c->why), "cache refused: %s", w);
		return 0;
	}
	r = ss_cache_read(c->dirfd, c->key, m, w, sizeof(w));
	if (r == 0)
		return 0;
	if (r < 0) {
		snprintf(c->why, sizeof(c->why), "%s/%s rejected: %s", c->dir,
			 c->key, w);
		return 0;
	}
	if (ss_cache_create_maps(m, w, sizeof(w))) {
		snprintf(c->why, sizeof(c->why), "%s/%s unusable: %s", c->dir,
			 c->key, w);
		ss_cache_mod_free(m);
		return 0;
	}
	/* used now: the last to be pruned (mtime order) */
	utimensat(c->dirfd, c->key, NULL, AT_SYMLINK_NOFOLLOW);
	snprintf(c->note, sizeof(c->note), "cached (%s/%s)", c->dir, c->key);
	return 1;
}

/* ss_cache_save - see bpf_cache.h */
void ss_cache_save(struct ss_cache *c, void *bcc_mod)
{
	const char *sep = c->why[0] ? "; " : "";
	struct ss_cache_mod m;
	char w[384];

	if (c->dirfd < 0) {
		snprintf(c->note, sizeof(c->note), "compiled (%s)", c->why);
		return;
	}
	if (ss_cache_from_bcc(bcc_mod, &m, w, sizeof(w))) {
		snprintf(c->note, sizeof(c->note),
			 "compiled (%s%snot cached: %s)", c->why, sep, w);
		return;
	}
	snprintf(m.key, sizeof(m.key), "%s", c->key);
	if (ss_cache_write(c->dirfd, &m, SS_CACHE_KEEP, w, sizeof(w)))
		snprintf(c->note, sizeof(c->note),
			 "compiled (%s%snot saved to %s: %s)", c->why, sep,
			 c->dir, w);
	else
		snprintf(c->note, sizeof(c->note),
			 "compiled (%s%ssaved to %s/%s)", c->why, sep, c->dir,
			 c->key);
	ss_cache_mod_free(&m);
}

/* ss_cache_close - see bpf_cache.h */
void ss_cache_close(struct ss_cache *c)
{
	if (c->dirfd >= 0)
		close(c->dirfd);
	c->dirfd = -1;
}
