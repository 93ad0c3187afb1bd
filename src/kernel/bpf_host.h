/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bpf_host.h - the libbcc side: environment checks, compiling the embedded
 * probe text, loading and attaching programs, map file descriptors, detach.
 */
#ifndef SWITCHSTAT_BPF_HOST_H
#define SWITCHSTAT_BPF_HOST_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>

#define SS_MAX_PROGS 32 /* all features on: 24 (--wakers alone 7) */
#define SS_MAX_LINKS 1024
#define SS_ERR_LEN 512
#define SS_MAX_MAPS 64

/* A map the host asked for: its own fd, valid after the module is freed. */
struct ss_bpf_map {
	char name[64];
	int fd;
};

struct ss_cache_mod;
struct ss_cache;

/*
 * How the programs are built and attached: the run's plan decides it
 * (plan.h, feat_path.c); the handle only reads it.
 */
struct ss_bpf_mode {
	bool raw_sched; /* sched tracepoints as raw tracepoints, task_struct
			 * offsets from BTF; else regular tracepoints */
	bool tp_btf; /* ... loaded as BTF raw tracepoints (tp_btf.h) */
	bool keep_btf; /* compile with debug info, for the BTF of maps that
			* need it (task storage: --blame); else -g0 */
};

struct ss_bpf {
	void *mod; /* libbcc module, NULL once ss_bpf_free_compiler ran */
	struct ss_cache_mod *cached; /* ... or the module from the compiled-
				      * BPF cache (bpf_cache.h), its maps
				      * created: then mod is NULL */
	char object[2 * PATH_MAX + 1024]; /* where the module came from, for -v:
				       * "cached (DIR/KEY)", "compiled
				       * (saved to DIR/KEY)", ... */
	struct ss_cache *save; /* a compiled module's place in the cache,
				* saved there by ss_bpf_free_compiler once
				* every program loaded (NULL: none) */
	char cache_path[2 * PATH_MAX + 80]; /* the cached module's file */
	bool cache_rejected; /* the kernel refused a program of the cached
			      * module, or one was missing: the file is
			      * bad (ss_bpf_cache_drop) */
	int prog_fd[SS_MAX_PROGS]; /* loaded programs */
	const char *prog_name[SS_MAX_PROGS];
	int nprogs;
	int link_fd[SS_MAX_LINKS]; /* perf fds of attachments */
	int nlinks;
	int raw_fd[SS_MAX_PROGS]; /* raw tracepoint attachments */
	int nraw;
	const struct ss_bpf_mode *mode; /* the plan's; NULL: regular
					 * tracepoints, -g0 */
	char headers[4096]; /* kernel headers dir libbcc will use */
	char *verifier_log; /* last load failure's log, or NULL */
	int verbose;
	struct ss_bpf_map maps[SS_MAX_MAPS];
	int nmaps;
	/* start-up phase times (ns): clang + LLVM, program loads, attaches */
	unsigned long long compile_ns, load_ns, attach_ns;
	long dropped_kb; /* compiler pages unmapped by ss_bpf_free_compiler */
};

/*
 * ss_bpf_check_env - the things libbcc needs before it can compile and
 * attach: capabilities (privs.h), tracefs (tracefs.h, where libbcc looks),
 * and kernel headers (BCC_KERNEL_SOURCE, /lib/modules/$(uname -r)/build or
 * /sys/kernel/kheaders.tar.xz).  Fills b->headers.  Returns 0, or -1 with
 * one line in err saying what to do.
 */
int ss_bpf_check_env(struct ss_bpf *b, char *err, size_t errlen);

/*
 * ss_bpf_compile - compile text with cflags (numeric -D only), or, when
 * the compiled-BPF cache (bpf_cache.h) has the module of these inputs,
 * create its maps and take its instructions instead; b->object says
 * which.  A cache that is off, refused or bad means a compile, never an
 * error.  Returns 0, or -1 with a message in err (libbcc prints clang's
 * diagnostics itself).
 */
int ss_bpf_compile(struct ss_bpf *b, const char *text, const char **cflags,
		   int ncflags, char *err, size_t errlen);

