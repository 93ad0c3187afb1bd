// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for src/system/cgroup.c. Mountinfo parsing and container ids use
 * fixtures; the live tests create cgroups under the real cgroup2 mount and
 * are skipped unless running as root with a writable cgroup2 mount.
 */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <time.h>
#include <unistd.h>
#include <signal.h>
#include <sys/wait.h>
#include <pthread.h>
#include <linux/magic.h>

#include "cgroup.h"

/* ---- ss_cgroup_v2_mount_from: fixtures ---- */

static const char mi_hybrid[] =
	"22 1 0:21 / / rw,relatime - overlay overlay rw\n"
	"23 22 0:22 / /sys rw,nosuid,nodev,noexec,relatime shared:7 - sysfs "
	"sysfs rw\n"
	"31 23 0:28 / /sys/fs/cgroup rw,relatime - tmpfs tmpfs rw,mode=755\n"
	"32 31 0:29 / /sys/fs/cgroup/cpu rw,relatime - cgroup cgroup rw,cpu\n"
	"35 31 0:32 / /sys/fs/cgroup/memory rw,relatime - cgroup cgroup "
	"rw,memory\n"
	"40 31 0:37 / /sys/fs/cgroup/systemd rw,relatime shared:9 - cgroup "
	"cgroup rw,xattr,name=systemd\n"
	"41 31 0:38 / /sys/fs/cgroup/unified rw,nosuid,nodev,noexec,relatime "
	"shared:10 - cgroup2 cgroup2 rw,nsdelegate\n";

static const char mi_unified[] =
	"26 1 259:2 / / rw,relatime shared:1 - ext4 /dev/nvme0n1p2 rw\n"
	"27 26 0:24 / /sys rw,nosuid,nodev,noexec,relatime shared:2 - sysfs "
	"sysfs rw\n"
	"30 27 0:26 / /sys/fs/cgroup rw,nosuid,nodev,noexec,relatime shared:4 "
	"- cgroup2 cgroup2 rw,nsdelegate,memory_recursiveprot\n"
	"31 27 0:27 / /sys/fs/pstore rw,nosuid,nodev,noexec,relatime shared:5 "
	"- pstore pstore rw\n";

/* v1 only; names that merely look like cgroup2 must not match */
static const char mi_v1_only[] =
	"22 1 0:21 / / rw,relatime - ext4 /dev/sda1 rw\n"
	"31 22 0:28 / /sys/fs/cgroup rw,relatime - tmpfs tmpfs rw,mode=755\n"
	"32 31 0:29 / /sys/fs/cgroup/cpu rw,relatime - cgroup cgroup2 rw,cpu\n"
	"33 31 0:30 / /mnt/cgroup2 rw,relatime - tmpfs cgroup2 rw\n"
	"34 31 0:31 / /sys/fs/cgroup/memory rw,relatime - cgroup cgroup "
	"rw,memory\n";

static const char mi_escaped_and_two[] =
	"garbage line without fields\n"
	"\n"
	"50 22 0:40 / /mnt/cg\\040two\\134x rw shared:1 master:2 - cgroup2 "
	"none rw\n"
	"51 22 0:41 / /sys/fs/cgroup rw - cgroup2 cgroup2 rw\n";

static char *write_fixture(const char *text)
{
	char *path = strdup("/tmp/switchstat-mountinfo-XXXXXX");
	size_t len = strlen(text);
	int fd;

	cr_assert_not_null(path);
	fd = mkstemp(path);
	cr_assert_geq(fd, 0, "mkstemp: %s", strerror(errno));
	cr_assert_eq(write(fd, text, len), (ssize_t)len);
	close(fd);
	return path;
}

static int mount_from_text(const char *text, char *buf, size_t len)
{
	char *path = write_fixture(text);
	int ret = ss_cgroup_v2_mount_from(path, buf, len);

	unlink(path);
	free(path);
	return ret;
}

Test(ss_cgroup_v2_mount, hybrid_layout)
{
	char buf[PATH_MAX] = "";

	cr_assert_eq(mount_from_text(mi_hybrid, buf, sizeof(buf)), 0);
	cr_expect_str_eq(buf, "/sys/fs/cgroup/unified");
}

Test(ss_cgroup_v2_mount, unified_layout)
{
	char buf[PATH_MAX] = "";

	cr_assert_eq(mount_from_text(mi_unified, buf, sizeof(buf)), 0);
	cr_expect_str_eq(buf, "/sys/fs/cgroup");
}

Test(ss_cgroup_v2_mount, no_cgroup2_is_enoent)
{
	char buf[PATH_MAX] = "untouched";

	cr_expect_eq(mount_from_text(mi_v1_only, buf, sizeof(buf)), -ENOENT);
	cr_expect_eq(mount_from_text("", buf, sizeof(buf)), -ENOENT);
	cr_expect_str_eq(buf, "untouched");
}

