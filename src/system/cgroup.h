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
	char *path; /* relative to the mount: "/" or "/a/b" */
};

struct ss_cgroup_cache {
	char mount[PATH_MAX];
	struct ss_cgroup_entry *ents; /* sorted by id */
	size_t n;
	uint64_t last_scan_ns; /* CLOCK_MONOTONIC of the last scan */
	uint64_t rescan_interval_ns; /* least time between rescans on a miss */
	char **retired; /* paths of removed cgroups, freed with the cache */
	size_t nretired, retired_cap;
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
 * Strings already returned by ss_cgroup_path() stay valid. Returns 0 or -errno
 * (the previous contents are kept on failure).
 */
int ss_cgroup_cache_rescan(struct ss_cgroup_cache *c);

/*
 * ss_cgroup_path - path of cgroup @id relative to the mount: "/" for the root,
 * "/a/b" for a descendant.
 *
 * On a miss the hierarchy is rescanned at most once per call, and only if
 * rescan_interval_ns has passed since the last scan. Returns NULL for an
 * id that does not exist (the caller prints the number). The string stays
 * valid until ss_cgroup_cache_free(), even across rescans: paths of removed
 * or renamed cgroups are kept until then, so memory grows with the number
 * of distinct cgroups seen during the run.
 */
const char *ss_cgroup_path(struct ss_cgroup_cache *c, uint64_t id);

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
