// SPDX-License-Identifier: GPL-2.0
/*
 * bpf_cache.c - the compiled-BPF cache (see bpf_cache.h): a module from
 * libbcc into the cache's form and back into maps, and one start-up's
 * lookup and save.  The key is in bpf_cache_key.c, the file format and
 * map references in bpf_cache_file.c, the directory in bpf_cache_dir.c.
 */
#include "bpf_cache.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <bcc/bcc_common.h>
#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>

/* ---- from libbcc, to the kernel ---------------------------------------- */

/*
 * Map types the cache cannot create from type, sizes and an
 * SS_CACHE_BTF_KV BTF.
 */
static bool type_needs_more(uint32_t type)
{
	switch (type) {
	case BPF_MAP_TYPE_ARRAY_OF_MAPS: /* an inner map */
	case BPF_MAP_TYPE_HASH_OF_MAPS:
	case BPF_MAP_TYPE_STRUCT_OPS: /* the kernel's BTF of its ops */
		return true;
	default:
		return false;
	}
}

/* Local storage: the kernel wants key and value BTF, an int key. */
static bool type_local_storage(uint32_t type)
{
	switch (type) {
	case BPF_MAP_TYPE_SK_STORAGE:
	case BPF_MAP_TYPE_INODE_STORAGE:
	case BPF_MAP_TYPE_TASK_STORAGE:
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
				 "table %s: map type %u needs an inner map "
				 "or the kernel's BTF",
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
		/*
		 * The module's BTF is not kept: a local storage map gets
		 * one of its key and value sizes at create time, which is
		 * all the kernel checks of it (an int key).
		 */
		if (type_local_storage(t->type)) {
			if (!info.btf_key_type_id || !info.btf_value_type_id ||
			    t->key_size != 4 || !t->leaf_size) {
				snprintf(why, whylen,
					 "table %s: local storage with key "
					 "BTF %u, value BTF %u, key %u "
					 "bytes, value %u",
					 name, info.btf_key_type_id,
					 info.btf_value_type_id, t->key_size,
					 t->leaf_size);
				goto fail;
			}
			t->btf = SS_CACHE_BTF_KV;
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
					   sizeof(w)) ||
		    ss_cache_check_calls(f->insns, f->ninsns, w, sizeof(w))) {
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

/*
 * A BTF of an int key and a value of @leaf_size bytes (an array of u8),
 * loaded into the kernel, its fd and type ids set in @o: what an
 * SS_CACHE_BTF_KV table's map is created with.  Returns the BTF (free it
 * once the map exists: the map holds its own reference), or NULL with
 * errno.
 */
static struct btf *kv_btf(uint32_t leaf_size, struct bpf_map_create_opts *o)
{
	struct btf *btf = btf__new_empty();
	int key, u8, val = -1, e;

	if (!btf)
		return NULL;
	key = btf__add_int(btf, "int", 4, BTF_INT_SIGNED);
	u8 = btf__add_int(btf, "unsigned char", 1, 0);
	if (key > 0 && u8 > 0)
		val = btf__add_array(btf, key, u8, leaf_size);
	if (val > 0 && !btf__load_into_kernel(btf)) {
		o->btf_fd = btf__fd(btf);
		o->btf_key_type_id = key;
		o->btf_value_type_id = val;
		return btf;
	}
	e = errno;
	btf__free(btf);
	errno = e;
	return NULL;
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
		struct btf *btf = NULL;
		int e;

		if (t->btf == SS_CACHE_BTF_KV) {
			btf = kv_btf(t->leaf_size, &o);
			if (!btf) {
				snprintf(why, whylen,
					 "cannot load the BTF of map %s: %s",
					 t->name, strerror(errno));
				goto fail;
			}
		}
		/* as libbcc: the kernel keeps 15 characters */
		snprintf(name, sizeof(name), "%s", t->name);
		t->fd = bpf_map_create(t->type, name, t->key_size, t->leaf_size,
				       t->max_entries, &o);
		/* as libbcc: a kernel without map names */
		if (t->fd < 0 && (errno == EINVAL || errno == E2BIG))
			t->fd = bpf_map_create(t->type, NULL, t->key_size,
					       t->leaf_size, t->max_entries,
					       &o);
		e = errno;
		btf__free(btf); /* the map holds its own reference */
		if (t->fd < 0) {
			snprintf(why, whylen, "cannot create map %s: %s",
				 t->name, strerror(e));
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
	if (env && strlen(env) >= sizeof(c->dir)) {
		snprintf(c->why, sizeof(c->why),
			 "cache refused: %s is %zu bytes long (at most %zu)",
			 SS_CACHE_ENV, strlen(env), sizeof(c->dir) - 1);
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

/*
 * How many files the directory keeps: SS_CACHE_KEEP_ENV, a decimal count of
 * 1..SS_CACHE_KEEP_MAX, else SS_CACHE_KEEP.  A value that is not one is
 * ignored and @why (of @len bytes) says so; @why is "" otherwise.
 */
static int cache_keep(char *why, size_t len)
{
	const char *env = getenv(SS_CACHE_KEEP_ENV);
	char *end;
	long v;

	why[0] = '\0';
	if (!env || !*env)
		return SS_CACHE_KEEP;
	errno = 0;
	v = strtol(env, &end, 10);
	if (errno || *end || end == env || v < 1 || v > SS_CACHE_KEEP_MAX) {
		snprintf(why, len, "%s=%.32s ignored (want 1..%d); ",
			 SS_CACHE_KEEP_ENV, env, SS_CACHE_KEEP_MAX);
		return SS_CACHE_KEEP;
	}
	return (int)v;
}

/* ss_cache_save - see bpf_cache.h */
void ss_cache_save(struct ss_cache *c, void *bcc_mod)
{
	const char *sep = c->why[0] ? "; " : "";
	struct ss_cache_mod m;
	char w[384], kw[96];
	int keep;

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
	keep = cache_keep(kw, sizeof(kw));
	if (ss_cache_write(c->dirfd, &m, keep, w, sizeof(w)))
		snprintf(c->note, sizeof(c->note),
			 "compiled (%s%s%snot saved to %s: %s)", c->why, sep,
			 kw, c->dir, w);
	else
		snprintf(c->note, sizeof(c->note),
			 "compiled (%s%s%ssaved to %s/%s)", c->why, sep, kw,
			 c->dir, c->key);
	ss_cache_mod_free(&m);
}

/* ss_cache_close - see bpf_cache.h */
void ss_cache_close(struct ss_cache *c)
{
	if (c->dirfd >= 0)
		close(c->dirfd);
	c->dirfd = -1;
}