Test(ss_cgroup_v2_mount, first_match_with_octal_escapes)
{
	char buf[PATH_MAX] = "";

	cr_assert_eq(mount_from_text(mi_escaped_and_two, buf, sizeof(buf)), 0);
	cr_expect_str_eq(buf, "/mnt/cg two\\x");
}

Test(ss_cgroup_v2_mount, small_buffer_and_missing_file)
{
	char buf[PATH_MAX];

	/* "/sys/fs/cgroup" needs 15 bytes */
	cr_expect_eq(mount_from_text(mi_unified, buf, 14), -ENAMETOOLONG);
	cr_expect_eq(mount_from_text(mi_unified, buf, 15), 0);
	cr_expect_eq(ss_cgroup_v2_mount_from("/nonexistent/mountinfo", buf,
					     sizeof(buf)),
		     -ENOENT);
}

Test(ss_cgroup_v2_mount, this_machine)
{
	char buf[PATH_MAX];
	struct statfs sfs;
	int ret = ss_cgroup_v2_mount(buf, sizeof(buf));

	if (ret == -ENOENT)
		cr_skip_test("no cgroup2 mount on this machine");
	cr_assert_eq(ret, 0, "ss_cgroup_v2_mount: %s", strerror(-ret));
	cr_assert_eq(statfs(buf, &sfs), 0, "%s: %s", buf, strerror(errno));
	cr_expect_eq(sfs.f_type, CGROUP2_SUPER_MAGIC, "%s is not cgroup2", buf);
}

/* ---- ss_container_id_from_path ---- */

#define ID_A "4f1a2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d5e6f708192a3b4c5d6e7f8"
#define ID_B "b7e2c1d0a9f8e7d6c5b4a3928170f6e5d4c3b2a1908f7e6d5c4b3a2918070605"
#define ID_C "0a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f9"
#define POD_UID_SD "pod8d1b3e6a_5b2c_4f7e_9a01_2c3d4e5f6a7b"
#define POD_UID "pod8d1b3e6a-5b2c-4f7e-9a01-2c3d4e5f6a7b"
/* near misses of ID_A: 63 digits, upper case, a non-hex first/last digit */
#define ID_63 "4f1a2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d5e6f708192a3b4c5d6e7f"
#define ID_UP "4F1A2B3C4D5E6F708192A3B4C5D6E7F8091A2B3C4D5E6F708192A3B4C5D6E7F8"
#define ID_G1 "gf1a2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d5e6f708192a3b4c5d6e7f8"
#define ID_Z64 \
	"4f1a2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d5e6f708192a3b4c5d6e7fz"

struct cid_case {
	const char *path;
	const char *want; /* NULL: no container */
};

