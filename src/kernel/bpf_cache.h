/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bpf_cache.h - the compiled-BPF cache: a module libbcc compiled (every
 * function's instructions, the license, kern_version and every table's
 * type, sizes and flags) kept in one file per compile input, so that a
 * start-up whose inputs are identical creates the maps and loads the
 * cached instructions instead of running clang.  The module's BTF is not
 * kept: a map that needs BTF of its key and value (local storage) is
 * created with one made for its sizes (enum ss_cache_btf).
 *
 * The key is a SHA-256 over everything that changes the compiled output
 * (ss_cache_key); the file holds a magic, a format version and a SHA-256
 * of its payload, and is rejected whole when any of them is wrong.  Map
 * references are kept as table indexes: libbcc writes map fds into the
 * instructions (ld_imm64, src_reg BPF_PSEUDO_MAP_FD, imm = fd), which
 * ss_cache_fds_to_tables turns into indexes before saving and
 * ss_cache_tables_to_fds into the new maps' fds on a hit.  The cache is
 * root loading code from disk: a directory or file is used only when the
 * effective uid owns it and no one else may write it (ss_cache_dir_open).
 */
#ifndef SWITCHSTAT_BPF_CACHE_H
#define SWITCHSTAT_BPF_CACHE_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <linux/bpf.h>

#include "sha256.h"

#define SS_CACHE_FORMAT 2 /* the file format; part of the key too */
#define SS_CACHE_DEFAULT_DIR "/var/cache/switchstat/bpf"
#define SS_CACHE_ENV "SWITCHSTAT_BPF_CACHE" /* a dir, or "off" */
#define SS_CACHE_KEEP 32 /* files kept: the oldest (mtime) go first */
#define SS_CACHE_KEEP_ENV "SWITCHSTAT_BPF_CACHE_KEEP" /* files kept instead */
#define SS_CACHE_KEEP_MAX 100000
#define SS_CACHE_KEY_HEX 64 /* hex digits of a key: the file's name */
#define SS_CACHE_MAX_TABLES 256
#define SS_CACHE_MAX_FUNCS 256
#define SS_CACHE_MAX_NAME 255 /* bytes of a table's or function's name */
#define SS_CACHE_MAX_INSNS (1 << 20) /* per function */
#define SS_CACHE_MAX_FILE (64 << 20) /* bytes */
#define SS_CACHE_NOTE_LEN (2 * PATH_MAX + 1024) /* struct ss_cache's note */

/*
 * The BTF a table's map is created with.  SS_CACHE_BTF_KV: a key that is
 * a 4-byte signed int and a value of leaf_size bytes (an array of u8),
 * made and loaded at create time: what a local storage map (task, inode,
 * sk) needs, whose kernel check looks at the key's type only.
 */
enum ss_cache_btf {
	SS_CACHE_BTF_NONE = 0,
	SS_CACHE_BTF_KV = 1,
};

/* A table (map) of the module: what creating it again takes. */
struct ss_cache_table {
	char *name;
	uint32_t type, key_size, leaf_size, max_entries, flags;
	uint32_t btf; /* enum ss_cache_btf */
	int fd; /* the map this run created (a hit), else -1 */
};

/* A function: its instructions, map references as table indexes until
 * ss_cache_tables_to_fds, then as the maps' fds. */
struct ss_cache_func {
	char *name;
	struct bpf_insn *insns;
	uint32_t ninsns;
};

struct ss_cache_mod {
	char key[SS_CACHE_KEY_HEX + 1];
	uint32_t kern_version;
	char *license;
	struct ss_cache_table *tables;
	uint32_t ntables;
	struct ss_cache_func *funcs;
	uint32_t nfuncs;
};

/*
 * What the key is made of: the probe text, the cflags as passed to libbcc
 * (after the -g0 decision), and identity strings of everything else the
 * compiled output depends on (ss_cache_key_gather fills them).
 */
struct ss_cache_key_in {
	const char *text;
	const char *const *cflags;
	int ncflags;
	const char *libs; /* libbcc's version; libbcc, clang, LLVM files */
	const char *headers; /* the kernel headers libbcc uses */
	const char *kernel; /* uname, BTF size, tracepoint formats */
	const char *env; /* environment libbcc's compile reads */
	int ncpus; /* possible CPUs (perf event array sizes) */
};

