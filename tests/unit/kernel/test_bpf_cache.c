// SPDX-License-Identifier: GPL-2.0
/*
 * test_bpf_cache.c - src/kernel/bpf_cache.c without the kernel: SHA-256
 * against FIPS 180-2's vectors, the cache file's round trip (also with a
 * task storage table's BTF mark) and every kind of damage it must reject,
 * the map fd patching both ways, the helper calls a module without its
 * BTF cannot make, the key (every input changes it), and the directory
 * and file checks in a temporary directory.
 */
#include <criterion/criterion.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bpf_cache.h"

#define LD_IMM64 (BPF_LD | BPF_IMM | BPF_DW)
#define HDR_LEN 56 /* magic 8, version 4, byte order 4, length 8, sha 32 */

static void hex32(const uint8_t d[32], char out[65])
{
	for (int i = 0; i < 32; i++)
		snprintf(out + 2 * i, 3, "%02x", d[i]);
}

static const char *sha_hex(const void *p, size_t len)
{
	static char out[65];
	uint8_t d[32];

	ss_sha256(p, len, d);
	hex32(d, out);
	return out;
}

Test(bpf_cache, sha256_fips_vectors)
{
	static const char m2[] =
		"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
	char *mil = malloc(1000000);
	struct ss_sha256 s;
	uint8_t d[32];
	char hex[65];

	cr_assert_str_eq(sha_hex("", 0), "e3b0c44298fc1c149afbf4c8996fb924"
					 "27ae41e4649b934ca495991b7852b855");
	cr_assert_str_eq(sha_hex("abc", 3), "ba7816bf8f01cfea414140de5dae2223"
					    "b00361a396177a9cb410ff61f20015ad");
	cr_assert_str_eq(sha_hex(m2, strlen(m2)),
			 "248d6a61d20638b8e5c026930c3e6039"
			 "a33ce45964ff2167f6ecedd419db06c1");
	/* a million 'a', fed in odd pieces through the incremental API */
	memset(mil, 'a', 1000000);
	ss_sha256_init(&s);
	for (size_t off = 0, k = 1; off < 1000000; off += k, k = k * 7 % 191)
		ss_sha256_update(&s, mil + off,
				 off + k > 1000000 ? 1000000 - off : k);
	ss_sha256_final(&s, d);
	hex32(d, hex);
	cr_assert_str_eq(hex, "cdc76e5c9914fb9281a1c7e284d73e67"
			      "f1809a48a497200e046d39ccc7112cd0");
	free(mil);
}

/* a module of 2 tables and 2 functions; map references as table indexes */
static void make_mod(struct ss_cache_mod *m)
{
	struct bpf_insn f0[] = {
		{ .code = LD_IMM64,
		  .dst_reg = 1,
		  .src_reg = BPF_PSEUDO_MAP_FD,
		  .imm = 1 },
		{ 0 },
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = 0 },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	struct bpf_insn f1[] = {
		{ .code = LD_IMM64, .dst_reg = 2, .imm = 0x12345678 },
		{ .imm = 0x9abc },
		{ .code = LD_IMM64,
		  .dst_reg = 1,
		  .src_reg = BPF_PSEUDO_MAP_FD,
		  .imm = 0 },
		{ 0 },
		{ .code = BPF_JMP | BPF_EXIT },
	};

	memset(m, 0, sizeof(*m));
	memset(m->key, 'a', SS_CACHE_KEY_HEX);
	m->kern_version = 0x060112;
	m->license = strdup("GPL");
	m->ntables = 2;
	m->tables = calloc(2, sizeof(*m->tables));
	m->tables[0] = (struct ss_cache_table){ .name = strdup("counts"),
						.type = BPF_MAP_TYPE_HASH,
						.key_size = 8,
						.leaf_size = 16,
						.max_entries = 32768,
						.flags = 1,
						.fd = -1 };
	m->tables[1] =
		(struct ss_cache_table){ .name = strdup("a_longer_table_name"),
					 .type = BPF_MAP_TYPE_PERCPU_ARRAY,
					 .key_size = 4,
					 .leaf_size = 64,
					 .max_entries = 1,
					 .fd = -1 };
	m->nfuncs = 2;
	m->funcs = calloc(2, sizeof(*m->funcs));
	m->funcs[0].name = strdup("tracepoint__sched__sched_switch");
	m->funcs[0].ninsns = sizeof(f0) / sizeof(f0[0]);
	m->funcs[0].insns = malloc(sizeof(f0));
	memcpy(m->funcs[0].insns, f0, sizeof(f0));
	m->funcs[1].name = strdup("raw_tracepoint__sched_exit_tp");
	m->funcs[1].ninsns = sizeof(f1) / sizeof(f1[0]);
	m->funcs[1].insns = malloc(sizeof(f1));
	memcpy(m->funcs[1].insns, f1, sizeof(f1));
}

