/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cgroup.h - cgroup v2 mount discovery, cgroup id <-> path, container ids.
 *
 * A cgroup v2 id, as bpf_get_current_cgroup_id() returns it, is the kernfs
 * node id of the cgroup directory, which on 64-bit kernels is also the
 * directory's inode number (stat -c %i). The root cgroup has id 1.
 */
#ifndef SWITCHSTAT_CGROUP_H
#define SWITCHSTAT_CGROUP_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <limits.h>

#define SS_CONTAINER_SHORT_ID_LEN 12

/*
 * ss_cgroup_v2_mount - find where the cgroup2 filesystem is mounted.
 * @buf: receives the mount point, e.g. "/sys/fs/cgroup" (unified layout)
 *       or "/sys/fs/cgroup/unified" (hybrid layout)
 * @len: size of @buf
 *
 * Reads /proc/self/mountinfo and takes the first cgroup2 entry. Returns 0,
 * -ENOENT if no cgroup2 is mounted, -ENAMETOOLONG if @buf is too small, or
 * -errno from opening the file.
 */
int ss_cgroup_v2_mount(char *buf, size_t len);

/*
 * ss_cgroup_v2_mount_from - as ss_cgroup_v2_mount(), reading @mountinfo_path
 * (same format as proc(5) mountinfo: octal escapes such as \040 in the
 * mount point are decoded).
 */
int ss_cgroup_v2_mount_from(const char *mountinfo_path, char *buf, size_t len);

struct ss_cgroup_entry {
	uint64_t id; /* cgroup id == directory inode number */
	char *path; /* relative to the mount: "/" or "/a/b"; NULL: unnamed */
};

#define SS_CGROUP_MAX_SKIPS 8

/* One subtree a scan could not name. */
struct ss_cgroup_skip {
	char *where; /* "<parent path>/<child name>", relative to the mount */
	size_t parent_len; /* bytes of @where that are the parent's path */
	int err; /* ENAMETOOLONG: path too long; else why it was not read */
	size_t count; /* cgroups in the subtree (1 if it was not read) */
};

/* What one scan of the hierarchy skipped; every other cgroup is named. */
struct ss_cgroup_scan {
	size_t unnamed; /* cgroups whose path is over PATH_MAX - 1 bytes */
	size_t unread; /* entries that could not be opened or listed */
	struct ss_cgroup_skip skips[SS_CGROUP_MAX_SKIPS];
	size_t nskips, skips_left_off;
};

struct ss_cgroup_cache {
	char mount[PATH_MAX];
	struct ss_cgroup_entry *ents; /* sorted by id */
	size_t n;
	uint64_t last_scan_ns; /* CLOCK_MONOTONIC of the last scan */
	uint64_t rescan_interval_ns; /* least time between rescans on a miss */
	char **retired; /* paths of removed cgroups, freed with the cache */
	size_t nretired, retired_cap;
	struct ss_cgroup_scan scan; /* what the last scan skipped */
	FILE *diag; /* if set, each scan that skips differently says so here */
	size_t reported_unnamed, reported_unread;
};

#define SS_CGROUP_RESCAN_INTERVAL_NS 1000000000ULL

/*
 * ss_cgroup_cache_init - set up a cache for the hierarchy mounted at @mount
 * and scan it once. The rescan interval starts at SS_CGROUP_RESCAN_INTERVAL_NS
 * (1 s); callers may change c->rescan_interval_ns.
 *
 * Returns 0, -ENAMETOOLONG if @mount does not fit, or -errno from the scan
 * (the cache is then empty but usable and must still be freed).
 */
int ss_cgroup_cache_init(struct ss_cgroup_cache *c, const char *mount);

/*
 * ss_cgroup_cache_rescan - rescan the hierarchy now, ignoring the rate limit.
 * Strings already returned by ss_cgroup_path() stay valid.
 *
 * The walk opens each directory relative to its parent, so it is not
 * limited by PATH_MAX. One entry that cannot be named or read never hides
 * the others: a cgroup whose mount + path would exceed PATH_MAX - 1 bytes is
 * kept without a path (with its whole subtree), one that cannot be opened or
 * listed (EACCES, EMFILE, ...) is skipped, one removed during the scan is
 * left out; c->scan counts them and names each skipped subtree by its
 * parent, and c->diag (if set) gets one line per subtree whenever the counts
 * change. Returns 0, or -errno for the mount itself or -ENOMEM (the previous
 * contents are then kept).
 */
int ss_cgroup_cache_rescan(struct ss_cgroup_cache *c);

