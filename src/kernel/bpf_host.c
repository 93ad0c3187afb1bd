// SPDX-License-Identifier: GPL-2.0
/*
 * bpf_host.c - compile, load and attach with libbcc's C API (bcc 0.26:
 * bpf_module_create_c_from_string, bcc_func_load, bpf_attach_tracepoint),
 * the same calls bcc's own C++ BPF class makes (src/cc/api/BPF.cc).  A
 * module from the compiled-BPF cache (bpf_cache.h) is loaded with
 * bcc_prog_load, what bcc_func_load calls without a module's BTF (the
 * cache keeps none: a -g0 module has none, and a keep_btf one's programs
 * load without their func and line info).
 */
#include "bpf_host.h"
#include "bpf_cache.h"
#include "lib_pages.h"
#include "privs.h"
#include "tp_btf.h"
#include "tracefs.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/bpf.h>
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include <bcc/bcc_common.h>
#include <bcc/libbpf.h>
#include <bpf/libbpf.h>

#define LOG_SIZE (1 << 22)

/* the libraries only the compile runs: clang, LLVM, libbcc's front end */
static const char *const compiler_libs[] = { "libLLVM", "libclang", "libbcc" };

static long drop_compiler_pages(void)
{
	return ss_drop_lib_pages("/proc/self/smaps", compiler_libs,
				 sizeof(compiler_libs) /
					 sizeof(compiler_libs[0]));
}

static unsigned long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

/* the plan's mode (struct ss_bpf_mode); without one, regular and -g0 */
static bool raw_sched(const struct ss_bpf *b)
{
	return b->mode && b->mode->raw_sched;
}

static bool tp_btf(const struct ss_bpf *b)
{
	return b->mode && b->mode->tp_btf;
}