static void assert_same(const struct ss_cache_mod *a,
			const struct ss_cache_mod *b)
{
	cr_assert_str_eq(a->key, b->key);
	cr_assert_eq(a->kern_version, b->kern_version);
	cr_assert_str_eq(a->license, b->license);
	cr_assert_eq(a->ntables, b->ntables);
	for (uint32_t i = 0; i < a->ntables; i++) {
		const struct ss_cache_table *x = &a->tables[i],
					    *y = &b->tables[i];

		cr_assert_str_eq(x->name, y->name);
		cr_assert_eq(x->type, y->type);
		cr_assert_eq(x->key_size, y->key_size);
		cr_assert_eq(x->leaf_size, y->leaf_size);
		cr_assert_eq(x->max_entries, y->max_entries);
		cr_assert_eq(x->flags, y->flags);
		cr_assert_eq(x->btf, y->btf);
		cr_assert_eq(y->fd, -1);
	}
	cr_assert_eq(a->nfuncs, b->nfuncs);
	for (uint32_t i = 0; i < a->nfuncs; i++) {
		cr_assert_str_eq(a->funcs[i].name, b->funcs[i].name);
		cr_assert_eq(a->funcs[i].ninsns, b->funcs[i].ninsns);
		cr_assert_arr_eq(a->funcs[i].insns, b->funcs[i].insns,
				 a->funcs[i].ninsns * sizeof(struct bpf_insn));
	}
}

Test(bpf_cache, round_trip)
{
	struct ss_cache_mod m, p;
	char why[256] = "";
	size_t len;
	uint8_t *buf;

	make_mod(&m);
	buf = ss_cache_serialize(&m, &len);
	cr_assert_not_null(buf);
	cr_assert_eq(ss_cache_parse(buf, len, &p, why, sizeof(why)), 0, "%s",
		     why);
	assert_same(&m, &p);
	ss_cache_mod_free(&p);
	ss_cache_mod_free(&m);
	free(buf);
}

/*
 * make_mod with a third table, as --blame's: task local storage of a
 * 40-byte value, marked for a key and value BTF made at create time
 */
static void make_mod_ts(struct ss_cache_mod *m)
{
	make_mod(m);
	m->tables = realloc(m->tables, 3 * sizeof(*m->tables));
	m->tables[m->ntables++] =
		(struct ss_cache_table){ .name = strdup("blame_wait"),
					 .type = BPF_MAP_TYPE_TASK_STORAGE,
					 .key_size = 4,
					 .leaf_size = 40,
					 .flags = BPF_F_NO_PREALLOC,
					 .btf = SS_CACHE_BTF_KV,
					 .fd = -1 };
}

/* where table @i's BTF mark is in @m serialized: its last u32 */
static size_t btf_mark_off(const struct ss_cache_mod *m, uint32_t i)
{
	size_t off =
		HDR_LEN + SS_CACHE_KEY_HEX + 4 + 4 + strlen(m->license) + 4;

	for (uint32_t t = 0; t <= i; t++)
		off += 4 + strlen(m->tables[t].name) + 6 * 4;
	return off - 4;
}