static const struct cid_case cid_cases[] = {
	{ "/system.slice/docker-" ID_A ".scope", "4f1a2b3c4d5e" },
	{ "/docker/" ID_B, "b7e2c1d0a9f8" },
	{ "/kubepods.slice/kubepods-burstable.slice/"
	  "kubepods-burstable-" POD_UID_SD ".slice/cri-containerd-" ID_C
	  ".scope",
	  "0a1b2c3d4e5f" },
	{ "/kubepods/besteffort/" POD_UID "/" ID_A, "4f1a2b3c4d5e" },
	{ "/kubepods.slice/kubepods-besteffort.slice/"
	  "kubepods-besteffort-" POD_UID_SD ".slice/crio-" ID_B ".scope",
	  "b7e2c1d0a9f8" },
	{ "/machine.slice/libpod-" ID_C ".scope/container", "0a1b2c3d4e5f" },
	{ "/user.slice/user-1000.slice/user@1000.service/user.slice/"
	  "libpod-" ID_A ".scope",
	  "4f1a2b3c4d5e" },
	{ "/kubepods.slice/kubepods-" POD_UID_SD ".slice/docker-" ID_B ".scope",
	  "b7e2c1d0a9f8" },
	/* docker in docker: the innermost container wins */
	{ "/system.slice/docker-" ID_A ".scope/docker/" ID_B, "b7e2c1d0a9f8" },
	/* systemd inside the container */
	{ "/system.slice/docker-" ID_C ".scope/init.scope", "0a1b2c3d4e5f" },
	{ "/sys/fs/cgroup/docker/" ID_A "/", "4f1a2b3c4d5e" },
	{ "docker-" ID_B ".scope", "b7e2c1d0a9f8" },
	{ "/", NULL },
	{ "", NULL },
	{ "/user.slice/user-1000.slice/session-3.scope", NULL },
	{ "/system.slice/containerd.service", NULL },
	{ "/system.slice/docker.service", NULL },
	{ "/kubepods.slice/kubepods-burstable.slice/"
	  "kubepods-burstable-" POD_UID_SD ".slice",
	  NULL },
	/* conmon monitors are not the container */
	{ "/kubepods.slice/kubepods-besteffort.slice/"
	  "kubepods-besteffort-" POD_UID_SD ".slice/crio-conmon-" ID_B ".scope",
	  NULL },
	{ "/machine.slice/libpod-conmon-" ID_C ".scope", NULL },
	/* cgroupfs drivers of CRI-O and podman, nerdctl's systemd scope */
	{ "/kubepods/burstable/" POD_UID "/crio-" ID_B, "b7e2c1d0a9f8" },
	{ "/libpod_parent/libpod-" ID_C, "0a1b2c3d4e5f" },
	{ "/system.slice/nerdctl-" ID_A ".scope", "4f1a2b3c4d5e" },
	{ "/kubepods/burstable/" POD_UID "/crio-conmon-" ID_B, NULL },
	{ "/libpod_parent/libpod-" ID_C "x", NULL },
	{ "/system.slice/docker-" ID_A, NULL },
	{ "/system.slice/nerdctl-" ID_A, NULL },
	/* wrong length, upper case, non-hex digits, wrong prefix or suffix */
	{ "/docker/" ID_63, NULL },
	{ "/docker/" ID_A "0", NULL },
	{ "/docker/" ID_UP, NULL },
	{ "/docker/" ID_G1, NULL },
	{ "/docker/" ID_Z64, NULL },
	{ "/system.slice/docker-" ID_63 "-.scope", NULL },
	{ "/system.slice/docker-" ID_A ".service", NULL },
	{ "/system.slice/docker-" ID_A ".scopex", NULL },
	{ "/system.slice/docker-" ID_A ".mount", NULL },
	{ "/system.slice/docker-" ID_A ".slice", NULL },
	{ "/system.slice/rkt-" ID_A ".scope", NULL },
	{ "/system.slice/podman-" ID_A ".scope", NULL },
	{ "/system.slice/docker_" ID_A ".scope", NULL },
	{ "/system.slice/docker-" ID_G1 ".scope", NULL },
	/*
	 * runc's systemd cgroupsPath "<slice>:<prefix>:<name>" taken literally
	 * as a directory name (containerd with the cgroupfs driver given a
	 * systemd parent, restored pods: spiffe/spire#1580 and PR #1649,
	 * containerd/runwasi#821, ctrox/zeropod#65), at the root, under
	 * kubepods and under system.slice
	 */
	{ "/kubepods-besteffort-" POD_UID_SD ".slice:cri-containerd:" ID_A,
	  "4f1a2b3c4d5e" },
	{ "/kubepods.slice/kubepods-besteffort.slice/"
	  "kubepods-besteffort-" POD_UID_SD
	  ".slice/kubepods-besteffort-" POD_UID_SD
	  ".slice:cri-containerd:" ID_B,
	  "b7e2c1d0a9f8" },
	{ "/system.slice/containerd.service/kubepods-burstable-" POD_UID_SD
	  ".slice:cri-containerd:" ID_C,
	  "0a1b2c3d4e5f" },
	{ "/system.slice/kubepods-" POD_UID_SD ".slice:crio:" ID_A,
	  "4f1a2b3c4d5e" },
	{ "/system.slice/system.slice:docker:" ID_B, "b7e2c1d0a9f8" },
	{ "/machine.slice/machine.slice:libpod:" ID_C, "0a1b2c3d4e5f" },
	{ "/system.slice:nerdctl:" ID_A, "4f1a2b3c4d5e" },
	/* spire's own fixture (k8s_posix.go), with a trailing newline cut */
	{ "/kubepods-besteffort-pod72f7f152_440c_66ac_9084_e0fc1d8a910c.slice:"
	  "cri-containerd:"
	  "b2a102854b4969b2ce98dc329c86b4fb2b06e4ad2cc8da9d8a7578c9cd2004a2",
	  "b2a102854b49" },
	/* colon form: conmon, unknown prefix, bad id, wrong shape */
	{ "/system.slice/kubepods-" POD_UID_SD ".slice:crio-conmon:" ID_A,
	  NULL },
	{ "/system.slice/machine.slice:libpod-conmon:" ID_A, NULL },
	{ "/system.slice/system.slice:rkt:" ID_A, NULL },
	{ "/system.slice/system.slice:docker:" ID_63, NULL },
	{ "/system.slice/system.slice:docker:" ID_A "0", NULL },
	{ "/system.slice/system.slice:docker:" ID_UP, NULL },
	{ "/system.slice/system.slice:docker:" ID_A ".scope", NULL },
	{ "/system.slice/system.slice:docker-" ID_A, NULL },
	{ "/system.slice/a:system.slice:docker:" ID_A, NULL },
	{ "/system.slice/system.slice:docker:" ID_A ":x", NULL },
	{ "/system.slice/system.slice::docker:" ID_A, NULL },
	/* the colon layout's parent, and a .mount unit naming an id */
	{ "/kubepods-besteffort-" POD_UID_SD ".slice", NULL },
	{ "/system.slice/run-containerd-" ID_A ".mount", NULL },
};

Test(container_id, table)
{
	size_t i;

	for (i = 0; i < sizeof(cid_cases) / sizeof(cid_cases[0]); i++) {
		const struct cid_case *c = &cid_cases[i];
		char out[SS_CONTAINER_SHORT_ID_LEN + 1] = "untouched";
		int ret = ss_container_id_from_path(c->path, out, sizeof(out));

		if (c->want) {
			cr_expect_eq(ret, 1, "%s: ret %d", c->path, ret);
			cr_expect_str_eq(out, c->want, "%s: got %s", c->path,
					 out);
		} else {
			cr_expect_eq(ret, 0, "%s: ret %d out %s", c->path, ret,
				     out);
		}
	}
}