static bool is_dir(const char *p)
{
	struct stat st;

	return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

/*
 * A kernel headers tree that libbcc can compile against has a Makefile and
 * an include/ directory in @dir (Debian's split layout keeps the rest in
 * source/), and include/linux/kconfig.h in @src, the tree libbcc takes
 * the kernel's own headers from (/lib/modules/R/source where that exists,
 * else the same as @dir; BCC_KERNEL_SOURCE is both): without it libbcc
 * 0.26 crashes in its front end after clang's "kconfig.h not found".
 */
static int headers_complete(const char *dir, const char *src, char *err,
			    size_t errlen)
{
	char p[PATH_MAX];
	struct utsname u;

	uname(&u);
	snprintf(p, sizeof(p), "%s/include", dir);
	if (is_dir(p)) {
		snprintf(p, sizeof(p), "%s/Makefile", dir);
		if (access(p, R_OK) == 0) {
			snprintf(p, sizeof(p), "%s/include/linux/kconfig.h",
				 src);
			if (access(p, R_OK) == 0)
				return 0;
			snprintf(err, errlen,
				 "kernel headers at %s have no "
				 "include/linux/kconfig.h (half of a split "
				 "headers package, as Debian's "
				 "linux-headers-*-amd64 without its -common "
				 "part?): unset BCC_KERNEL_SOURCE to use "
				 "/lib/modules/%s/build and source, or point "
				 "it at a whole tree",
				 src, u.release);
			return -1;
		}
	}
	snprintf(err, errlen,
		 "kernel headers at %s are incomplete (no Makefile or "
		 "include/): "
		 "reinstall linux-headers-%s, or run scripts/setup.sh",
		 dir, u.release);
	return -1;
}

/* ss_bpf_check_env - see bpf_host.h */
int ss_bpf_check_env(struct ss_bpf *b, char *err, size_t errlen)
{
	const char *env = getenv("BCC_KERNEL_SOURCE");
	struct utsname u;
	char p[PATH_MAX];

	snprintf(p, sizeof(p), "%s/events/sched/sched_switch/format",
		 ss_tracefs());
	if (ss_check_privs(p, err, errlen))
		return -1;
	if (!ss_tracepoint_exists("sched", "sched_switch")) {
		snprintf(err, errlen,
			 "tracefs not found at " SS_TRACEFS_DEBUGFS
			 " or " SS_TRACEFS_OWN
			 ": mount -t tracefs tracefs " SS_TRACEFS_OWN
			 " (in a container: mount the host's "
			 "/sys/kernel/tracing, or run scripts/setup.sh)");
		return -1;
	}
	uname(&u);
	if (env && *env) {
		if (!is_dir(env)) {
			snprintf(err, errlen,
				 "kernel headers not found: "
				 "BCC_KERNEL_SOURCE=%s "
				 "is not a directory",
				 env);
			return -1;
		}
		snprintf(b->headers, sizeof(b->headers), "%s", env);
		return headers_complete(b->headers, b->headers, err, errlen);
	}
	snprintf(p, sizeof(p), "/lib/modules/%s/build", u.release);
	if (is_dir(p)) {
		char real[PATH_MAX], src[PATH_MAX];

		if (realpath(p, real))
			snprintf(b->headers, sizeof(b->headers), "%s", real);
		else
			snprintf(b->headers, sizeof(b->headers), "%s", p);
		snprintf(src, sizeof(src), "/lib/modules/%s/source", u.release);
		return headers_complete(b->headers,
					is_dir(src) ? src : b->headers, err,
					errlen);
	}
	if (access("/sys/kernel/kheaders.tar.xz", R_OK) == 0) {
		snprintf(b->headers, sizeof(b->headers),
			 "/sys/kernel/kheaders.tar.xz");
		return 0;
	}
	snprintf(err, errlen,
		 "kernel headers not found for %s (looked in "
		 "/lib/modules/%s/build "
		 "and /sys/kernel/kheaders.tar.xz): install linux-headers-%s, "
		 "or run scripts/setup.sh to use the distribution's headers",
		 u.release, u.release, u.release);
	return -1;
}

/* set while ss_bpf_compile runs libbcc's compiler */
static bool compiling;

/*
 * 1 if the kernel has helper @fn (libbpf's probe: one tiny program load),
 * 0 if not, -1 if that cannot be told; kept per helper.
 */
static int have_helper(enum bpf_func_id fn, int *known)
{
	if (*known == 0) {
		int r = libbpf_probe_bpf_helper(BPF_PROG_TYPE_TRACEPOINT, fn,
						NULL);

		*known = r == 1 ? 1 : r == 0 ? 2 : 3;
	}
	return *known == 1 ? 1 : *known == 2 ? 0 : -1;
}

/*
 * libbcc's front end asks whether the kernel has bpf_probe_read_kernel
 * and bpf_probe_read_user by looking those names up in a kernel symbol
 * cache (b_frontend_action.cc: check_bpf_probe_read_kernel and _user),
 * which reads and indexes all of /proc/kallsyms for it: about 100 ms of
 * CPU per start-up on Linux 6.18 (measured: 193 against 94 ms for an
 * empty program's compile).  This definition takes the place of libbcc's
 * (an executable's symbol comes first, also for libbcc's own calls through
 * its PLT).  While ss_bpf_compile runs, it answers those two names from
 * whether the kernel has the helper, which is what the symbol stands for
 * there (bcc uses only found or not); every other lookup, and any it
 * cannot tell, goes to libbcc's.  Returns 0 (found, *addr 0) or -1, as
 * libbcc's.
 */
int bcc_symcache_resolve_name(void *resolver, const char *module,
			      const char *name, uint64_t *addr)
{
	static int (*real)(void *, const char *, const char *, uint64_t *);
	static int kernel_known, user_known;
	int have = -1;

	if (compiling && !module && name) {
		if (!strcmp(name, "bpf_probe_read_kernel"))
			have = have_helper(BPF_FUNC_probe_read_kernel,
					   &kernel_known);
		else if (!strcmp(name, "bpf_probe_read_user"))
			have = have_helper(BPF_FUNC_probe_read_user,
					   &user_known);
	}
	if (have >= 0) {
		*addr = 0;
		return have ? 0 : -1;
	}
	if (!real)
		real = (int (*)(void *, const char *, const char *,
				uint64_t *))dlsym(RTLD_NEXT,
						  "bcc_symcache_resolve_name");
	return real ? real(resolver, module, name, addr) : -1;
}

/* ss_bpf_compile - see bpf_host.h */
int ss_bpf_compile(struct ss_bpf *b, const char *text, const char **cflags,
		   int ncflags, char *err, size_t errlen)
{
	unsigned long long t0 = now_ns();
	const char *flags[ncflags + 1];
	struct ss_cache cache = { .dirfd = -1 };
	struct ss_cache_mod *m = NULL;

	/*
	 * -g0 after the -g libbcc always passes: no debug info and so no
	 * BTF for the module (the instructions are the same bytes, checked
	 * with the map fds masked): about 55 ms less CPU per start-up here.
	 * The cost: a verifier log names no source lines.  Kept (no -g0)
	 * when a map needs its BTF (the mode's keep_btf): libbcc creates a task
	 * storage map only with it.  Such a module is cached too (the
	 * flags differ, so does the key): a hit makes its map's BTF from
	 * the key and value sizes (bpf_cache.h, SS_CACHE_BTF_KV).
	 */
	memcpy(flags, cflags, ncflags * sizeof(*flags));
	if (!b->mode || !b->mode->keep_btf)
		flags[ncflags++] = "-g0";
	if (!(m = calloc(1, sizeof(*m))))
		snprintf(cache.why, sizeof(cache.why),
			 "cache off: out of memory");
	else if (ss_cache_lookup(&cache, text, flags, ncflags, b->headers, m)) {
		b->cached = m;
		snprintf(b->object, sizeof(b->object), "%s", cache.note);
		snprintf(b->cache_path, sizeof(b->cache_path), "%s/%s",
			 cache.dir, cache.key);
		ss_cache_close(&cache);
		b->compile_ns += now_ns() - t0;
		return 0;
	}
	free(m);
	/*
	 * Loading the libraries touched (relocations, symbol tables, static
	 * constructors) far more of them than the compile needs: drop those
	 * pages first, so the peak RSS holds only what the compile uses.
	 */
	drop_compiler_pages();
	compiling = true;
	b->mod = bpf_module_create_c_from_string(text, 0, flags, ncflags, true,
						 NULL);
	compiling = false;
	/*
	 * Saved once every program of it loaded (ss_bpf_free_compiler): a
	 * module the kernel refuses is never cached.
	 */
	if (b->mod && cache.dirfd >= 0 && (b->save = malloc(sizeof(cache)))) {
		*b->save = cache;
	} else {
		if (b->mod) /* no directory (the note says why), or no memory */
			ss_cache_save(&cache, b->mod);
		ss_cache_close(&cache);
	}
	if (!b->save) /* else set when it is saved (finish_save) */
		snprintf(b->object, sizeof(b->object), "%s", cache.note);
	b->compile_ns += now_ns() - t0;
	if (!b->mod) {
		snprintf(err, errlen,
			 "BPF compile failed (clang's messages above); "
			 "kernel headers: %s",
			 b->headers);
		return -1;
	}
	return 0;
}

/* the module's license: the cached one's or libbcc's */
static const char *mod_license(const struct ss_bpf *b)
{
	return b->cached ? b->cached->license : bpf_module_license(b->mod);
}

/*
 * Load @size bytes of instructions @insns of function @fn as a program of
 * @type, from the cached module or libbcc's.  The fd, or -1 (errno).
 */
static int func_load(struct ss_bpf *b, int type, const char *fn,
		     const struct bpf_insn *insns, size_t size, int log_level,
		     char *log, unsigned int logsz)
{
	if (b->cached)
		return bcc_prog_load(type, fn, insns, size, b->cached->license,
				     b->cached->kern_version, log_level, log,
				     logsz);
	return bcc_func_load(b->mod, type, fn, insns, size,
			     bpf_module_license(b->mod),
			     bpf_module_kern_version(b->mod), log_level, log,
			     logsz, NULL, -1);
}

/*
 * Where function fn's instructions start, and their size in bytes in
 * @size, once there is room to keep one more program and a verifier log
 * buffer.  NULL with err if not.
 */
static const struct bpf_insn *load_start(struct ss_bpf *b, const char *fn,
					 size_t *size, char *err, size_t errlen)
{
	const struct bpf_insn *start = NULL;

	if (b->cached) {
		start = ss_cache_func(b->cached, fn, size);
	} else if (b->mod) {
		start = bpf_function_start(b->mod, fn);
		*size = bpf_function_size(b->mod, fn);
	}
	if (!start) {
		snprintf(err, errlen, "BPF function %s not found", fn);
		b->cache_rejected = b->cached != NULL;
		return NULL;
	}
	if (b->nprogs >= SS_MAX_PROGS) {
		snprintf(err, errlen, "too many BPF programs");
		return NULL;
	}
	if (!b->verifier_log)
		b->verifier_log = calloc(1, LOG_SIZE);
	return start;
}

/*
 * A rejected program's verifier log (b->verifier_log, when there is one):
 * on stderr with -v, else into a new file of its own (mode 0600) under
 * /tmp, whose path goes to @path ("" when none: then the log goes to
 * stderr after all, not lost).
 */
static void log_keep(const struct ss_bpf *b, char *path, size_t pathlen)
{
	char tmpl[] = "/tmp/switchstat-verifier-XXXXXX.log";
	size_t n = b->verifier_log ? strlen(b->verifier_log) : 0;
	int fd;

	path[0] = '\0';
	if (!n)
		return;
	if (!b->verbose) {
		fd = mkstemps(tmpl, 4);
		if (fd >= 0) {
			if (write(fd, b->verifier_log, n) == (ssize_t)n &&
			    !close(fd)) {
				snprintf(path, pathlen, "%s", tmpl);
				return;
			}
			close(fd);
			unlink(tmpl);
		}
	}
	fprintf(stderr, "%s\n", b->verifier_log);
}

/*
 * What to do about a program the kernel refused with errno @e: one
 * clause for the message.
 */
static const char *rejected_hint(int e)
{
	switch (e) {
	case E2BIG: /* the verifier's limit of 1M instructions walked */
		return "the options together make it too complex for the "
		       "verifier: use fewer of --blame, --stacks, --wakers, -L "
		       "and the --hist kinds";
	case EPERM:
		return "run as root (CAP_BPF, CAP_PERFMON and CAP_SYS_ADMIN "
		       "where the kernel is older than 5.8)";
	default:
		return "this kernel refuses the probe: report it, with the "
		       "verifier log and uname -r";
	}
}

/*
 * After loading fn: keep its fd, or say in one line why the kernel refused
 * it (errno @e) and what to do; the verifier's log goes to stderr with -v,
 * else to a file the line names (log_keep).  Returns fd, or -1 with err.
 */
static int load_done(struct ss_bpf *b, const char *fn, int fd, int e, char *err,
		     size_t errlen)
{
	char path[64], where[96] = "";

	if (fd < 0) {
		b->cache_rejected = b->cached != NULL;
		log_keep(b, path, sizeof(path));
		if (path[0])
			snprintf(where, sizeof(where), " (verifier log: %s)",
				 path);
		else if (b->verifier_log && b->verifier_log[0])
			snprintf(where, sizeof(where), " (verifier log above)");
		snprintf(err, errlen,
			 "BPF program %s rejected by the kernel: %s%s; %s", fn,
			 strerror(e), where, rejected_hint(e));
		return -1;
	}
	b->prog_fd[b->nprogs] = fd;
	b->prog_name[b->nprogs] = fn;
	b->nprogs++;
	return fd;
}

/*
 * -v: one line per program loaded: the instructions the verifier processed
 * and its own time (from its BPF_LOG_STATS lines), and the load's time.
 */
static void verifier_stats(const struct ss_bpf *b, const char *fn,
			   unsigned long long ns)
{
	const char *p =
		b->verifier_log ? strstr(b->verifier_log, "processed ") : NULL;
	const char *t = b->verifier_log
				? strstr(b->verifier_log, "verification time ")
				: NULL;
	long insns = p ? strtol(p + strlen("processed "), NULL, 10) : -1;
	long us = t ? strtol(t + strlen("verification time "), NULL, 10) : -1;

	fprintf(stderr,
		"switchstat: verifier: %s: %ld insns processed, %ld us "
		"verifying, %.1f ms loading\n",
		fn, insns, us, ns / 1e6);
}

/* ss_bpf_load - see bpf_host.h */
int ss_bpf_load(struct ss_bpf *b, const char *fn, int type, char *err,
		size_t errlen)
{
	size_t size = 0;
	const struct bpf_insn *start = load_start(b, fn, &size, err, errlen);
	unsigned long long t0;
	int fd;

	if (!start)
		return -1;
	if (b->verifier_log)
		b->verifier_log[0] = '\0';
	t0 = now_ns();
	/* -v: the verifier's statistics (BPF_LOG_STATS, Linux 5.2+) */
	fd = func_load(b, type, fn, start, size,
		       b->verbose && b->verifier_log ? 4 : 0, b->verifier_log,
		       b->verifier_log ? LOG_SIZE : 0);
	if (fd >= 0 && b->verbose)
		verifier_stats(b, fn, now_ns() - t0);
	if (fd < 0 && errno == E2BIG && b->verifier_log) {
		/*
		 * The verifier's complexity limit: libbcc prints only a
		 * misleading "too large" line and no log, so load again with
		 * logging on for its log (ending in "processed N insns").
		 */
		b->verifier_log[0] = '\0';
		func_load(b, type, fn, start, size, 1, b->verifier_log,
			  LOG_SIZE);
		errno = E2BIG;
	}
	b->load_ns += now_ns() - t0;
	return load_done(b, fn, fd, errno, err, errlen);
}

/* ss_bpf_prog_loaded - see bpf_host.h */
bool ss_bpf_prog_loaded(const struct ss_bpf *b, const char *fn)
{
	for (int i = 0; i < b->nprogs; i++)
		if (b->prog_name[i] && !strcmp(b->prog_name[i], fn))
			return true;
	return false;
}

/* ss_bpf_has_func - see bpf_host.h */
bool ss_bpf_has_func(const struct ss_bpf *b, const char *fn)
{
	size_t size = 0;

	if (b->cached)
		return ss_cache_func(b->cached, fn, &size) != NULL;
	return b->mod && bpf_function_start(b->mod, fn) != NULL;
}

/* ss_bpf_add_link - see bpf_host.h */
int ss_bpf_add_link(struct ss_bpf *b, int fd)
{
	if (b->nlinks >= SS_MAX_LINKS)
		return -1;
	b->link_fd[b->nlinks++] = fd;
	return 0;
}

/* ss_bpf_attach_tp - see bpf_host.h */
int ss_bpf_attach_tp(struct ss_bpf *b, const char *fn, const char *category,
		     const char *name, char *err, size_t errlen)
{
	int pfd, fd = ss_bpf_load(b, fn, BPF_PROG_TYPE_TRACEPOINT, err, errlen);
	unsigned long long t0;

	if (fd < 0)
		return -1;
	t0 = now_ns();
	pfd = bpf_attach_tracepoint(fd, category, name);
	b->attach_ns += now_ns() - t0;
	if (pfd < 0) {
		snprintf(err, errlen, "cannot attach tracepoint %s:%s: %s",
			 category, name, strerror(errno));
		return -1;
	}
	if (ss_bpf_add_link(b, pfd)) {
		bpf_close_perf_event_fd(pfd);
		snprintf(err, errlen, "too many attachments");
		return -1;
	}
	return 0;
}

/* The sched tracepoints with a probe on either path (probes/). */
static const struct {
	const char *tp, *fn, *raw_fn;
} sched_probes[] = {
	{ "sched_switch", "tracepoint__sched__sched_switch",
	  "raw_tracepoint__sched_switch" },
	{ "sched_wakeup", "tracepoint__sched__sched_wakeup",
	  "raw_tracepoint__sched_wakeup" },
	{ "sched_wakeup_new", "tracepoint__sched__sched_wakeup_new",
	  "raw_tracepoint__sched_wakeup_new" },
	{ "sched_process_exit", "tracepoint__sched__sched_process_exit",
	  "raw_tracepoint__sched_process_exit" },
	{ "sched_migrate_task", "tracepoint__sched__sched_migrate_task",
	  "raw_tracepoint__sched_migrate_task" },
	/* raw only: a tracepoint with no trace event (recent kernels) */
	{ "sched_exit_tp", NULL, "raw_tracepoint__sched_exit_tp" },
};

/* ss_bpf_sched_fn - see bpf_host.h */
const char *ss_bpf_sched_fn(const struct ss_bpf *b, const char *tp)
{
	for (size_t i = 0; i < sizeof(sched_probes) / sizeof(sched_probes[0]);
	     i++)
		if (!strcmp(sched_probes[i].tp, tp))
			return raw_sched(b) ? sched_probes[i].raw_fn
					    : sched_probes[i].fn;
	return NULL;
}

/*
 * Load function fn as a BTF raw tracepoint program (tp_btf.h) for tp.
 * Returns its fd, or -1 with err (and the verifier's log printed).
 */
static int load_tp_btf(struct ss_bpf *b, const char *fn, const char *tp,
		       char *err, size_t errlen)
{
	size_t size = 0;
	const struct bpf_insn *start = load_start(b, fn, &size, err, errlen);
	unsigned long long t0;
	int fd, e;

	if (!start)
		return -1;
	t0 = now_ns();
	fd = ss_tp_btf_load(start, size, tp, mod_license(b), tp,
			    b->verifier_log, b->verifier_log ? LOG_SIZE : 0,
			    b->verbose);
	e = errno;
	if (fd >= 0 && b->verbose)
		verifier_stats(b, fn, now_ns() - t0);
	b->load_ns += now_ns() - t0;
	return load_done(b, fn, fd, e, err, errlen);
}

/* ss_bpf_load_as_sched - see bpf_host.h */
int ss_bpf_load_as_sched(struct ss_bpf *b, const char *fn, const char *tp,
			 char *err, size_t errlen)
{
	if (!raw_sched(b))
		return ss_bpf_load(b, fn, BPF_PROG_TYPE_TRACEPOINT, err,
				   errlen);
	if (tp_btf(b))
		return load_tp_btf(b, fn, tp, err, errlen);
	return ss_bpf_load(b, fn, BPF_PROG_TYPE_RAW_TRACEPOINT, err, errlen);
}

/* ss_bpf_attach_sched - see bpf_host.h */
int ss_bpf_attach_sched(struct ss_bpf *b, const char *tp, char *err,
			size_t errlen)
{
	const char *fn = ss_bpf_sched_fn(b, tp);
	int fd;

	if (!fn) {
		snprintf(err, errlen, "no probe for sched:%s", tp);
		return -1;
	}
	if (ss_bpf_prog_loaded(b, fn))
		return 0;
	if (!raw_sched(b))
		return ss_bpf_attach_tp(b, fn, "sched", tp, err, errlen);
	fd = ss_bpf_load_as_sched(b, fn, tp, err, errlen);
	if (fd < 0)
		return -1;
	return ss_bpf_attach_raw_fd(b, fd, tp, err, errlen);
}

/* ss_bpf_attach_raw_fd - see bpf_host.h */
int ss_bpf_attach_raw_fd(struct ss_bpf *b, int fd, const char *tp, char *err,
			 size_t errlen)
{
	unsigned long long t0 = now_ns();
	int lfd;

	if (b->nraw >= SS_MAX_PROGS) {
		snprintf(err, errlen, "too many attachments");
		return -1;
	}
	lfd = tp_btf(b) ? ss_tp_btf_attach(fd)
			: bpf_attach_raw_tracepoint(fd, tp);
	b->attach_ns += now_ns() - t0;
	if (lfd < 0) {
		snprintf(err, errlen, "cannot attach %sraw tracepoint %s: %s",
			 tp_btf(b) ? "BTF " : "", tp, strerror(errno));
		return -1;
	}
	b->raw_fd[b->nraw++] = lfd;
	return 0;
}

/* ss_bpf_map_fd - see bpf_host.h */
int ss_bpf_map_fd(struct ss_bpf *b, const char *name)
{
	struct ss_bpf_map *m;
	int fd;

	for (int i = 0; i < b->nmaps; i++)
		if (!strcmp(b->maps[i].name, name))
			return b->maps[i].fd;
	if ((!b->mod && !b->cached) || b->nmaps >= SS_MAX_MAPS ||
	    strlen(name) >= sizeof(m->name))
		return -1;
	fd = b->cached ? ss_cache_table_fd(b->cached, name)
		       : bpf_table_fd(b->mod, name);
	if (fd < 0)
		return -1;
	fd = fcntl(fd, F_DUPFD_CLOEXEC, 0);
	if (fd < 0)
		return -1;
	m = &b->maps[b->nmaps++];
	snprintf(m->name, sizeof(m->name), "%s", name);
	m->fd = fd;
	return fd;
}

/* free the module, libbcc's or the cached one (closing its map fds) */
static void free_module(struct ss_bpf *b)
{
	if (b->mod)
		bpf_module_destroy(b->mod);
	b->mod = NULL;
	if (b->cached) {
		ss_cache_mod_free(b->cached);
		free(b->cached);
	}
	b->cached = NULL;
}

/* the pending save of a compiled module: done (@commit) or dropped */
static void finish_save(struct ss_bpf *b, bool commit)
{
	if (!b->save)
		return;
	if (commit && b->mod) {
		ss_cache_save(b->save, b->mod);
		snprintf(b->object, sizeof(b->object), "%s", b->save->note);
	}
	ss_cache_close(b->save);
	free(b->save);
	b->save = NULL;
}

/* ss_bpf_cache_drop - see bpf_host.h */
int ss_bpf_cache_drop(struct ss_bpf *b)
{
	if (!b->cache_path[0])
		return 0;
	return unlink(b->cache_path) && errno != ENOENT ? -1 : 0;
}

/* ss_bpf_free_compiler - see bpf_host.h */
void ss_bpf_free_compiler(struct ss_bpf *b)
{
	/* every program loaded: the compiled module is good to keep */
	finish_save(b, true);
	free_module(b);
	free(b->verifier_log);
	b->verifier_log = NULL;
	malloc_trim(0);
	b->dropped_kb = drop_compiler_pages();
}

/* ss_bpf_close - see bpf_host.h */
void ss_bpf_close(struct ss_bpf *b)
{
	for (int i = 0; i < b->nlinks; i++)
		bpf_close_perf_event_fd(b->link_fd[i]);
	b->nlinks = 0;
	for (int i = 0; i < b->nraw; i++)
		close(b->raw_fd[i]);
	b->nraw = 0;
	for (int i = 0; i < b->nprogs; i++)
		close(b->prog_fd[i]);
	b->nprogs = 0;
	for (int i = 0; i < b->nmaps; i++)
		close(b->maps[i].fd);
	b->nmaps = 0;
	finish_save(b, false);
	free_module(b);
	free(b->verifier_log);
	b->verifier_log = NULL;
}