Test(bpf_cache, task_storage_round_trip)
{
	struct ss_cache_mod m, p;
	char why[256] = "";
	size_t len;
	uint8_t *buf;
	uint32_t v;

	make_mod_ts(&m);
	buf = ss_cache_serialize(&m, &len);
	cr_assert_not_null(buf);
	memcpy(&v, buf + btf_mark_off(&m, 2), 4);
	cr_assert_eq(v, SS_CACHE_BTF_KV,
		     "the mark is not where the test "
		     "looks");
	cr_assert_eq(ss_cache_parse(buf, len, &p, why, sizeof(why)), 0, "%s",
		     why);
	assert_same(&m, &p);
	cr_assert_eq(p.tables[2].btf, SS_CACHE_BTF_KV);
	cr_assert_eq(p.tables[0].btf, SS_CACHE_BTF_NONE);
	ss_cache_mod_free(&p);
	ss_cache_mod_free(&m);
	free(buf);
}

static int parse_why(const uint8_t *buf, size_t len, char *why, size_t n)
{
	struct ss_cache_mod p;
	int r;

	why[0] = '\0';
	r = ss_cache_parse(buf, len, &p, why, n);
	if (!r)
		ss_cache_mod_free(&p);
	return r;
}

Test(bpf_cache, every_flipped_byte_is_rejected)
{
	struct ss_cache_mod m;
	char why[256];
	size_t len;
	uint8_t *buf;

	make_mod(&m);
	buf = ss_cache_serialize(&m, &len);
	for (size_t i = 0; i < len; i++) {
		buf[i] ^= 0x20;
		cr_assert_eq(parse_why(buf, len, why, sizeof(why)), -1,
			     "byte %zu of %zu flipped: accepted", i, len);
		cr_assert_neq(why[0], '\0');
		buf[i] ^= 0x20;
	}
	/* a payload byte: the checksum catches it */
	buf[HDR_LEN + 70] ^= 1;
	parse_why(buf, len, why, sizeof(why));
	cr_assert_str_eq(why, "checksum mismatch");
	ss_cache_mod_free(&m);
	free(buf);
}

Test(bpf_cache, truncated_extended_magic_version)
{
	struct ss_cache_mod m;
	char why[256];
	size_t len;
	uint8_t *buf, *big;

	make_mod(&m);
	buf = ss_cache_serialize(&m, &len);
	for (size_t n = 0; n < len; n++)
		cr_assert_eq(parse_why(buf, n, why, sizeof(why)), -1,
			     "cut to %zu bytes: accepted", n);
	parse_why(buf, 10, why, sizeof(why));
	cr_assert(strstr(why, "truncated"), "%s", why);
	big = calloc(1, len + 1);
	memcpy(big, buf, len);
	cr_assert_eq(parse_why(big, len + 1, why, sizeof(why)), -1);
	cr_assert(strstr(why, "extended"), "%s", why);
	buf[0] = 'X';
	parse_why(buf, len, why, sizeof(why));
	cr_assert(strstr(why, "magic"), "%s", why);
	buf[0] = 'S';
	buf[8] ^= 3; /* the version, in the host's byte order */
	parse_why(buf, len, why, sizeof(why));
	cr_assert(strstr(why, "format version"), "%s", why);
	ss_cache_mod_free(&m);
	free(buf);
	free(big);
}

/* a payload that is well checksummed but does not parse */
Test(bpf_cache, malformed_payload_with_good_checksum)
{
	struct ss_cache_mod m;
	char why[256];
	size_t len;
	uint8_t *buf;
	uint32_t v = 0x7fffffff;

	make_mod(&m);
	buf = ss_cache_serialize(&m, &len);
	/* the license's length: after the key and kern_version */
	memcpy(buf + HDR_LEN + SS_CACHE_KEY_HEX + 4, &v, 4);
	ss_sha256(buf + HDR_LEN, len - HDR_LEN, buf + 24);
	cr_assert_eq(parse_why(buf, len, why, sizeof(why)), -1);
	cr_assert(strstr(why, "malformed"), "%s", why);
	ss_cache_mod_free(&m);
	free(buf);
}