Test(container_id, bad_arguments)
{
	char out[SS_CONTAINER_SHORT_ID_LEN + 1];

	cr_expect_eq(ss_container_id_from_path("/docker/" ID_A, out,
					       SS_CONTAINER_SHORT_ID_LEN),
		     -EINVAL);
	cr_expect_eq(ss_container_id_from_path(NULL, out, sizeof(out)),
		     -EINVAL);
	cr_expect_eq(ss_container_id_from_path("/docker/" ID_A, NULL, 13),
		     -EINVAL);
}

/* ---- not a cgroup2 file system ---- */

Test(cgroup_fs, rejects_non_cgroup2)
{
	struct ss_cgroup_cache c;
	uint64_t ids[4];

	cr_expect_eq(ss_cgroup_descendant_ids("/", "/proc", ids, 4), -EINVAL);
	cr_expect_eq(ss_cgroup_open_dir("/", "/proc"), -EINVAL);
	cr_expect_eq(ss_cgroup_cache_init(&c, "/proc"), -EINVAL);
	cr_expect_null(ss_cgroup_path(&c, 1));
	ss_cgroup_cache_free(&c);
}

/* ---- live tests on the real cgroup2 mount ---- */

static char mnt[PATH_MAX];
static char rel_p[128]; /* "/switchstat-test-..." relative to mnt */
static char dir_p[PATH_MAX + 128];
static char dir_a[PATH_MAX + 192], dir_b[PATH_MAX + 192], dir_c[PATH_MAX + 192];

/*
 * Remove directory @name under @dfd and everything below it, deepest first,
 * relative to each parent (paths may exceed PATH_MAX).
 */
static void rm_tree_at(int dfd, const char *name)
{
	struct dirent *de;
	DIR *d;
	int fd = openat(dfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW);

	if (fd < 0)
		return;
	d = fdopendir(fd);
	if (!d) {
		close(fd);
		return;
	}
	while ((de = readdir(d))) {
		if (de->d_type == DT_DIR && strcmp(de->d_name, ".") &&
		    strcmp(de->d_name, ".."))
			rm_tree_at(dirfd(d), de->d_name);
	}
	closedir(d);
	unlinkat(dfd, name, AT_REMOVEDIR);
}

static void live_cleanup(void)
{
	if (!dir_p[0])
		return;
	chmod(dir_c, 0755);
	rm_tree_at(AT_FDCWD, dir_p);
}

/* Remove test cgroups left behind by test processes that crashed. */
static void remove_stale(void)
{
	struct dirent *de;
	DIR *d = opendir(mnt);

	if (!d)
		return;
	while ((de = readdir(d))) {
		char path[PATH_MAX + 300];
		int pid;

		long ns;
		int end = 0;

		/* only this file's own names: switchstat-test-<pid>-<ns> */
		if (sscanf(de->d_name, "switchstat-test-%d-%ld%n", &pid, &ns,
			   &end) != 2 ||
		    de->d_name[end] || kill(pid, 0) == 0 || errno != ESRCH)
			continue;
		snprintf(path, sizeof(path), "%s/%s", mnt, de->d_name);
		rm_tree_at(AT_FDCWD, path);
	}
	closedir(d);
}

static uint64_t ino_of(const char *path)
{
	struct stat st;

	cr_assert_eq(stat(path, &st), 0, "stat %s: %s", path, strerror(errno));
	return (uint64_t)st.st_ino;
}

/* Make P, P/a and P/b under the cgroup2 mount, or skip the test. */
static void live_setup(void)
{
	struct timespec ts;
	int ret;

	if (geteuid() != 0)
		cr_skip_test("needs root to create cgroups");
	ret = ss_cgroup_v2_mount(mnt, sizeof(mnt));
	if (ret)
		cr_skip_test("no cgroup2 mount: %s", strerror(-ret));
	remove_stale();
	clock_gettime(CLOCK_MONOTONIC, &ts);
	snprintf(rel_p, sizeof(rel_p), "/switchstat-test-%d-%ld", getpid(),
		 ts.tv_nsec);
	snprintf(dir_p, sizeof(dir_p), "%s%s", mnt, rel_p);
	snprintf(dir_a, sizeof(dir_a), "%s/a", dir_p);
	snprintf(dir_b, sizeof(dir_b), "%s/b", dir_p);
	snprintf(dir_c, sizeof(dir_c), "%s/c", dir_p);
	if (mkdir(dir_p, 0755)) {
		int e = errno;

		dir_p[0] = '\0';
		if (e == EROFS || e == EACCES || e == EPERM)
			cr_skip_test("cgroup2 at %s not writable: %s", mnt,
				     strerror(e));
		cr_assert_fail("mkdir %s: %s", dir_p, strerror(e));
	}
	cr_assert_eq(mkdir(dir_a, 0755), 0, "mkdir a: %s", strerror(errno));
	cr_assert_eq(mkdir(dir_b, 0755), 0, "mkdir b: %s", strerror(errno));
}

