// SPDX-License-Identifier: GPL-2.0
/*
 * empty_bcc - the reference point for start-up time and memory: the least a
 * libbcc program does to trace sched_switch.  It compiles an empty
 * sched_switch tracepoint program from a string, loads and attaches it,
 * prints "Tracing... Hit Ctrl-C to end." and waits for SIGINT or SIGTERM.
 * It keeps the module, as bcc's own tools do.  Exit 1 on any failure.
 */
#include <linux/bpf.h>
#include <signal.h>
#include <stdio.h>
#include <unistd.h>

#include <bcc/bcc_common.h>
#include <bcc/libbpf.h>

static const char text[] = "TRACEPOINT_PROBE(sched, sched_switch)\n"
			   "{\n"
			   "	return 0;\n"
			   "}\n";

static volatile sig_atomic_t done;

static void on_signal(int sig)
{
	(void)sig;
	done = 1;
}

int main(void)
{
	const char *fn = "tracepoint__sched__sched_switch";
	struct sigaction sa = { .sa_handler = on_signal };
	void *mod, *start;
	int fd, pfd;

	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	mod = bpf_module_create_c_from_string(text, 0, NULL, 0, true, NULL);
	if (!mod)
		return 1;
	start = bpf_function_start(mod, fn);
	if (!start)
		return 1;
	fd = bcc_func_load(mod, BPF_PROG_TYPE_TRACEPOINT, fn, start,
			   bpf_function_size(mod, fn), bpf_module_license(mod),
			   bpf_module_kern_version(mod), 0, NULL, 0, NULL, -1);
	if (fd < 0)
		return 1;
	pfd = bpf_attach_tracepoint(fd, "sched", "sched_switch");
	if (pfd < 0)
		return 1;
	printf("Tracing... Hit Ctrl-C to end.\n");
	fflush(stdout);
	while (!done)
		pause();
	bpf_close_perf_event_fd(pfd);
	close(fd);
	bpf_module_destroy(mod);
	return 0;
}