/*
 * ss_cache_key - the key of @in: SHA-256 over the format version and every
 * field (each with its length, so no two inputs run together), as
 * SS_CACHE_KEY_HEX lower-case hex digits and a NUL in @hex.
 */
void ss_cache_key(const struct ss_cache_key_in *in,
		  char hex[SS_CACHE_KEY_HEX + 1]);

/*
 * ss_cache_tracepoints - the "category/name" of every TRACEPOINT_PROBE in
 * @text (libbcc lays out their args from the tracefs format files), one a
 * line, appended to @out (@outlen bytes, NUL-terminated, cut short when
 * full).  Returns how many were found.
 */
int ss_cache_tracepoints(const char *text, char *out, size_t outlen);

/*
 * ss_cache_key_gather - the identity strings of this machine for @in (all
 * but text and cflags): libs, kernel (with the formats of @text's
 * tracepoints), env, ncpus, and headers from @headers (the dir or tarball
 * libbcc compiles against).  The strings are malloc'd: free them with
 * ss_cache_key_free.  Returns 0, or -1 when out of memory.
 */
int ss_cache_key_gather(struct ss_cache_key_in *in, const char *text,
			const char *headers);
void ss_cache_key_free(struct ss_cache_key_in *in);

/*
 * ss_cache_fds_to_tables - in @n instructions, set the imm of every map
 * reference (ld_imm64 with src_reg BPF_PSEUDO_MAP_FD) from a map fd to the
 * index of that fd in @fds (@nfds tables).  Returns 0, or -1 with @why
 * when an ld_imm64 has another pseudo src_reg (it names something the
 * cache cannot recreate), an fd is no table's, or an ld_imm64 is cut off;
 * @insns is then partly rewritten.
 */
int ss_cache_fds_to_tables(struct bpf_insn *insns, size_t n, const int *fds,
			   size_t nfds, char *why, size_t whylen);

/*
 * ss_cache_tables_to_fds - the reverse: every map reference's imm, a table
 * index, becomes @fds[index].  Returns 0, or -1 with @why for an index
 * not below @nfds, another pseudo src_reg or a cut-off ld_imm64.
 */
int ss_cache_tables_to_fds(struct bpf_insn *insns, size_t n, const int *fds,
			   size_t nfds, char *why, size_t whylen);

/*
 * ss_cache_check_calls - whether @n instructions can run on maps created
 * without the module's BTF: -1 with @why for a call of a helper that
 * needs its map value's BTF (bpf_spin_lock, bpf_spin_unlock, bpf_timer_*,
 * bpf_kptr_xchg: the verifier finds those fields in the value's BTF) or
 * of a kfunc (its BTF id is the module's or the kernel's); else 0.
 */
int ss_cache_check_calls(const struct bpf_insn *insns, size_t n, char *why,
			 size_t whylen);

/*
 * ss_cache_serialize - @m (map references as table indexes) as a cache
 * file: header (magic, format version, byte order, payload length,
 * payload SHA-256) and payload.  Returns a malloc'd buffer and its length
 * in @len, or NULL when out of memory or @m is over the limits above.
 */
void *ss_cache_serialize(const struct ss_cache_mod *m, size_t *len);

/*
 * ss_cache_parse - the module in the @len bytes at @buf into @m (zeroed
 * first; every table's fd -1).  Returns 0, or -1 with @why (the magic,
 * version, length, checksum or layout that is wrong, or a table's BTF
 * mark: not an enum ss_cache_btf, or SS_CACHE_BTF_KV with a key that is
 * not 4 bytes or an empty value) and @m empty.
 */
int ss_cache_parse(const void *buf, size_t len, struct ss_cache_mod *m,
		   char *why, size_t whylen);

/*
 * ss_cache_has_magic - whether the @len bytes at @head start as a cache
 * file does (its 8-byte magic): how pruning tells its own files.
 */
bool ss_cache_has_magic(const void *head, size_t len);

/* ss_cache_mod_free - free @m's memory, close the maps it created. */
void ss_cache_mod_free(struct ss_cache_mod *m);

/*
 * ss_cache_from_bcc - copy libbcc module @bcc_mod into @m for saving: its
 * functions with map references as table indexes, license, kern_version
 * and tables, each table checked against the map the kernel has.  The
 * module's BTF is not kept: a local storage table (task, inode, sk) is
 * marked SS_CACHE_BTF_KV (the kernel's map must have key and value BTF
 * and a 4-byte key), every other table gets none.  Returns 0, or -1 with
 * @why when the module cannot be cached (see ss_cache_fds_to_tables; two
 * tables on one fd; a map type that needs an inner map or more BTF than
 * SS_CACHE_BTF_KV; a call of a helper that needs its map value's BTF,
 * such as bpf_spin_lock, or of a kfunc).
 */