/*
 * ss_cgroup_path - path of cgroup @id relative to the mount: "/" for the root,
 * "/a/b" for a descendant.
 *
 * On a miss the hierarchy is rescanned at most once per call, and only if
 * rescan_interval_ns has passed since the last scan. Returns NULL for an
 * id that does not exist or has no path (the caller prints the number); a
 * cgroup without a path is found, so asking for it causes no rescans. The string stays
 * valid until ss_cgroup_cache_free(), even across rescans: paths of removed
 * or renamed cgroups are kept until then, so memory grows with the number
 * of distinct cgroups seen during the run.
 */
const char *ss_cgroup_path(struct ss_cgroup_cache *c, uint64_t id);

/*
 * ss_cgroup_cache_set_diag - where each scan that skips a different number
 * of cgroups says which (one line per subtree, "switchstat: cgroups under
 * <mount><parent>: N not named (...)"); NULL: nowhere. Says it now for the
 * last scan.
 */
void ss_cgroup_cache_set_diag(struct ss_cgroup_cache *c, FILE *f);

/*
 * ss_cgroup_find - as ss_cgroup_path(), and tells a cgroup that exists but has
 * no path (too long: see ss_cgroup_cache_rescan) from an unknown id.
 * @path: receives the path, or NULL
 *
 * Returns 1 if cgroup @id was found by the last scan (*path may still be
 * NULL), 0 if not.
 */
int ss_cgroup_find(struct ss_cgroup_cache *c, uint64_t id, const char **path);

/*
 * ss_cgroup_scan_free - release the strings of @sc and zero it.
 */
void ss_cgroup_scan_free(struct ss_cgroup_scan *sc);

/*
 * ss_cgroup_cache_free - release the memory held by @c (not @c itself).
 */
void ss_cgroup_cache_free(struct ss_cgroup_cache *c);

/*
 * ss_cgroup_descendant_ids - ids of a cgroup and all its descendants, for the
 * --cgroup PATH filter.
 * @mount: cgroup2 mount point
 * @path:  either an absolute path under @mount ("/sys/fs/cgroup/a/b") or a
 *         path relative to it, with or without a leading slash ("/a/b",
 *         "a/b", "/" for the root); a path under @mount wins if ambiguous
 * @ids:   receives the ids, @path's own id first, then descendants in
 *         pre-order
 * @max:   size of @ids
 *
 * Returns the number of ids, -ENOENT if @path does not exist, -ENOTDIR if
 * it is not a directory, -EINVAL if it is not on a cgroup2 file system,
 * -E2BIG if there are more than @max, or another -errno.
 */
int ss_cgroup_descendant_ids(const char *mount, const char *path, uint64_t *ids,
			     int max);

/*
 * ss_cgroup_open_dir - open the cgroup v2 directory of a --cgroup argument,
 * for the probes' cgroup array (the kernel then follows its descendants).
 * @mount: cgroup2 mount point
 * @path:  as for ss_cgroup_descendant_ids
 *
 * Returns a read-only directory fd (close it), -ENOENT if @path does not
 * exist, -ENOTDIR if it is not a directory, -EINVAL if it is not on a
 * cgroup2 file system, -ENAMETOOLONG, or another -errno.
 */
int ss_cgroup_open_dir(const char *mount, const char *path);

/*
 * ss_container_id_from_path - short container id for a cgroup path.
 * @path:   cgroup path, relative or absolute
 * @out:    receives the first SS_CONTAINER_SHORT_ID_LEN hex digits + NUL
 * @outlen: size of @out, at least SS_CONTAINER_SHORT_ID_LEN + 1
 *
 * Recognises the innermost path component that is one of
 *   docker-<id>.scope, cri-containerd-<id>.scope, crio-<id>.scope,
 *   libpod-<id>.scope, nerdctl-<id>.scope      (systemd cgroup driver)
 *   <id>                                       (cgroupfs driver: /docker/<id>,
 *                                               /kubepods/<qos>/pod<uid>/<id>)
 *   crio-<id>, libpod-<id>                     (cgroupfs driver of CRI-O:
 *                                               .../pod<uid>/crio-<id>;
 *                                               podman: /libpod_parent/...)
 *   <slice>:<prefix>:<id>                      (runc's systemd cgroupsPath
 *                                               made as one directory, e.g.
 *                                               kubepods-...-pod<uid>.slice:
 *                                               cri-containerd:<id>; prefix
 *                                               one of docker, cri-containerd,
 *                                               crio, libpod, nerdctl)
 * where <id> is exactly 64 lowercase hex digits. Monitor scopes such as
 * crio-conmon-<id>.scope and libpod-conmon-<id>.scope hold the runtime's
 * conmon process, not the container's workload, so they do not match.
 *
 * Returns 1 if found, 0 if not, -EINVAL for a NULL argument or too small
 * @outlen.
 */
int ss_container_id_from_path(const char *path, char *out, size_t outlen);

#endif /* SWITCHSTAT_CGROUP_H */
