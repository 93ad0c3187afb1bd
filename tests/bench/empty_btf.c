// SPDX-License-Identifier: GPL-2.0
/*
 * empty_btf - floors for scripts/bench-overhead.sh: the least a BTF raw
 * tracepoint (tp_btf) program on sched_switch costs, the path switchstat's
 * default mode uses, and the least a perf counter read at every switch
 * costs.  The programs are a few instructions written out here, loaded with
 * libbpf (bpf_prog_load, attach_btf_id from the running kernel's BTF) and
 * attached with bpf_raw_tracepoint_open:
 *
 *   empty_btf          r0 = 0; exit
 *   empty_btf --read   bpf_perf_event_read_value(&ctrs, BPF_F_CURRENT_CPU,
 *                      &buf, 24) into the stack; r0 = 0; exit
 *                      (ctrs: a perf event array holding a cpu-clock
 *                      counter per CPU, the kernel's own read cost)
 *   empty_btf --ktime  bpf_ktime_get_ns() into the stack; r0 = 0; exit
 *                      (what the sched_switch window's clock read costs)
 *   empty_btf --kclock prev->se.sum_exec_runtime and
 *                      next->se.sum_exec_runtime, two plain loads through
 *                      the typed arguments at their BTF offset, into the
 *                      stack; r0 = 0; exit (what the kernel's own per-task
 *                      clock would cost instead: issue 22's alternative)
 *
 * A second argument --copies N (N <= 64; as the first argument, with the
 * empty program) loads and attaches N copies of the program: each is a
 * probe of its own on the tracepoint, so the cost a switch adds grows by
 * one dispatch (the kernel's call into a BPF program: bpf_trace_run4,
 * RCU, migrate_disable) and one body per copy; the slope over N is one
 * program's dispatch, measured well above the pipe benchmark's noise.
 *
 * Prints "Tracing... Hit Ctrl-C to end." once attached and waits for
 * SIGINT or SIGTERM.  Exit 1 on any failure, with the reason.
 */
#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <errno.h>
#include <linux/bpf.h>
#include <linux/perf_event.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#define MAX_CPUS 1024

static volatile sig_atomic_t done;

static void on_signal(int sig)
{
	(void)sig;
	done = 1;
}

/*
 * The byte offset of task_struct.se.sum_exec_runtime in @btf, or -1.
 */
static int sum_exec_offset(const struct btf *btf)
{
	const char *path[] = { "task_struct", "se", "sum_exec_runtime" };
	int id = btf__find_by_name_kind(btf, path[0], BTF_KIND_STRUCT);
	int off = 0;

	for (int lvl = 1; lvl < 3; lvl++) {
		const struct btf_type *t =
			id > 0 ? btf__type_by_id(btf, id) : NULL;
		const struct btf_member *m;
		int i, found = 0;

		if (!t || !btf_is_struct(t))
			return -1;
		m = btf_members(t);
		for (i = 0; i < btf_vlen(t); i++, m++) {
			if (strcmp(btf__name_by_offset(btf, m->name_off),
				   path[lvl]))
				continue;
			off += (int)(btf_member_bit_offset(t, (__u32)i) / 8);
			id = (int)m->type;
			found = 1;
			break;
		}
		if (!found)
			return -1;
	}
	return off;
}

static int die(const char *what)
{
	fprintf(stderr, "empty_btf: %s: %s\n", what, strerror(errno));
	return 1;
}

/* the instructions, as the kernel's filter.h macros would write them */
#define INSN(c, d, s, o, i)                 \
	((struct bpf_insn){ .code = (c),    \
			    .dst_reg = (d), \
			    .src_reg = (s), \
			    .off = (o),     \
			    .imm = (i) })