int ss_cache_from_bcc(void *bcc_mod, struct ss_cache_mod *m, char *why,
		      size_t whylen);

/*
 * ss_cache_create_maps - on a hit: create every table of @m with libbpf
 * (same type, name cut to the kernel's 15 characters, sizes, flags; for
 * SS_CACHE_BTF_KV, a BTF of its key and value made and loaded first) and
 * point the map references at them.  Returns 0, or -1 with @why (the
 * maps created are closed again).
 */
int ss_cache_create_maps(struct ss_cache_mod *m, char *why, size_t whylen);

/*
 * ss_cache_func - the instructions of function @name of @m and their size
 * in bytes in @size, or NULL.
 */
const struct bpf_insn *ss_cache_func(const struct ss_cache_mod *m,
				     const char *name, size_t *size);

/* ss_cache_table_fd - the fd of @m's table @name (the mod's own), or -1. */
int ss_cache_table_fd(const struct ss_cache_mod *m, const char *name);

/*
 * ss_cache_dir_open - open directory @path (absolute), creating what is
 * missing of it with mode 0700, without following a symlink anywhere in
 * it.  Each directory above it must belong to root or the effective uid
 * and not be writable by group or others unless sticky (/tmp); @path
 * itself must belong to the effective uid and not be writable by group or
 * others.  Returns the directory's fd, or -1 with @why.
 */
int ss_cache_dir_open(const char *path, char *why, size_t whylen);

/*
 * ss_cache_read - read and parse file @key of directory @dirfd into @m.
 * The file must be a regular file of the effective uid, not group/other
 * writable, and name @key inside.  Returns 1 (@m filled), 0 when there is
 * no such file, -1 with @why when it is refused or does not parse.
 */
int ss_cache_read(int dirfd, const char *key, struct ss_cache_mod *m, char *why,
		  size_t whylen);

/*
 * ss_cache_write - write @m as file @m->key of directory @dirfd: a new
 * file (O_EXCL, mode 0600) written, fsync'd and renamed over the name,
 * so a reader sees the old file or the whole new one.  Then keep at most
 * @keep cache files: the oldest by mtime are removed, never the one just
 * written, and only the cache's own (the euid's, with the magic).
 * Returns 0, or -1 with @why.
 */
int ss_cache_write(int dirfd, const struct ss_cache_mod *m, int keep, char *why,
		   size_t whylen);

/*
 * The cache of one start-up: ss_cache_lookup decides the directory and
 * key and tries a hit; after a miss, ss_cache_save keeps the compiled
 * module; note says what happened, for -v ("cached (DIR/KEY)", "compiled
 * (saved to DIR/KEY)", "compiled (cache off: why)"...).
 */
struct ss_cache {
	int dirfd; /* -1: nothing to save to */
	char dir[PATH_MAX];
	char key[SS_CACHE_KEY_HEX + 1];
	char why[PATH_MAX + 512]; /* why the cache was not used (a miss) */
	char note[SS_CACHE_NOTE_LEN];
};

/*
 * ss_cache_lookup - the directory (SWITCHSTAT_BPF_CACHE: a dir, or "off";
 * default SS_CACHE_DEFAULT_DIR) and the key of compiling @text with
 * @cflags against @headers; on a hit, @m holds the module with its maps
 * created.  Returns 1 on a hit, 0 otherwise (also when the cache is off,
 * refused or its file bad: c->why says why); never fails.  Call
 * ss_cache_close after.
 */
int ss_cache_lookup(struct ss_cache *c, const char *text,
		    const char *const *cflags, int ncflags, const char *headers,
		    struct ss_cache_mod *m);

/*
 * ss_cache_save - after a miss: save libbcc module @bcc_mod under the key
 * ss_cache_lookup computed, when there is a directory, and keep the newest
 * SS_CACHE_KEEP_ENV files there (default SS_CACHE_KEEP); c->note says what
 * happened.  Never fails the start-up.
 */
void ss_cache_save(struct ss_cache *c, void *bcc_mod);

/* ss_cache_close - close c's directory. */
void ss_cache_close(struct ss_cache *c);

#endif
