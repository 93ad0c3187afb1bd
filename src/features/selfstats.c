// SPDX-License-Identifier: GPL-2.0
/*
 * selfstats.c - --self-stats: the tool's own cost, from the kernel's BPF
 * run-time statistics (run_time_ns and run_cnt of each program, collected
 * while kernel.bpf_stats_enabled is on; see Documentation/bpf and
 * bpftool prog show), plus the process's own CPU time (getrusage).
 *
 * Stats are turned on twice over: the sysctl is set to 1 (its old value is
 * restored at exit, also after Ctrl-C or a failure) and a
 * BPF_ENABLE_STATS fd is held, which the kernel counts per holder, so our
 * programs keep being measured if another tool resets the sysctl meanwhile,
 * and nothing stays on if we are killed (only the sysctl would remain 1).
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <linux/bpf.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <bcc/libbpf.h>

#include "selfstats.h"

#define STATS_SYSCTL "/proc/sys/kernel/bpf_stats_enabled"

struct selfstats_state {
	bool restore; /* the sysctl was 0: write it back at exit */
	int stats_fd; /* BPF_ENABLE_STATS; 0: not held */
};

static int read_sysctl(void)
{
	char buf[16] = "";
	int fd = open(STATS_SYSCTL, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	return n > 0 ? atoi(buf) : -1;
}

static int write_sysctl(int v)
{
	char buf[16];
	int fd = open(STATS_SYSCTL, O_WRONLY | O_CLOEXEC), len, ok;

	if (fd < 0)
		return -1;
	len = snprintf(buf, sizeof(buf), "%d\n", v);
	ok = write(fd, buf, len) == len;
	close(fd);
	return ok ? 0 : -1;
}

/* Turn the stats on (root): 0 or 1. */
static int selfstats_configure(struct ss_app *app, void *st)
{
	struct selfstats_state *ss = st;
	union bpf_attr attr;
	int old, fd, err = 0;

	if (!app->o.self_stats)
		return 0;
	memset(&attr, 0, sizeof(attr));
	attr.enable_stats.type = BPF_STATS_RUN_TIME;
	fd = syscall(SYS_bpf, BPF_ENABLE_STATS, &attr, sizeof(attr));
	if (fd < 0)
		err = errno;
	else
		ss->stats_fd = fd;

	old = read_sysctl();
	if (old == 0 && write_sysctl(1) == 0) {
		ss->restore = true;
	} else if (old != 1 && fd < 0) {
		ss_diag("--self-stats: cannot enable BPF run-time "
			"stats (BPF_ENABLE_STATS: %s; %s not writable; "
			"needs CAP_SYS_ADMIN)",
			strerror(err), STATS_SYSCTL);
		return 1;
	}
	if (app->o.verbose)
		ss_diag("bpf_stats on (was %d, restored at exit)", old);
	return 0;
}

/* The cost table: one record per BPF program. */
static const struct ss_field prog_fields[] = {
	{ .key = "program", .head = "PROGRAM", .width = -34 },
	{ .key = "runs", .head = "RUNS", .unit = "count", .width = 12 },
	{ .key = "ns_per_run",
	  .head = "NS/RUN",
	  .unit = "ns",
	  .width = 10,
	  .table_decimals = 1,
	  .decimals = 1 },
	{ .key = "total_ms",
	  .head = "TOTAL(ms)",
	  .unit = "ms",
	  .width = 12,
	  .table_decimals = 3,
	  .decimals = 3 },
};

/*
 * At the end of a run that went well: each program's cost, as a table on
 * the report (stderr when the report is CSV or JSON).
 */
static void selfstats_report(struct ss_app *app, void *st)
{
	struct ss_emit e;
	struct rusage ru;
	FILE *f;

	if (!app->o.self_stats)
		return;
	ss_emit_init(&e, app->f, app->fmt);
	f = ss_emit_aside(&e);
	ss_emit_init(&e, f, SS_FMT_TABLE);
	fprintf(f, "self-stats: cost of the BPF programs (bpf_stats)\n");
	ss_emit_begin_header(&e);
	for (size_t i = 0; i < sizeof(prog_fields) / sizeof(prog_fields[0]);
	     i++)
		ss_emit_head(&e, &prog_fields[i]);
	ss_emit_end(&e);
	for (int i = 0; i < app->bpf.nprogs; i++) {
		struct bpf_prog_info info;
		uint32_t len = sizeof(info);

		memset(&info, 0, sizeof(info));
		if (bpf_obj_get_info(app->bpf.prog_fd[i], &info, &len)) {
			fprintf(f, "%-34s cannot read info: %s\n",
				app->bpf.prog_name[i], strerror(errno));
			continue;
		}
		ss_emit_begin(&e, "bpf_prog");
		ss_emit_str(&e, &prog_fields[0], app->bpf.prog_name[i],
			    SIZE_MAX);
		ss_emit_u64(&e, &prog_fields[1], info.run_cnt);
		ss_emit_double(&e, &prog_fields[2],
			       info.run_cnt
				       ? (double)info.run_time_ns / info.run_cnt
				       : 0.0);
		ss_emit_double(&e, &prog_fields[3], info.run_time_ns / 1e6);
		ss_emit_end(&e);
		if (info.recursion_misses)
			fprintf(f,
				"%-34s %12" PRIu64 " runs missed (recursion)\n",
				"", (uint64_t)info.recursion_misses);
	}
	if (getrusage(RUSAGE_SELF, &ru) == 0)
		fprintf(f,
			"self-stats: switchstat process CPU: user %.1f ms, "
			"system %.1f ms (start-up included: the probes "
			"compiled or loaded from the cache)\n",
			ru.ru_utime.tv_sec * 1e3 + ru.ru_utime.tv_usec / 1e3,
			ru.ru_stime.tv_sec * 1e3 + ru.ru_stime.tv_usec / 1e3);
	fflush(f);
}

static void selfstats_close(struct ss_app *app, void *st)
{
	struct selfstats_state *ss = st;

	if (ss->restore)
		write_sysctl(0);
	ss->restore = false;
	if (ss->stats_fd > 0)
		close(ss->stats_fd);
	ss->stats_fd = 0;
}

const struct ss_feature ss_feat_selfstats = {
	.name = "selfstats",
	.state_size = sizeof(struct selfstats_state),
	.configure = selfstats_configure,
	.finish = selfstats_report,
	.close = selfstats_close,
};