int main(int argc, char **argv)
{
	struct sigaction sa = { .sa_handler = on_signal };
	struct bpf_insn prog[16];
	int n = 0, map = -1, fd[64], link[64], id, copies = 1;
	const char *mode = argc > 1 ? argv[1] : "";
	bool read = !strcmp(mode, "--read");
	bool ktime = !strcmp(mode, "--ktime");
	bool kclock = !strcmp(mode, "--kclock");
	const char *name = read	    ? "read_ctr_switch"
			   : ktime  ? "ktime_switch"
			   : kclock ? "kclock_switch"
				    : "empty_switch";
	struct btf *vmlinux;
	LIBBPF_OPTS(bpf_prog_load_opts, opts);

	for (int a = 1; a + 1 < argc; a++)
		if (!strcmp(argv[a], "--copies"))
			copies = atoi(argv[a + 1]);
	if (!strcmp(mode, "--copies"))
		mode = "";
	if (copies < 1 || copies > 64) {
		fprintf(stderr, "empty_btf: --copies wants 1 to 64\n");
		return 1;
	}
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	vmlinux = btf__load_vmlinux_btf();
	if (!vmlinux)
		return die("no kernel BTF");
	id = btf__find_by_name_kind(vmlinux, "btf_trace_sched_switch",
				    BTF_KIND_TYPEDEF);
	if (id < 0)
		return die("no btf_trace_sched_switch in the kernel's BTF");
	if (read) {
		int ncpus = (int)sysconf(_SC_NPROCESSORS_CONF);
		struct perf_event_attr attr = {
			.size = sizeof(attr),
			.type = PERF_TYPE_SOFTWARE,
			.config = PERF_COUNT_SW_CPU_CLOCK,
			.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED |
				       PERF_FORMAT_TOTAL_TIME_RUNNING,
		};

		map = bpf_map_create(BPF_MAP_TYPE_PERF_EVENT_ARRAY, "ctrs", 4,
				     4, ncpus, NULL);
		if (map < 0)
			return die("perf event array");
		for (int cpu = 0; cpu < ncpus && cpu < MAX_CPUS; cpu++) {
			int pfd = syscall(SYS_perf_event_open, &attr, -1, cpu,
					  -1, 0);

			if (pfd >= 0 &&
			    bpf_map_update_elem(map, &cpu, &pfd, BPF_ANY))
				return die("perf event array update");
		}
		/* r1 = map (ld_imm64, pseudo map fd) */
		prog[n++] = INSN(BPF_LD | BPF_DW | BPF_IMM, BPF_REG_1,
				 BPF_PSEUDO_MAP_FD, 0, map);
		prog[n++] = INSN(0, 0, 0, 0, 0);
		/* r2 = BPF_F_CURRENT_CPU (0xffffffff, zero-extended) */
		prog[n++] =
			INSN(BPF_ALU | BPF_MOV | BPF_K, BPF_REG_2, 0, 0, -1);
		/* r3 = r10 - 24: a struct bpf_perf_event_value on the stack */
		prog[n++] = INSN(BPF_ALU64 | BPF_MOV | BPF_X, BPF_REG_3,
				 BPF_REG_10, 0, 0);
		prog[n++] =
			INSN(BPF_ALU64 | BPF_ADD | BPF_K, BPF_REG_3, 0, 0, -24);
		/* r4 = 24 */
		prog[n++] =
			INSN(BPF_ALU64 | BPF_MOV | BPF_K, BPF_REG_4, 0, 0, 24);
		prog[n++] = INSN(BPF_JMP | BPF_CALL, 0, 0, 0,
				 BPF_FUNC_perf_event_read_value);
	}
	if (ktime) {
		prog[n++] = INSN(BPF_JMP | BPF_CALL, 0, 0, 0,
				 BPF_FUNC_ktime_get_ns);
		/* *(u64 *)(r10 - 8) = r0 */
		prog[n++] = INSN(BPF_STX | BPF_MEM | BPF_DW, BPF_REG_10,
				 BPF_REG_0, -8, 0);
	}
	if (kclock) {
		int off = sum_exec_offset(vmlinux);

		if (off < 0 || off > 32767) {
			errno = ENOENT;
			return die("task_struct.se.sum_exec_runtime in BTF");
		}
		/* r2 = args[1] (prev), r3 = args[2] (next) */
		prog[n++] = INSN(BPF_LDX | BPF_MEM | BPF_DW, BPF_REG_2,
				 BPF_REG_1, 8, 0);
		prog[n++] = INSN(BPF_LDX | BPF_MEM | BPF_DW, BPF_REG_3,
				 BPF_REG_1, 16, 0);
		/* r4 = prev->se.sum_exec_runtime, r5 = next's */
		prog[n++] = INSN(BPF_LDX | BPF_MEM | BPF_DW, BPF_REG_4,
				 BPF_REG_2, (short)off, 0);
		prog[n++] = INSN(BPF_LDX | BPF_MEM | BPF_DW, BPF_REG_5,
				 BPF_REG_3, (short)off, 0);
		prog[n++] = INSN(BPF_STX | BPF_MEM | BPF_DW, BPF_REG_10,
				 BPF_REG_4, -8, 0);
		prog[n++] = INSN(BPF_STX | BPF_MEM | BPF_DW, BPF_REG_10,
				 BPF_REG_5, -16, 0);
	}
	prog[n++] = INSN(BPF_ALU64 | BPF_MOV | BPF_K, BPF_REG_0, 0, 0, 0);
	prog[n++] = INSN(BPF_JMP | BPF_EXIT, 0, 0, 0, 0);

	opts.expected_attach_type = BPF_TRACE_RAW_TP;
	opts.attach_btf_id = (__u32)id;
	for (int c = 0; c < copies; c++) {
		fd[c] = bpf_prog_load(BPF_PROG_TYPE_TRACING, name, "GPL", prog,
				      (size_t)n, &opts);
		if (fd[c] < 0)
			return die("load");
		link[c] = bpf_raw_tracepoint_open(NULL, fd[c]);
		if (link[c] < 0)
			return die("attach");
	}
	printf("Tracing... Hit Ctrl-C to end.\n");
	fflush(stdout);
	while (!done)
		pause();
	for (int c = 0; c < copies; c++) {
		close(link[c]);
		close(fd[c]);
	}
	if (map >= 0)
		close(map);
	btf__free(vmlinux);
	return 0;
}