TestSuite(cgroup_live, .fini = live_cleanup);

Test(cgroup_live, path_of_new_cgroups)
{
	struct ss_cgroup_cache c;
	char want[256];
	const char *p;

	live_setup();
	cr_assert_eq(ss_cgroup_cache_init(&c, mnt), 0);
	p = ss_cgroup_path(&c, ino_of(mnt));
	cr_expect(p && !strcmp(p, "/"), "root: %s", p ? p : "(null)");
	p = ss_cgroup_path(&c, ino_of(dir_p));
	cr_expect(p && !strcmp(p, rel_p), "P: %s", p ? p : "(null)");
	snprintf(want, sizeof(want), "%s/a", rel_p);
	p = ss_cgroup_path(&c, ino_of(dir_a));
	cr_expect(p && !strcmp(p, want), "a: %s", p ? p : "(null)");
	snprintf(want, sizeof(want), "%s/b", rel_p);
	p = ss_cgroup_path(&c, ino_of(dir_b));
	cr_expect(p && !strcmp(p, want), "b: %s", p ? p : "(null)");
	cr_expect_null(ss_cgroup_path(&c, 0));
	ss_cgroup_cache_free(&c);
}

Test(cgroup_live, mount_with_trailing_slash)
{
	struct ss_cgroup_cache c;
	char slash[PATH_MAX + 2];
	uint64_t ids[8];
	const char *p;

	live_setup();
	snprintf(slash, sizeof(slash), "%s/", mnt);
	cr_assert_eq(ss_cgroup_cache_init(&c, slash), 0);
	p = ss_cgroup_path(&c, ino_of(dir_p));
	cr_expect(p && !strcmp(p, rel_p), "P: %s", p ? p : "(null)");
	ss_cgroup_cache_free(&c);
	cr_expect_eq(ss_cgroup_descendant_ids(slash, dir_p, ids, 8), 3);
	cr_expect_eq(ss_cgroup_descendant_ids(slash, rel_p, ids, 8), 3);
}

Test(cgroup_live, rescan_on_miss_is_rate_limited)
{
	struct ss_cgroup_cache c;
	uint64_t id_c, gone;
	char want[256];
	const char *p;

	live_setup();
	cr_assert_eq(ss_cgroup_cache_init(&c, mnt), 0);
	cr_assert_eq(mkdir(dir_c, 0755), 0, "mkdir c: %s", strerror(errno));
	id_c = ino_of(dir_c);
	snprintf(want, sizeof(want), "%s/c", rel_p);

	c.rescan_interval_ns = UINT64_MAX; /* scanned just now: no rescan */
	cr_expect_null(ss_cgroup_path(&c, id_c), "rescanned despite the limit");
	c.rescan_interval_ns = 0; /* due: one rescan finds it */
	p = ss_cgroup_path(&c, id_c);
	cr_expect(p && !strcmp(p, want), "c: %s", p ? p : "(null)");

	/* a removed cgroup is not found even after a forced rescan */
	gone = ino_of(dir_b);
	cr_assert_eq(rmdir(dir_b), 0);
	cr_assert_eq(ss_cgroup_cache_rescan(&c), 0);
	cr_expect_null(ss_cgroup_path(&c, gone));
	ss_cgroup_cache_free(&c);
}

Test(cgroup_live, paths_stay_valid_across_rescans)
{
	struct ss_cgroup_cache c;
	const char *pa, *pb, *pc;
	char want_a[256], want_b[256];

	live_setup();
	snprintf(want_a, sizeof(want_a), "%s/a", rel_p);
	snprintf(want_b, sizeof(want_b), "%s/b", rel_p);
	cr_assert_eq(ss_cgroup_cache_init(&c, mnt), 0);
	pa = ss_cgroup_path(&c, ino_of(dir_a));
	pb = ss_cgroup_path(&c, ino_of(dir_b));
	cr_assert(pa && pb);

	/* b goes away, c appears; the miss on c rescans */
	cr_assert_eq(rmdir(dir_b), 0);
	cr_assert_eq(mkdir(dir_c, 0755), 0, "mkdir c: %s", strerror(errno));
	c.rescan_interval_ns = 0;
	pc = ss_cgroup_path(&c, ino_of(dir_c));
	cr_expect_not_null(pc);
	cr_assert_eq(ss_cgroup_cache_rescan(&c), 0);

	cr_expect_eq(ss_cgroup_path(&c, ino_of(dir_a)), pa, "a's string moved");
	cr_expect_str_eq(pa, want_a);
	cr_expect_str_eq(pb, want_b, "b's string freed by the rescan");
	ss_cgroup_cache_free(&c);
	cr_expect_null(c.ents);
	cr_expect_null(c.retired);
}

