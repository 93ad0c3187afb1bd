// SPDX-License-Identifier: GPL-2.0
/*
 * feat_cgfilter.c - the --cgroup PATH filter (see feat_cgfilter.h).
 */
#include "feat_cgfilter.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <bcc/libbpf.h>

#include "cgroup.h"

struct cgfilter_state {
	bool on; /* fd is the --cgroup directory, for the probes */
	int fd;
};

/* The directory of --cgroup PATH: opened in *fd; 0, 2 or 1. */
static int open_path(const char *path, const char *mount, int *fd)
{
	struct stat st;
	int ret = ss_cgroup_open_dir(mount, path);

	/* an existing directory outside the mount: e.g. a cgroup v1 path */
	if (ret == -ENOENT && path[0] == '/' && !stat(path, &st))
		ret = -EINVAL;
	switch (ret) {
	case -ENOENT:
		fprintf(stderr,
			"switchstat: --cgroup %s: no such cgroup (cgroup v2 "
			"is mounted at %s)\n",
			path, mount);
		return 2;
	case -ENOTDIR:
	case -EINVAL:
		fprintf(stderr,
			"switchstat: --cgroup %s: not a cgroup v2 directory "
			"(cgroup v2 is mounted at %s)\n",
			path, mount);
		return 2;
	case -ENAMETOOLONG:
		fprintf(stderr, "switchstat: --cgroup %s: path too long\n",
			path);
		return 2;
	}
	if (ret < 0) {
		fprintf(stderr, "switchstat: --cgroup %s: %s\n", path,
			strerror(-ret));
		return 1;
	}
	*fd = ret;
	return 0;
}

/* --cgroup PATH (user input): 0, 2, or 1 when cgroup v2 is not there. */
static int cgfilter_check(struct ss_app *app, void *st)
{
	struct cgfilter_state *cf = st;
	const char *path = app->o.cgroup;
	char mount[PATH_MAX];
	struct stat dir, root;
	int ret, fd;

	if (!path)
		return 0;
	ret = ss_cgroup_v2_mount(mount, sizeof(mount));
	if (ret) {
		fprintf(stderr,
			"switchstat: --cgroup needs cgroup v2, and "
			"none is mounted: %s\n",
			strerror(-ret));
		return 1;
	}
	ret = open_path(path, mount, &fd);
	if (ret)
		return ret;
	if (fstat(fd, &dir)) {
		fprintf(stderr, "switchstat: --cgroup %s: %s\n", path,
			strerror(errno));
		close(fd);
		return 1;
	}
	if (app->o.verbose)
		fprintf(stderr,
			"switchstat: --cgroup %s: id %llu and every cgroup "
			"below it\n",
			path, (unsigned long long)dir.st_ino);
	/* the root holds every task: no filter, no cost per switch */
	if (!stat(mount, &root) && root.st_ino == dir.st_ino &&
	    root.st_dev == dir.st_dev) {
		close(fd);
		return 0;
	}
	cf->fd = fd;
	cf->on = true;
	return 0;
}

/* Tell the plan to compile the filter in (SS_FILTER_CGROUP). */
static int cgfilter_open(struct ss_app *app, void *st)
{
	struct cgfilter_state *cf = st;

	app->facts.opened.cgroup_filter = cf->on;
	return 0;
}

/* Index 0 of cgroup_filter: the directory (the kernel keeps the cgroup). */
static int cgfilter_attach(struct ss_app *app, void *st)
{
	struct cgfilter_state *cf = st;
	int map, idx = 0;

	if (!cf->on)
		return 0;
	map = ss_bpf_map_fd(&app->bpf, "cgroup_filter");
	if (map < 0) {
		fprintf(stderr, "switchstat: BPF map cgroup_filter missing\n");
		return 1;
	}
	if (bpf_update_elem(map, &idx, &cf->fd, BPF_ANY)) {
		fprintf(stderr, "switchstat: filling cgroup_filter: %s\n",
			strerror(errno));
		return 1;
	}
	return 0;
}

static void cgfilter_close(struct ss_app *app, void *st)
{
	struct cgfilter_state *cf = st;

	if (cf->on)
		close(cf->fd);
	cf->on = false;
}

const struct ss_feature ss_feat_cgfilter = {
	.name = "cgfilter",
	.state_size = sizeof(struct cgfilter_state),
	.check = cgfilter_check,
	.open = cgfilter_open,
	.attach = cgfilter_attach,
	.close = cgfilter_close,
};