/*
 * A BTF mark that is no enum ss_cache_btf, or one the sizes do not fit:
 * rejected although the checksum is right.
 */
Test(bpf_cache, damaged_btf_mark_rejected)
{
	static const struct {
		uint32_t table;
		int off; /* bytes from the table's mark */
		uint32_t v;
	} bad[] = {
		{ 2, 0, 2 }, /* an unknown mark */
		{ 2, 0, 0xffffffff },
		{ 0, 0, 7 },
		{ 0, 0, SS_CACHE_BTF_KV }, /* a key of 8 bytes */
		{ 2, -16, 8 }, /* the task storage's key: 8 bytes */
		{ 2, -12, 0 }, /* ... its value: empty */
	};
	struct ss_cache_mod m;
	char why[256];
	size_t len;
	uint8_t *buf;

	make_mod_ts(&m);
	buf = ss_cache_serialize(&m, &len);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		size_t at = btf_mark_off(&m, bad[i].table) + bad[i].off;
		uint8_t was[4];

		memcpy(was, buf + at, 4);
		memcpy(buf + at, &bad[i].v, 4);
		ss_sha256(buf + HDR_LEN, len - HDR_LEN, buf + 24);
		cr_assert_eq(parse_why(buf, len, why, sizeof(why)), -1,
			     "case %zu accepted", i);
		cr_assert(strstr(why, "BTF mark"), "case %zu: %s", i, why);
		memcpy(buf + at, was, 4);
	}
	ss_sha256(buf + HDR_LEN, len - HDR_LEN, buf + 24);
	cr_assert_eq(parse_why(buf, len, why, sizeof(why)), 0, "%s", why);
	ss_cache_mod_free(&m);
	free(buf);
}

Test(bpf_cache, serialize_refuses_over_limits)
{
	struct ss_cache_mod m;
	size_t len;

	make_mod(&m);
	m.key[3] = '\0';
	cr_assert_null(ss_cache_serialize(&m, &len));
	ss_cache_mod_free(&m);
}