static bool has_id(const uint64_t *ids, int n, uint64_t id)
{
	int i;

	for (i = 0; i < n; i++) {
		if (ids[i] == id)
			return true;
	}
	return false;
}

Test(cgroup_live, descendant_ids)
{
	uint64_t ids[8], ip, ia, ib;
	char path[PATH_MAX];
	int n;

	live_setup();
	ip = ino_of(dir_p);
	ia = ino_of(dir_a);
	ib = ino_of(dir_b);

	n = ss_cgroup_descendant_ids(mnt, rel_p, ids, 8);
	cr_assert_eq(n, 3, "relative: %d", n);
	cr_expect_eq(ids[0], ip, "own id first");
	cr_expect(has_id(ids, n, ia) && has_id(ids, n, ib));

	cr_expect_eq(ss_cgroup_descendant_ids(mnt, dir_p, ids, 8), 3,
		     "absolute");
	cr_expect_eq(ss_cgroup_descendant_ids(mnt, rel_p + 1, ids, 8), 3,
		     "no leading slash");
	cr_expect_eq(ss_cgroup_descendant_ids(mnt, dir_a, ids, 8), 1);
	cr_expect_eq(ids[0], ia);

	cr_expect_eq(ss_cgroup_descendant_ids(mnt, rel_p, ids, 3), 3);
	cr_expect_eq(ss_cgroup_descendant_ids(mnt, rel_p, ids, 2), -E2BIG);
	snprintf(path, sizeof(path), "%s/nope", rel_p);
	cr_expect_eq(ss_cgroup_descendant_ids(mnt, path, ids, 8), -ENOENT);
	snprintf(path, sizeof(path), "%s/cgroup.procs", rel_p);
	cr_expect_eq(ss_cgroup_descendant_ids(mnt, path, ids, 8), -ENOTDIR);
}

/* fd's inode number, or 0 */
static uint64_t fd_ino(int fd)
{
	struct stat st;

	return fd >= 0 && !fstat(fd, &st) ? st.st_ino : 0;
}

Test(cgroup_live, open_dir)
{
	char path[PATH_MAX];
	int fd;

	live_setup();
	fd = ss_cgroup_open_dir(mnt, rel_p);
	cr_expect_eq(fd_ino(fd), ino_of(dir_p), "relative: %d", fd);
	close(fd);
	fd = ss_cgroup_open_dir(mnt, rel_p + 1);
	cr_expect_eq(fd_ino(fd), ino_of(dir_p), "no leading slash: %d", fd);
	close(fd);
	fd = ss_cgroup_open_dir(mnt, dir_a);
	cr_expect_eq(fd_ino(fd), ino_of(dir_a), "absolute: %d", fd);
	close(fd);
	snprintf(path, sizeof(path), "%s/nope", rel_p);
	cr_expect_eq(ss_cgroup_open_dir(mnt, path), -ENOENT);
	snprintf(path, sizeof(path), "%s/cgroup.procs", rel_p);
	cr_expect_eq(ss_cgroup_open_dir(mnt, path), -ENOTDIR);
}

/*
 * The kernel's cgroup id is what the cgroup2 file handle encodes (kernfs
 * node id); check that it is the inode number that the cache keys on.
 */
Test(cgroup_live, id_is_inode_number)
{
	struct {
		struct file_handle fh;
		unsigned char buf[MAX_HANDLE_SZ];
	} h;
	uint64_t id;
	int mount_id;

	live_setup();
	h.fh.handle_bytes = MAX_HANDLE_SZ;
	cr_assert_eq(name_to_handle_at(AT_FDCWD, dir_a, &h.fh, &mount_id, 0), 0,
		     "name_to_handle_at: %s", strerror(errno));
	cr_assert_eq(h.fh.handle_bytes, sizeof(id));
	memcpy(&id, h.fh.f_handle, sizeof(id));
	cr_expect_eq(id, ino_of(dir_a), "handle id %llu",
		     (unsigned long long)id);
}

/* ---- one unnameable or unreadable subtree must not blind the rest ---- */

#define CHAIN_LEVELS 17
#define CHAIN_NAME_LEN 250

/*
 * Make P/long/<250 bytes>/... CHAIN_LEVELS deep with mkdirat relative to
 * each parent (4306 bytes below P/long, past PATH_MAX); ids[i] and
 * rel_len[i] (bytes of the path relative to the mount) for level i.
 */
static void make_chain(uint64_t *ids, size_t *rel_len)
{
	char name[CHAIN_NAME_LEN + 1];
	size_t len;
	int fd, nfd, i;

	fd = open(dir_p, O_RDONLY | O_DIRECTORY);
	cr_assert_geq(fd, 0);
	cr_assert_eq(mkdirat(fd, "long", 0755), 0, "%s", strerror(errno));
	nfd = openat(fd, "long", O_RDONLY | O_DIRECTORY);
	close(fd);
	fd = nfd;
	len = strlen(rel_p) + strlen("/long");
	for (i = 0; i < CHAIN_LEVELS; i++) {
		memset(name, 'a' + i, CHAIN_NAME_LEN);
		name[CHAIN_NAME_LEN] = '\0';
		cr_assert_eq(mkdirat(fd, name, 0755), 0, "level %d: %s", i,
			     strerror(errno));
		nfd = openat(fd, name, O_RDONLY | O_DIRECTORY);
		cr_assert_geq(nfd, 0, "level %d: %s", i, strerror(errno));
		close(fd);
		fd = nfd;
		ids[i] = fd_ino(fd);
		len += 1 + CHAIN_NAME_LEN;
		rel_len[i] = len;
	}
	close(fd);
}