/*
 * ss_bpf_load - load function fn as program type (BPF_PROG_TYPE_*).
 * Returns the program fd, or -1 with err and b->verifier_log set.
 */
int ss_bpf_load(struct ss_bpf *b, const char *fn, int type, char *err,
		size_t errlen);

/*
 * ss_bpf_attach_tp - load fn as a tracepoint program and attach it to
 * category:name.  Returns 0, or -1 with err (and the verifier log).
 */
int ss_bpf_attach_tp(struct ss_bpf *b, const char *fn, const char *category,
		     const char *name, char *err, size_t errlen);

/* ss_bpf_prog_loaded - has function fn already been loaded? */
bool ss_bpf_prog_loaded(const struct ss_bpf *b, const char *fn);

/*
 * ss_bpf_has_func - is function fn in the compiled (or cached) module?
 * (the probes compile a feature's programs in only when it is on)
 */
bool ss_bpf_has_func(const struct ss_bpf *b, const char *fn);

/*
 * ss_bpf_sched_fn - the probe function of sched tracepoint @tp
 * ("sched_switch", "sched_wakeup", "sched_wakeup_new",
 * "sched_process_exit") on the path in use (b->mode), or NULL.
 */
const char *ss_bpf_sched_fn(const struct ss_bpf *b, const char *tp);

/*
 * ss_bpf_attach_sched - load and attach sched tracepoint @tp's probe, as a
 * raw tracepoint when b->mode says so (a BTF one with its tp_btf), else as
 * a regular one; nothing when it is attached already.  Returns 0, or -1
 * with err.
 */
int ss_bpf_attach_sched(struct ss_bpf *b, const char *tp, char *err,
			size_t errlen);

/*
 * ss_bpf_attach_raw_fd - attach loaded program @fd (ss_bpf_load_as_sched)
 * to raw sched tracepoint @tp, as a BTF raw tracepoint when b->mode has
 * tp_btf: for a probe loaded (verified) at start-up and attached later.
 * Only on the raw path.  Returns 0, or -1 with err.
 */
int ss_bpf_attach_raw_fd(struct ss_bpf *b, int fd, const char *tp, char *err,
			 size_t errlen);

/*
 * ss_bpf_load_as_sched - load function fn, without attaching it, as the
 * program type sched tracepoint @tp's probe has on the path in use (for a
 * program it tail-calls, which must be of the caller's type).  Returns the
 * program fd, or -1 with err.
 */
int ss_bpf_load_as_sched(struct ss_bpf *b, const char *fn, const char *tp,
			 char *err, size_t errlen);

/* ss_bpf_add_link - remember an fd (perf event) to close at detach. */
int ss_bpf_add_link(struct ss_bpf *b, int fd);

/*
 * ss_bpf_map_fd - fd of map `name`, or -1.  The fd is the host's own (a dup
 * of the module's), so it stays valid after ss_bpf_free_compiler and until
 * ss_bpf_close.
 */
int ss_bpf_map_fd(struct ss_bpf *b, const char *name);

/*
 * ss_bpf_free_compiler - once every program is loaded and attached, free
 * the libbcc module (clang's and LLVM's memory, the BPF text and
 * instructions), give the freed heap back to the system and unmap the
 * compiler libraries' clean pages (lib_pages.h).  Loaded
 * programs and maps stay: the kernel holds them through the program,
 * map (see ss_bpf_map_fd) and attachment fds.  After it, ss_bpf_load
 * and maps not asked for before fail.  A module just compiled is saved
 * to the compiled-BPF cache here, once all its programs loaded (so one
 * the kernel refuses is never kept).
 */
void ss_bpf_free_compiler(struct ss_bpf *b);

/*
 * ss_bpf_cache_drop - after a start whose cached module the kernel refused
 * (b->cache_rejected): remove its file, so the next start compiles.
 * Returns 0, or -1 (errno) when it could not be removed.
 */
int ss_bpf_cache_drop(struct ss_bpf *b);

/* ss_bpf_close - detach everything, close fds, free the module.  Idempotent. */
void ss_bpf_close(struct ss_bpf *b);

#endif
