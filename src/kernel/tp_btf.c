// SPDX-License-Identifier: GPL-2.0
/*
 * tp_btf.c - BTF raw tracepoint programs through libbpf (see tp_btf.h).
 */
#include "tp_btf.h"
#include "vmlinux_btf.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

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
		   const char *license, const char *tp, char *log, size_t logsz)
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
