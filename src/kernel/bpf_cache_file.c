// SPDX-License-Identifier: GPL-2.0
/*
 * bpf_cache_file.c - the compiled-BPF cache's file format and map
 * references (bpf_cache.h): pure, unit-tested (tests/unit/kernel/
 * test_bpf_cache.c).
 */
#include "bpf_cache.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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

/* ss_cache_check_calls - see bpf_cache.h */
int ss_cache_check_calls(const struct bpf_insn *insns, size_t n, char *why,
			 size_t whylen)
{
	for (size_t i = 0; i < n; i++) {
		const struct bpf_insn *in = &insns[i];

		if (in->code != (BPF_JMP | BPF_CALL))
			continue;
		if (in->src_reg == BPF_PSEUDO_KFUNC_CALL) {
			snprintf(why, whylen, "a kfunc call at insn %zu", i);
			return -1;
		}
		if (in->src_reg != 0) /* a call of a BPF function */
			continue;
		switch (in->imm) {
		case BPF_FUNC_spin_lock:
		case BPF_FUNC_spin_unlock:
		case BPF_FUNC_timer_init:
		case BPF_FUNC_timer_set_callback:
		case BPF_FUNC_timer_start:
		case BPF_FUNC_timer_cancel:
		case BPF_FUNC_kptr_xchg:
			snprintf(why, whylen,
				 "helper %d at insn %zu needs its map "
				 "value's BTF",
				 in->imm, i);
			return -1;
		default:
			break;
		}
	}
	return 0;
}

/* ---- the file format ---------------------------------------------------- */

/*
 * header: magic (8 bytes), format version (u32), byte order mark (u32),
 * payload length (u64), payload SHA-256 (32 bytes); all in the host's
 * byte order (a cache is this machine's).  Payload: the key (64 hex
 * digits), kern_version (u32), license (string), tables (u32 count; each
 * name, type, key size, leaf size, max entries, flags, BTF mark: enum
 * ss_cache_btf), functions (u32 count; each name, u32 instruction count,
 * the instructions); a string is a u32 length and its bytes.
 */
static const char magic[8] = { 'S', 'S', 'B', 'P', 'F', 'C', '\r', '\n' };

/* ss_cache_has_magic - see bpf_cache.h */
bool ss_cache_has_magic(const void *head, size_t len)
{
	return len >= sizeof(magic) && !memcmp(head, magic, sizeof(magic));
}
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
		put32(&w, t->btf);
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

/* a BTF mark that ss_cache_create_maps can make a BTF for */
static bool btf_mark_ok(const struct ss_cache_table *t)
{
	switch (t->btf) {
	case SS_CACHE_BTF_NONE:
		return true;
	case SS_CACHE_BTF_KV: /* an int key, a value of leaf_size bytes */
		return t->key_size == 4 && t->leaf_size > 0;
	default:
		return false;
	}
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
		t->btf = get32(&r);
		if (!r.bad && !btf_mark_ok(t)) {
			snprintf(why, whylen,
				 "table %s: BTF mark %u with key %u value %u "
				 "bytes",
				 t->name, t->btf, t->key_size, t->leaf_size);
			ss_cache_mod_free(m);
			return -1;
		}
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