Test(bpf_cache, fds_to_tables_and_back)
{
	struct bpf_insn in[] = {
		{ .code = LD_IMM64, .src_reg = BPF_PSEUDO_MAP_FD, .imm = 7 },
		{ 0 },
		/* a plain 64-bit constant whose halves look like fds */
		{ .code = LD_IMM64, .imm = 9 },
		{ .imm = 7 },
		{ .code = LD_IMM64, .src_reg = BPF_PSEUDO_MAP_FD, .imm = 9 },
		{ 0 },
		{ .code = BPF_JMP | BPF_CALL, .imm = 1 },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	int old[] = { 9, 7 }, new[] = { 100, 200 };
	char why[256];

	cr_assert_eq(ss_cache_fds_to_tables(in, 8, old, 2, why, sizeof(why)), 0,
		     "%s", why);
	cr_assert_eq(in[0].imm, 1);
	cr_assert_eq(in[2].imm, 9);
	cr_assert_eq(in[3].imm, 7);
	cr_assert_eq(in[4].imm, 0);
	cr_assert_eq(in[6].imm, 1);
	cr_assert_eq(ss_cache_tables_to_fds(in, 8, new, 2, why, sizeof(why)), 0,
		     "%s", why);
	cr_assert_eq(in[0].imm, 200);
	cr_assert_eq(in[2].imm, 9);
	cr_assert_eq(in[3].imm, 7);
	cr_assert_eq(in[4].imm, 100);
}

Test(bpf_cache, unknown_fd_and_other_pseudo_refused)
{
	struct bpf_insn in[] = {
		{ .code = LD_IMM64, .src_reg = BPF_PSEUDO_MAP_FD, .imm = 8 },
		{ 0 },
	};
	int fds[] = { 9, 7 };
	char why[256];

	cr_assert_eq(ss_cache_fds_to_tables(in, 2, fds, 2, why, sizeof(why)),
		     -1);
	cr_assert(strstr(why, "no table's"), "%s", why);
	/* an index beyond the tables, the other way */
	cr_assert_eq(ss_cache_tables_to_fds(in, 2, fds, 2, why, sizeof(why)),
		     -1);
	in[0].imm = -1;
	cr_assert_eq(ss_cache_tables_to_fds(in, 2, fds, 2, why, sizeof(why)),
		     -1);
	in[0].imm = 7;
	for (int src = 2; src <= 6; src++) {
		in[0].src_reg = src;
		cr_assert_eq(
			ss_cache_fds_to_tables(in, 2, fds, 2, why, sizeof(why)),
			-1, "src_reg %d accepted", src);
		cr_assert(strstr(why, "pseudo src_reg"), "%s", why);
		cr_assert_eq(
			ss_cache_tables_to_fds(in, 2, fds, 2, why, sizeof(why)),
			-1, "src_reg %d accepted back", src);
	}
	/* an ld_imm64 without its second half */
	in[0].src_reg = BPF_PSEUDO_MAP_FD;
	cr_assert_eq(ss_cache_fds_to_tables(in, 1, fds, 2, why, sizeof(why)),
		     -1);
	cr_assert(strstr(why, "cut off"), "%s", why);
}

Test(bpf_cache, calls_that_need_map_btf_refused)
{
	struct bpf_insn in[] = {
		{ .code = BPF_JMP | BPF_CALL, .imm = BPF_FUNC_map_lookup_elem },
		{ .code = BPF_JMP | BPF_CALL,
		  .imm = BPF_FUNC_task_storage_get },
		/* a call of a BPF function, whose imm is an offset */
		{ .code = BPF_JMP | BPF_CALL,
		  .src_reg = BPF_PSEUDO_CALL,
		  .imm = BPF_FUNC_spin_lock },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	static const int need[] = { BPF_FUNC_spin_lock, BPF_FUNC_spin_unlock,
				    BPF_FUNC_timer_init, BPF_FUNC_timer_start,
				    BPF_FUNC_kptr_xchg };
	char why[256];

	cr_assert_eq(ss_cache_check_calls(in, 4, why, sizeof(why)), 0, "%s",
		     why);
	for (size_t i = 0; i < sizeof(need) / sizeof(need[0]); i++) {
		in[1].imm = need[i];
		cr_assert_eq(ss_cache_check_calls(in, 4, why, sizeof(why)), -1,
			     "helper %d accepted", need[i]);
		cr_assert(strstr(why, "needs its map value's BTF"), "%s", why);
	}
	in[1].imm = 7;
	in[1].src_reg = BPF_PSEUDO_KFUNC_CALL;
	cr_assert_eq(ss_cache_check_calls(in, 4, why, sizeof(why)), -1);
	cr_assert(strstr(why, "kfunc"), "%s", why);
}

static const char *cf_base[] = { "-DSS_A=1", "-DSS_B=2", "-g0" };

static struct ss_cache_key_in key_base(void)
{
	return (struct ss_cache_key_in){ .text = "int x;",
					 .cflags = cf_base,
					 .ncflags = 3,
					 .libs = "lib /usr/lib/libbcc.so 1 2",
					 .headers = "headers /h",
					 .kernel = "Linux 6.18 #1",
					 .env = "ARCH unset",
					 .ncpus = 2 };
}

Test(bpf_cache, key_changes_with_every_input)
{
	static const char *cf_other[] = { "-DSS_A=1", "-DSS_B=3", "-g0" };
	static const char *cf_order[] = { "-DSS_B=2", "-DSS_A=1", "-g0" };
	static const char *cf_join[] = { "-DSS_A=1-DSS_B=2", "", "-g0" };
	struct ss_cache_key_in v[12];
	char keys[12][SS_CACHE_KEY_HEX + 1], again[SS_CACHE_KEY_HEX + 1];
	int n = 0;

	for (int i = 0; i < 12; i++)
		v[i] = key_base();
	n++; /* v[0]: the base */
	v[n++].text = "int y;";
	v[n++].cflags = cf_other;
	v[n++].cflags = cf_order;
	v[n++].cflags = cf_join;
	v[n++].ncflags = 2; /* without -g0 */
	v[n++].libs = "lib /usr/lib/libbcc.so 1 3";
	v[n++].headers = "headers /h2";
	v[n++].kernel = "Linux 6.18 #2";
	v[n++].env = "ARCH=arm64";
	v[n++].ncpus = 4;
	v[n++].env = NULL; /* unknown differs from empty */
	for (int i = 0; i < n; i++) {
		ss_cache_key(&v[i], keys[i]);
		cr_assert_eq(strlen(keys[i]), SS_CACHE_KEY_HEX);
		cr_assert_eq(strspn(keys[i], "0123456789abcdef"),
			     SS_CACHE_KEY_HEX);
		for (int j = 0; j < i; j++)
			cr_assert_str_neq(keys[i], keys[j],
					  "inputs %d and %d: one key", i, j);
	}
	ss_cache_key(&v[0], again);
	cr_assert_str_eq(keys[0], again);
}

/* two cflag lists whose bytes run together the same way (with the
 * key's field tags between them): the lengths tell them apart */
Test(bpf_cache, key_fields_do_not_run_together)
{
	static const char *a[] = { "-DX=1", "C-DY=2" };
	static const char *b[] = { "-DX=1C", "-DY=2" };
	struct ss_cache_key_in x = key_base(), y = key_base();
	char kx[SS_CACHE_KEY_HEX + 1], ky[SS_CACHE_KEY_HEX + 1];

	x.cflags = a;
	y.cflags = b;
	x.ncflags = y.ncflags = 2;
	ss_cache_key(&x, kx);
	ss_cache_key(&y, ky);
	cr_assert_str_neq(kx, ky);
}

Test(bpf_cache, tracepoints_of_the_text)
{
	const char *text = "/* through TRACEPOINT_PROBE; the slice */\n"
			   "RAW_TRACEPOINT_PROBE(sched_switch)\n{}\n"
			   "TRACEPOINT_PROBE(sched, sched_switch)\n{}\n"
			   "TRACEPOINT_PROBE( kmem ,mm_page_alloc )\n{}\n";
	char out[256] = "";

	cr_assert_eq(ss_cache_tracepoints(text, out, sizeof(out)), 2);
	cr_assert_str_eq(out, "sched/sched_switch\nkmem/mm_page_alloc\n");
}

/* ---- the directory and files, in a temporary directory ------------------ */

static char tmp[64];

static void mktmp(void)
{
	snprintf(tmp, sizeof(tmp), "/tmp/ss-bpfcache.XXXXXX");
	cr_assert_not_null(mkdtemp(tmp));
}

static void rmtmp(void)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf %s", tmp);
	cr_assert_eq(system(cmd), 0);
}

Test(bpf_cache, dir_checks, .init = mktmp, .fini = rmtmp)
{
	char p[256], why[512];
	struct stat st;
	int fd;

	fd = ss_cache_dir_open(tmp, why, sizeof(why));
	cr_assert_geq(fd, 0, "%s", why);
	close(fd);
	/* created as far as missing, 0700 */
	snprintf(p, sizeof(p), "%s/a/b/c", tmp);
	fd = ss_cache_dir_open(p, why, sizeof(why));
	cr_assert_geq(fd, 0, "%s", why);
	close(fd);
	cr_assert_eq(stat(p, &st), 0);
	cr_assert_eq(st.st_mode & 0777, 0700);
	snprintf(p, sizeof(p), "%s/a", tmp);
	cr_assert_eq(stat(p, &st), 0);
	cr_assert_eq(st.st_mode & 0777, 0700);
	/* group writable: refused */
	chmod(tmp, 0770);
	cr_assert_eq(ss_cache_dir_open(tmp, why, sizeof(why)), -1);
	cr_assert(strstr(why, "group/other writable"), "%s", why);
	/* ... also as a directory above the cache */
	snprintf(p, sizeof(p), "%s/a", tmp);
	cr_assert_eq(ss_cache_dir_open(p, why, sizeof(why)), -1);
	chmod(tmp, 0700);
	/* a symlink, as the dir or in its path */
	snprintf(p, sizeof(p), "%s/link", tmp);
	cr_assert_eq(symlink("a", p), 0);
	cr_assert_eq(ss_cache_dir_open(p, why, sizeof(why)), -1);
	cr_assert(strstr(why, "symlink"), "%s", why);
	snprintf(p, sizeof(p), "%s/link/b", tmp);
	cr_assert_eq(ss_cache_dir_open(p, why, sizeof(why)), -1);
	cr_assert_eq(ss_cache_dir_open("relative/dir", why, sizeof(why)), -1);
	snprintf(p, sizeof(p), "%s/a/../a", tmp);
	cr_assert_eq(ss_cache_dir_open(p, why, sizeof(why)), -1);
}

Test(bpf_cache, write_read_prune, .init = mktmp, .fini = rmtmp)
{
	struct ss_cache_mod m, r;
	char why[512], p[256], other[SS_CACHE_KEY_HEX + 1];
	int dir = ss_cache_dir_open(tmp, why, sizeof(why));
	struct stat st;

	cr_assert_geq(dir, 0, "%s", why);
	make_mod(&m);
	cr_assert_eq(ss_cache_read(dir, m.key, &r, why, sizeof(why)), 0);
	cr_assert_eq(ss_cache_write(dir, &m, 3, why, sizeof(why)), 0, "%s",
		     why);
	snprintf(p, sizeof(p), "%s/%s", tmp, m.key);
	cr_assert_eq(stat(p, &st), 0);
	cr_assert_eq(st.st_mode & 0777, 0600);
	cr_assert_eq(ss_cache_read(dir, m.key, &r, why, sizeof(why)), 1, "%s",
		     why);
	assert_same(&m, &r);
	ss_cache_mod_free(&r);

	/* a file under another key's name: refused */
	memset(other, 'b', SS_CACHE_KEY_HEX);
	other[SS_CACHE_KEY_HEX] = '\0';
	cr_assert_eq(renameat(dir, m.key, dir, other), 0);
	cr_assert_eq(ss_cache_read(dir, other, &r, why, sizeof(why)), -1);
	cr_assert(strstr(why, "holds key"), "%s", why);
	/* group writable: refused */
	cr_assert_eq(renameat(dir, other, dir, m.key), 0);
	chmod(p, 0620);
	cr_assert_eq(ss_cache_read(dir, m.key, &r, why, sizeof(why)), -1);
	chmod(p, 0600);

	/* four more, each newer: the oldest two go (keep 3) */
	for (int i = 0; i < 4; i++) {
		struct timespec ts[2] = { { .tv_sec = 1000 + i },
					  { .tv_sec = 1000 + i } };

		utimensat(dir, m.key, ts, 0);
		memset(m.key, "cdef"[i], SS_CACHE_KEY_HEX);
		cr_assert_eq(ss_cache_write(dir, &m, 3, why, sizeof(why)), 0,
			     "%s", why);
	}
	memset(other, 'a', SS_CACHE_KEY_HEX);
	cr_assert_eq(faccessat(dir, other, F_OK, 0), -1, "oldest kept");
	memset(other, 'c', SS_CACHE_KEY_HEX);
	cr_assert_eq(faccessat(dir, other, F_OK, 0), -1, "second oldest kept");
	for (int i = 1; i < 4; i++) {
		memset(other, "cdef"[i], SS_CACHE_KEY_HEX);
		cr_assert_eq(faccessat(dir, other, F_OK, 0), 0, "%s gone",
			     other);
	}
	ss_cache_mod_free(&m);
	close(dir);
}