/* The path of chain level i relative to the mount, in buf. */
static void chain_path(char *buf, int level)
{
	size_t n = (size_t)sprintf(buf, "%s/long", rel_p);

	for (int i = 0; i <= level; i++) {
		buf[n++] = '/';
		memset(buf + n, 'a' + i, CHAIN_NAME_LEN);
		n += CHAIN_NAME_LEN;
	}
	buf[n] = '\0';
}

Test(cgroup_live, path_over_path_max_blinds_nothing_else)
{
	uint64_t ids[CHAIN_LEVELS], many[64], id_c;
	size_t rel_len[CHAIN_LEVELS], mlen = strlen(mnt);
	char want[256], *deep = malloc(8192);
	struct ss_cgroup_cache c;
	int named = 0, n;
	const char *p;

	live_setup();
	cr_assert_not_null(deep);
	make_chain(ids, rel_len);
	cr_assert_eq(ss_cgroup_cache_init(&c, mnt), 0,
		     "one long path failed the whole scan");
	snprintf(want, sizeof(want), "%s/a", rel_p);
	p = ss_cgroup_path(&c, ino_of(dir_a));
	cr_expect(p && !strcmp(p, want), "a: %s", p ? p : "(null)");
	snprintf(want, sizeof(want), "%s/b", rel_p);
	p = ss_cgroup_path(&c, ino_of(dir_b));
	cr_expect(p && !strcmp(p, want), "b: %s", p ? p : "(null)");
	p = ss_cgroup_path(&c, ino_of(mnt));
	cr_expect(p && !strcmp(p, "/"), "root: %s", p ? p : "(null)");
	/* levels whose mount + path fit in PATH_MAX - 1 keep their paths */
	for (int i = 0; i < CHAIN_LEVELS; i++) {
		p = ss_cgroup_path(&c, ids[i]);
		if (mlen + rel_len[i] <= PATH_MAX - 1) {
			chain_path(deep, i);
			cr_expect(p && !strcmp(p, deep), "level %d not named",
				  i);
			named++;
		} else {
			cr_expect_null(p, "level %d: %zu bytes named", i,
				       mlen + rel_len[i]);
		}
	}
	cr_expect(named > 0 && named < CHAIN_LEVELS, "named %d", named);
	/*
	 * counted, and said once with the parent's path and the count (other
	 * tests may make such subtrees elsewhere meanwhile: only ours count)
	 */
	{
		const struct ss_cgroup_skip *k = NULL;
		char *msg = NULL, *want_line;
		size_t msglen = 0;
		int ours = 0;

		cr_expect_geq(c.scan.unnamed, (size_t)(CHAIN_LEVELS - named));
		chain_path(deep, named - 1);
		for (size_t i = 0; i < c.scan.nskips; i++)
			if (!strncmp(c.scan.skips[i].where, rel_p,
				     strlen(rel_p)) &&
			    c.scan.skips[i].where[strlen(rel_p)] == '/') {
				k = &c.scan.skips[i];
				ours++;
			}
		cr_assert_eq(ours, 1, "%d skipped subtrees under P", ours);
		cr_expect_eq(k->err, ENAMETOOLONG);
		cr_expect_eq(k->count, (size_t)(CHAIN_LEVELS - named));
		cr_expect_eq(k->parent_len, strlen(deep));
		cr_expect(!strncmp(k->where, deep, strlen(deep)),
			  "skip not under the last named level");
		cr_expect_eq(ss_cgroup_find(&c, ids[CHAIN_LEVELS - 1], &p), 1,
			     "an unnamed cgroup is not found");
		cr_expect_null(p);
		c.diag = open_memstream(&msg, &msglen);
		cr_assert_not_null(c.diag);
		c.reported_unnamed = 0; /* as if the counts changed */
		cr_assert_eq(ss_cgroup_cache_rescan(&c), 0);
		fclose(c.diag);
		c.diag = NULL;
		cr_assert_geq(asprintf(&want_line,
				       "switchstat: cgroups under %s%s: %d not "
				       "named",
				       mnt, deep, CHAIN_LEVELS - named),
			      0);
		cr_expect(msg && strstr(msg, want_line), "-v line: %s",
			  msg ? msg : "(none)");
		free(want_line);
		free(msg);
	}
	/* a cgroup made after the first scan is found by a rescan */
	cr_assert_eq(mkdir(dir_c, 0755), 0, "mkdir c: %s", strerror(errno));
	id_c = ino_of(dir_c);
	c.rescan_interval_ns = 0;
	snprintf(want, sizeof(want), "%s/c", rel_p);
	p = ss_cgroup_path(&c, id_c);
	cr_expect(p && !strcmp(p, want), "c made later: %s", p ? p : "(null)");
	ss_cgroup_cache_free(&c);
	/* the --cgroup ids walk goes below PATH_MAX too: P a b c long 17 */
	n = ss_cgroup_descendant_ids(mnt, rel_p, many, 64);
	cr_expect_eq(n, 5 + CHAIN_LEVELS, "descendant ids: %d", n);
	cr_expect(n > 0 && has_id(many, n, ids[CHAIN_LEVELS - 1]),
		  "deepest level not among the descendants");
	free(deep);
}

