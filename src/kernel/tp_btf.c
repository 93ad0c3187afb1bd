// SPDX-License-Identifier: GPL-2.0
/*
 * tp_btf.c - BTF raw tracepoint programs through libbpf (see tp_btf.h).
 */
#include "tp_btf.h"
#include "vmlinux_btf.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>

/*
 * The BTF id of raw tracepoint @tp (the typedef btf_trace_<tp>, where
 * libbpf_find_vmlinux_btf_id looks, without its own parse of the kernel's
 * BTF), kept for the last @tp asked: ss_tp_btf_available finds it while
 * the shared BTF is loaded, ss_tp_btf_load after it is released.  <= 0:
 * none.
 */
static int tp_btf_id(const char *tp)
{
	static char last_tp[64];
	static int last_id;
	const struct btf *btf;
	char name[96];

	if (last_id > 0 && !strcmp(last_tp, tp))
		return last_id;
	btf = ss_vmlinux_btf();
	if (!btf)
		return -1;
	snprintf(name, sizeof(name), "btf_trace_%s", tp);
	last_id = btf__find_by_name_kind(btf, name, BTF_KIND_TYPEDEF);
	snprintf(last_tp, sizeof(last_tp), "%s", tp);
	return last_id;
}

/* ss_tp_btf_available - see tp_btf.h */
bool ss_tp_btf_available(const char *tp)
{
	return tp_btf_id(tp) > 0;
}

/* ss_tp_btf_load - see tp_btf.h */
int ss_tp_btf_load(const void *insns, size_t len, const char *name,
		   const char *license, const char *tp, char *log, size_t logsz,
		   bool stats)
{
	int id = tp_btf_id(tp);
	LIBBPF_OPTS(bpf_prog_load_opts, opts,
		    .expected_attach_type = BPF_TRACE_RAW_TP,
		    .attach_btf_id = id > 0 ? id : 0);
	char short_name[16];
	int fd;

	if (id <= 0) {
		errno = ENOENT;
		return -1;
	}
	/* the kernel keeps 15 characters of a program's name */
	snprintf(short_name, sizeof(short_name), "%s", name);
	if (stats && log && logsz) { /* BPF_LOG_STATS */
		opts.log_buf = log;
		opts.log_size = logsz;
		opts.log_level = 4;
		log[0] = '\0';
	}
	fd = bpf_prog_load(BPF_PROG_TYPE_TRACING, short_name, license, insns,
			   len / sizeof(struct bpf_insn), &opts);
	if (fd >= 0 || !log || !logsz)
		return fd;
	/* again with the verifier's log, for the error message */
	opts.log_buf = log;
	opts.log_size = logsz;
	opts.log_level = 1;
	log[0] = '\0';
	return bpf_prog_load(BPF_PROG_TYPE_TRACING, short_name, license, insns,
			     len / sizeof(struct bpf_insn), &opts);
}

/* ss_tp_btf_attach - see tp_btf.h */
int ss_tp_btf_attach(int fd)
{
	return bpf_raw_tracepoint_open(NULL, fd);
}

/*
 * A task storage map of one __u64 per task: its BTF (an int key, a u64
 * value) loaded first, as the kernel wants for local storage maps.  The
 * map fd, or -1.
 */
static int task_storage_map(void)
{
	LIBBPF_OPTS(bpf_map_create_opts, mo, .map_flags = BPF_F_NO_PREALLOC);
	struct btf *btf = btf__new_empty();
	int key, val, btf_fd = -1, fd = -1;

	if (!btf)
		return -1;
	key = btf__add_int(btf, "int", 4, BTF_INT_SIGNED);
	val = btf__add_int(btf, "long long unsigned int", 8, 0);
	if (key > 0 && val > 0 && !btf__load_into_kernel(btf))
		btf_fd = btf__fd(btf);
	if (btf_fd >= 0) {
		mo.btf_fd = btf_fd;
		mo.btf_key_type_id = key;
		mo.btf_value_type_id = val;
		fd = bpf_map_create(BPF_MAP_TYPE_TASK_STORAGE, "ss_probe_ts", 4,
				    8, 0, &mo);
	}
	btf__free(btf); /* the map holds its own reference to the BTF */
	return fd;
}

/* ss_tp_btf_task_storage - see tp_btf.h */
bool ss_tp_btf_task_storage(const char *tp)
{
	int map = task_storage_map(), fd = -1;

	if (map >= 0) {
		/* r2 = ctx->args[0]; bpf_task_storage_get(map, r2, 0, create) */
		struct bpf_insn insns[] = {
			{ .code = BPF_LDX | BPF_MEM | BPF_DW,
			  .dst_reg = BPF_REG_2,
			  .src_reg = BPF_REG_1 },
			{ .code = BPF_LD | BPF_DW | BPF_IMM,
			  .dst_reg = BPF_REG_1,
			  .src_reg = BPF_PSEUDO_MAP_FD,
			  .imm = map },
			{ 0 },
			{ .code = BPF_ALU64 | BPF_MOV | BPF_K,
			  .dst_reg = BPF_REG_3 },
			{ .code = BPF_ALU64 | BPF_MOV | BPF_K,
			  .dst_reg = BPF_REG_4,
			  .imm = BPF_LOCAL_STORAGE_GET_F_CREATE },
			{ .code = BPF_JMP | BPF_CALL,
			  .imm = BPF_FUNC_task_storage_get },
			{ .code = BPF_ALU64 | BPF_MOV | BPF_K,
			  .dst_reg = BPF_REG_0 },
			{ .code = BPF_JMP | BPF_EXIT },
		};

		fd = ss_tp_btf_load(insns, sizeof(insns), "ss_probe_ts", "GPL",
				    tp, NULL, 0, false);
	}
	if (fd >= 0)
		close(fd);
	if (map >= 0)
		close(map);
	return fd >= 0;
}