/*
 * A cgroup the scanning user may not read (EACCES) hides only itself. The
 * scan runs in a child that dropped to nobody; P/c is 0700 root.
 */
Test(cgroup_live, unreadable_cgroup_blinds_nothing_else)
{
	char want_a[256], want_b[256];
	int status;
	pid_t pid;

	live_setup();
	snprintf(want_a, sizeof(want_a), "%s/a", rel_p);
	snprintf(want_b, sizeof(want_b), "%s/b", rel_p);
	cr_assert_eq(mkdir(dir_c, 0700), 0, "mkdir c: %s", strerror(errno));
	cr_assert_eq(chmod(dir_c, 0700), 0);
	pid = fork();
	cr_assert_geq(pid, 0);
	if (pid == 0) {
		struct ss_cgroup_cache c;
		const char *pa, *pb;
		int code = 0;

		if (setresgid(65534, 65534, 65534) ||
		    setresuid(65534, 65534, 65534))
			_exit(3);
		if (ss_cgroup_cache_init(&c, mnt))
			_exit(1);
		pa = ss_cgroup_path(&c, ino_of(dir_a));
		pb = ss_cgroup_path(&c, ino_of(dir_b));
		if (!pa || strcmp(pa, want_a) || !pb || strcmp(pb, want_b))
			code = 2;
		else if (c.scan.unread < 1)
			code = 4;
		ss_cgroup_cache_free(&c);
		_exit(code);
	}
	cr_assert_eq(waitpid(pid, &status, 0), pid);
	cr_assert(WIFEXITED(status));
	cr_expect_neq(WEXITSTATUS(status), 1,
		      "one unreadable cgroup failed the whole scan");
	cr_expect_neq(WEXITSTATUS(status), 2, "a or b lost its path");
	cr_expect_neq(WEXITSTATUS(status), 3, "cannot become nobody");
	cr_expect_neq(WEXITSTATUS(status), 4, "c not counted as unread");
}

struct churn {
	volatile int stop;
	volatile int made;
};

/* Make and remove P/c/r0..r9 until told to stop. */
static void *churn_cgroups(void *arg)
{
	struct churn *ch = arg;
	char path[PATH_MAX + 256];

	while (!ch->stop) {
		for (int i = 0; i < 10; i++) {
			snprintf(path, sizeof(path), "%s/r%d", dir_c, i);
			if (!mkdir(path, 0755))
				ch->made++;
		}
		for (int i = 0; i < 10; i++) {
			snprintf(path, sizeof(path), "%s/r%d", dir_c, i);
			rmdir(path);
		}
	}
	return NULL;
}

/* Cgroups removed while a scan walks them (ENOENT) hide nothing else. */
Test(cgroup_live, cgroups_removed_mid_scan_blind_nothing_else)
{
	struct churn ch = { 0 };
	struct ss_cgroup_cache c;
	char want_a[256];
	pthread_t th;
	int bad = 0, scans;

	live_setup();
	snprintf(want_a, sizeof(want_a), "%s/a", rel_p);
	cr_assert_eq(mkdir(dir_c, 0755), 0, "mkdir c: %s", strerror(errno));
	cr_assert_eq(ss_cgroup_cache_init(&c, mnt), 0);
	cr_assert_eq(pthread_create(&th, NULL, churn_cgroups, &ch), 0);
	/* at least 300 scans, and until the churner has made 100 cgroups
	 * (it may not have run at all during 300 quick scans) */
	for (scans = 0; (scans < 300 || ch.made < 100) && scans < 1000000;
	     scans++) {
		const char *p;

		if (ss_cgroup_cache_rescan(&c) ||
		    !(p = ss_cgroup_path(&c, ino_of(dir_a))) ||
		    strcmp(p, want_a))
			bad++;
		for (size_t i = 0; i < c.scan.nskips; i++)
			if (!strncmp(c.scan.skips[i].where, rel_p,
				     strlen(rel_p)))
				bad++; /* a removed cgroup counted as unread */
	}
	ch.stop = 1;
	pthread_join(th, NULL);
	cr_expect_eq(bad, 0, "%d of %d scans lost a or failed", bad, scans);
	cr_expect_gt(ch.made, 0, "no cgroups churned");
	ss_cgroup_cache_free(&c);
}
