// SPDX-License-Identifier: GPL-2.0
/*
 * cgroup.c - cgroup v2 mount discovery, id <-> path cache, --cgroup filter
 * ids and container ids from cgroup paths.
 */
#define _GNU_SOURCE
#include "cgroup.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <time.h>
#include <unistd.h>
#include <linux/magic.h>

#define CONTAINER_ID_HEX_LEN 64

/* Decode proc(5) mountinfo octal escapes ("\040" for a blank) in place. */
static void unescape_octal(char *s)
{
	char *w = s;

	while (*s) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' && s[2] >= '0' &&
		    s[2] <= '7' && s[3] >= '0' && s[3] <= '7') {
			*w++ = (char)((s[1] - '0') << 6 | (s[2] - '0') << 3 |
				      (s[3] - '0'));
			s += 4;
		} else {
			*w++ = *s++;
		}
	}
	*w = '\0';
}

/*
 * Mount point of one mountinfo line if its fs type is cgroup2, else NULL.
 * Fields: id parent maj:min root mountpoint opts [optional...] - type src
 */
static char *cgroup2_mount_point(char *line)
{
	char *save = NULL, *tok, *mnt = NULL;
	int field = 0;
	bool sep = false;

	line[strcspn(line, "\n")] = '\0';
	for (tok = strtok_r(line, " ", &save); tok;
	     tok = strtok_r(NULL, " ", &save), field++) {
		if (field == 4)
			mnt = tok;
		else if (field >= 6 && !sep && !strcmp(tok, "-"))
			sep = true;
		else if (sep)
			return mnt && !strcmp(tok, "cgroup2") ? mnt : NULL;
	}
	return NULL;
}

int ss_cgroup_v2_mount_from(const char *mountinfo_path, char *buf, size_t len)
{
	char *line = NULL;
	size_t cap = 0;
	int ret = -ENOENT;
	FILE *f;

	if (!buf || !len)
		return -EINVAL;
	f = fopen(mountinfo_path, "re");
	if (!f)
		return -errno;
	while (getline(&line, &cap, f) > 0) {
		char *mnt = cgroup2_mount_point(line);

		if (!mnt)
			continue;
		unescape_octal(mnt);
		if (strlen(mnt) >= len) {
			ret = -ENAMETOOLONG;
		} else {
			strcpy(buf, mnt);
			ret = 0;
		}
		break;
	}
	free(line);
	fclose(f);
	return ret;
}

int ss_cgroup_v2_mount(char *buf, size_t len)
{
	return ss_cgroup_v2_mount_from("/proc/self/mountinfo", buf, len);
}

/* Copy @mount without trailing slashes ("/" stays "/"). */
static int copy_mount(char *dst, size_t dstlen, const char *mount)
{
	size_t n = strlen(mount);

	while (n > 1 && mount[n - 1] == '/')
		n--;
	if (n >= dstlen)
		return -ENAMETOOLONG;
	memcpy(dst, mount, n);
	dst[n] = '\0';
	return 0;
}

/*
 * Called once per cgroup with its id and its path relative to the walk root,
 * or NULL when the cgroup is not named (its path would be too long). A
 * non-zero return ends the walk with that value.
 */
typedef int (*walk_cb)(void *arg, uint64_t id, const char *path);

struct walk_ctx {
	walk_cb cb;
	void *arg;
	char *path; /* PATH_MAX bytes: the relative path of the current dir */
	size_t name_max; /* longest relative path that is named */
	size_t visited; /* cgroups passed to cb */
	struct ss_cgroup_scan *scan; /* what was skipped; may be NULL */
};

/*
 * Note one skipped subtree: @count cgroups under the named cgroup at
 * ctx->path[0, len) (child @name) that have no path (@err ENAMETOOLONG) or
 * could not be read (@err the errno).
 */
static void note_skip(struct walk_ctx *ctx, size_t len, const char *name,
		      int err, size_t count)
{
	struct ss_cgroup_scan *sc = ctx->scan;
	struct ss_cgroup_skip *k;

	if (!sc)
		return;
	if (err == ENAMETOOLONG)
		sc->unnamed += count;
	else
		sc->unread += count;
	if (sc->nskips == SS_CGROUP_MAX_SKIPS) {
		sc->skips_left_off++;
		return;
	}
	k = &sc->skips[sc->nskips];
	if (asprintf(&k->where, "%.*s/%s", (int)len, ctx->path, name) < 0) {
		k->where = NULL;
		sc->skips_left_off++;
		return;
	}
	k->parent_len = len ? len : 1; /* "/" for the walk root */
	k->err = err;
	k->count = count;
	sc->nskips++;
}

/*
 * Pre-order walk of the directory tree at @fd (owned, closed here), which is
 * named ctx->path[0, len) when @named. Children are opened relative to their
 * parent (openat), so depth is not limited by PATH_MAX; a child whose path
 * would exceed ctx->name_max is walked unnamed (counted as one skipped
 * subtree). One entry that cannot be opened, read or listed (EACCES,
 * EMFILE, ...) is skipped and counted, and the walk goes on; one removed
 * during the walk (ENOENT) is skipped silently. Returns 0, or what the
 * callback returned (-ENOMEM, -E2BIG).
 */
static int walk(struct walk_ctx *ctx, int fd, size_t len, bool named)
{
	struct dirent *de;
	struct stat st;
	DIR *d;
	int ret;

	if (fstat(fd, &st)) {
		close(fd);
		return 0; /* the caller counts it: see below */
	}
	ctx->visited++;
	ret = ctx->cb(ctx->arg, (uint64_t)st.st_ino,
		      !named ? NULL
		      : len  ? ctx->path
			     : "/");
	if (ret) {
		close(fd);
		return ret;
	}
	d = fdopendir(fd);
	if (!d) {
		if (named)
			note_skip(ctx, len, "*", errno, 1);
		close(fd);
		return 0;
	}
	for (;;) {
		size_t nlen, before;
		bool child_named;
		int cfd;

		errno = 0;
		de = readdir(d);
		if (!de) {
			if (errno && named && errno != ENOENT)
				note_skip(ctx, len, "*", errno, 1);
			break;
		}
		if (de->d_type != DT_DIR && de->d_type != DT_UNKNOWN)
			continue;
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		nlen = strlen(de->d_name);
		cfd = openat(dirfd(d), de->d_name,
			     O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (cfd < 0) {
			if (errno != ENOENT && errno != ENOTDIR && named)
				note_skip(ctx, len, de->d_name, errno, 1);
			continue;
		}
		child_named = named && len + 1 + nlen <= ctx->name_max;
		before = ctx->visited;
		if (child_named) {
			ctx->path[len] = '/';
			memcpy(ctx->path + len + 1, de->d_name, nlen + 1);
			ret = walk(ctx, cfd, len + 1 + nlen, true);
			ctx->path[len] = '\0';
		} else {
			ret = walk(ctx, cfd, len, false);
			if (named) /* the top of an unnamed subtree */
				note_skip(ctx, len, de->d_name, ENAMETOOLONG,
					  ctx->visited - before);
		}
		if (ret)
			break;
	}
	closedir(d);
	return ret;
}

/*
 * Open @dir and walk it, naming paths of up to @name_max bytes; what was
 * skipped goes to @scan (may be NULL). Returns 0, -errno for @dir itself
 * (-EINVAL: not cgroup2) or what the callback returned.
 */
static int walk_from(const char *dir, size_t name_max, walk_cb cb, void *arg,
		     struct ss_cgroup_scan *scan)
{
	struct walk_ctx ctx = { .cb = cb, .arg = arg, .scan = scan };
	struct statfs sfs;
	int fd, ret;

	ctx.path = malloc(PATH_MAX);
	if (!ctx.path)
		return -ENOMEM;
	ctx.path[0] = '\0';
	ctx.name_max = name_max < PATH_MAX - 1 ? name_max : PATH_MAX - 1;
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0) {
		ret = -errno;
		goto out;
	}
	if (fstatfs(fd, &sfs)) {
		ret = -errno;
		close(fd);
		goto out;
	}
	if (sfs.f_type != CGROUP2_SUPER_MAGIC) {
		ret = -EINVAL;
		close(fd);
		goto out;
	}
	ret = walk(&ctx, fd, 0, true);
	if (!ret && !ctx.visited)
		ret = -EIO; /* the root itself could not be read */
out:
	free(ctx.path);
	return ret;
}

void ss_cgroup_scan_free(struct ss_cgroup_scan *sc)
{
	for (size_t i = 0; i < sc->nskips; i++)
		free(sc->skips[i].where);
	memset(sc, 0, sizeof(*sc));
}

struct entry_vec {
	struct ss_cgroup_entry *ents;
	size_t n, cap;
};

static int collect_entry(void *arg, uint64_t id, const char *path)
{
	struct entry_vec *v = arg;
	char *p;

	if (v->n == v->cap) {
		size_t cap = v->cap ? v->cap * 2 : 64;
		struct ss_cgroup_entry *e = realloc(v->ents, cap * sizeof(*e));

		if (!e)
			return -ENOMEM;
		v->ents = e;
		v->cap = cap;
	}
	p = NULL;
	if (path && !(p = strdup(path)))
		return -ENOMEM;
	v->ents[v->n].id = id;
	v->ents[v->n].path = p;
	v->n++;
	return 0;
}

static void free_entries(struct ss_cgroup_entry *ents, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(ents[i].path);
	free(ents);
}

static int cmp_entry(const void *a, const void *b)
{
	const struct ss_cgroup_entry *x = a, *y = b;

	return x->id < y->id ? -1 : x->id > y->id;
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

/*
 * Give entries of @v whose id and path are unchanged the old strings, so
 * pointers handed out by ss_cgroup_path() stay valid; move the old strings
 * no longer used to c->retired. Both arrays are sorted by id.
 */
static int keep_old_paths(struct ss_cgroup_cache *c, struct entry_vec *v)
{
	size_t i, j = 0;

	/* reserve room for the worst case: every old path retired */
	if (c->retired_cap - c->nretired < c->n) {
		size_t cap = c->nretired + c->n;
		char **r = realloc(c->retired, cap * sizeof(*r));

		if (!r)
			return -ENOMEM;
		c->retired = r;
		c->retired_cap = cap;
	}
	for (i = 0; i < c->n; i++) {
		struct ss_cgroup_entry *old = &c->ents[i];

		while (j < v->n && v->ents[j].id < old->id)
			j++;
		if (!old->path)
			continue;
		if (j < v->n && v->ents[j].id == old->id && v->ents[j].path &&
		    !strcmp(v->ents[j].path, old->path)) {
			free(v->ents[j].path);
			v->ents[j].path = old->path;
		} else {
			c->retired[c->nretired++] = old->path;
		}
		old->path = NULL;
	}
	return 0;
}

/* Say what the last scan could not name, if it differs from before. */
static void report_skips(struct ss_cgroup_cache *c)
{
	const struct ss_cgroup_scan *sc = &c->scan;

	if (!c->diag || (sc->unnamed == c->reported_unnamed &&
			 sc->unread == c->reported_unread))
		return;
	c->reported_unnamed = sc->unnamed;
	c->reported_unread = sc->unread;
	for (size_t i = 0; i < sc->nskips; i++) {
		const struct ss_cgroup_skip *k = &sc->skips[i];

		if (k->err == ENAMETOOLONG)
			fprintf(c->diag,
				"switchstat: cgroups under %s%.*s: %zu not "
				"named (subtree %s: path over %d bytes), "
				"shown by id\n",
				c->mount, (int)k->parent_len, k->where,
				k->count, k->where + k->parent_len + 1,
				PATH_MAX - 1);
		else
			fprintf(c->diag,
				"switchstat: cgroups under %s%.*s: %s "
				"not read (%s), shown by id\n",
				c->mount, (int)k->parent_len, k->where,
				k->where + k->parent_len + 1, strerror(k->err));
	}
	if (sc->skips_left_off)
		fprintf(c->diag,
			"switchstat: %zu more cgroup subtrees not named\n",
			sc->skips_left_off);
}

void ss_cgroup_cache_set_diag(struct ss_cgroup_cache *c, FILE *f)
{
	c->diag = f;
	c->reported_unnamed = c->reported_unread = 0;
	report_skips(c);
}

int ss_cgroup_cache_rescan(struct ss_cgroup_cache *c)
{
	struct ss_cgroup_scan scan = { 0 };
	struct entry_vec v = { 0 };
	size_t mlen = strlen(c->mount);
	int ret;

	c->last_scan_ns = now_ns();
	/* a named path must fit, with the mount, in PATH_MAX */
	ret = walk_from(c->mount, PATH_MAX - 1 - mlen, collect_entry, &v,
			&scan);
	if (!ret) {
		qsort(v.ents, v.n, sizeof(*v.ents), cmp_entry);
		ret = keep_old_paths(c, &v);
	}
	if (ret) {
		free_entries(v.ents, v.n);
		ss_cgroup_scan_free(&scan);
		return ret;
	}
	free(c->ents);
	c->ents = v.ents;
	c->n = v.n;
	ss_cgroup_scan_free(&c->scan);
	c->scan = scan;
	report_skips(c);
	return 0;
}

int ss_cgroup_cache_init(struct ss_cgroup_cache *c, const char *mount)
{
	int ret;

	memset(c, 0, sizeof(*c));
	c->rescan_interval_ns = SS_CGROUP_RESCAN_INTERVAL_NS;
	ret = copy_mount(c->mount, sizeof(c->mount), mount);
	if (ret)
		return ret;
	return ss_cgroup_cache_rescan(c);
}

static const struct ss_cgroup_entry *lookup(const struct ss_cgroup_cache *c,
					    uint64_t id)
{
	struct ss_cgroup_entry key = { .id = id };

	if (!c->n)
		return NULL;
	return bsearch(&key, c->ents, c->n, sizeof(*c->ents), cmp_entry);
}

int ss_cgroup_find(struct ss_cgroup_cache *c, uint64_t id, const char **path)
{
	const struct ss_cgroup_entry *e;

	*path = NULL;
	if (id == 0)
		return 0; /* no inode 0: never worth a rescan */
	e = lookup(c, id);
	if (!e && now_ns() - c->last_scan_ns >= c->rescan_interval_ns &&
	    !ss_cgroup_cache_rescan(c))
		e = lookup(c, id);
	if (!e)
		return 0;
	*path = e->path;
	return 1;
}

const char *ss_cgroup_path(struct ss_cgroup_cache *c, uint64_t id)
{
	const char *p;

	ss_cgroup_find(c, id, &p);
	return p;
}

void ss_cgroup_cache_free(struct ss_cgroup_cache *c)
{
	size_t i;

	free_entries(c->ents, c->n);
	c->ents = NULL;
	c->n = 0;
	for (i = 0; i < c->nretired; i++)
		free(c->retired[i]);
	free(c->retired);
	c->retired = NULL;
	c->nretired = c->retired_cap = 0;
	ss_cgroup_scan_free(&c->scan);
}

struct id_vec {
	uint64_t *ids;
	int n, max;
};

static int collect_id(void *arg, uint64_t id, const char *path)
{
	struct id_vec *v = arg;

	(void)path;
	if (v->n == v->max)
		return -E2BIG;
	v->ids[v->n++] = id;
	return 0;
}

/*
 * The absolute path of a --cgroup argument (see ss_cgroup_descendant_ids), in
 * *full (malloc'd).  Returns 0, -ENOMEM or -ENAMETOOLONG.
 */
static int full_path(const char *mount, const char *path, char **full)
{
	char mnt[PATH_MAX];
	size_t mlen;
	int ret;

	ret = copy_mount(mnt, sizeof(mnt), mount);
	if (ret)
		return ret;
	mlen = strlen(mnt);
	if (!strncmp(path, mnt, mlen) &&
	    (path[mlen] == '/' || path[mlen] == '\0' || mlen == 1)) {
		*full = strdup(path);
	} else {
		while (*path == '/')
			path++;
		if (asprintf(full, "%s/%s", mnt, path) < 0)
			*full = NULL;
	}
	if (!*full)
		return -ENOMEM;
	if (strlen(*full) >= PATH_MAX) {
		free(*full);
		*full = NULL;
		return -ENAMETOOLONG;
	}
	return 0;
}

int ss_cgroup_descendant_ids(const char *mount, const char *path, uint64_t *ids,
			     int max)
{
	struct id_vec v = { .ids = ids, .max = max };
	char *full;
	int ret;

	ret = full_path(mount, path, &full);
	if (ret)
		return ret;
	ret = walk_from(full, PATH_MAX - 1, collect_id, &v, NULL);
	free(full);
	return ret ? ret : v.n;
}

int ss_cgroup_open_dir(const char *mount, const char *path)
{
	struct statfs sfs;
	char *full;
	int fd, ret;

	ret = full_path(mount, path, &full);
	if (ret)
		return ret;
	fd = open(full, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	ret = fd < 0 ? -errno : 0;
	free(full);
	if (ret)
		return ret;
	if (fstatfs(fd, &sfs) || sfs.f_type != CGROUP2_SUPER_MAGIC) {
		close(fd);
		return -EINVAL;
	}
	return fd;
}

static bool is_hex64(const char *s)
{
	int i;

	for (i = 0; i < CONTAINER_ID_HEX_LEN; i++) {
		if (!((s[i] >= '0' && s[i] <= '9') ||
		      (s[i] >= 'a' && s[i] <= 'f')))
			return false;
	}
	return true;
}

/*
 * The runtimes' prefixes in both systemd forms: "<prefix>-<id>.scope" and
 * runc's cgroupsPath "<slice>:<prefix>:<id>". Monitor scopes
 * (crio-conmon-, libpod-conmon-) are not in the list, so they never match.
 */
static const char *const runtime_prefixes[] = {
	"docker", "cri-containerd", "crio", "libpod", "nerdctl",
};

#define NR_RUNTIMES (sizeof(runtime_prefixes) / sizeof(runtime_prefixes[0]))

static bool is_runtime(const char *s, size_t len)
{
	size_t i;

	for (i = 0; i < NR_RUNTIMES; i++)
		if (strlen(runtime_prefixes[i]) == len &&
		    !strncmp(s, runtime_prefixes[i], len))
			return true;
	return false;
}

/*
 * "<slice>:<prefix>:<id>" in one component [s, s + len): runc's systemd
 * cgroupsPath (opencontainers/runtime-spec config-linux.md "cgroupsPath";
 * containerd's CRI plugin builds it as "<pod>.slice:cri-containerd:<id>")
 * made literally as a directory when the runtime uses the cgroupfs driver
 * with a systemd parent. spire's k8s attestor accepts it since PR #1649
 * (issue #1580: "...pod72f7..._slice:cri-containerd:<id>"); cAdvisor's
 * containerd and crio factories take any 64 hex digits in the last
 * component (container/containerd/factory.go containerdCgroupRegexp), with
 * crio-conmon excluded (container/crio/factory.go CanHandleAndAccept). Here:
 * exactly two colons, a known runtime prefix between them, and exactly 64
 * lowercase hex digits after the second.
 */
static const char *colon_form_id(const char *s, size_t len)
{
	const char *c1 = memchr(s, ':', len), *c2;
	size_t rest;

	if (!c1)
		return NULL;
	rest = len - (size_t)(c1 + 1 - s);
	c2 = memchr(c1 + 1, ':', rest);
	if (!c2 || memchr(c2 + 1, ':', len - (size_t)(c2 + 1 - s)))
		return NULL;
	if (!is_runtime(c1 + 1, (size_t)(c2 - c1 - 1)))
		return NULL;
	if (len - (size_t)(c2 + 1 - s) != CONTAINER_ID_HEX_LEN)
		return NULL;
	return is_hex64(c2 + 1) ? c2 + 1 : NULL;
}

/*
 * Container id inside one path component [s, s + len), or NULL. The forms
 * are the ones kubelet's cgroup drivers, cAdvisor's docker, containerd,
 * crio and podman handlers and spire's attestor recognise (see cgroup.h).
 */
static const char *component_id(const char *s, size_t len)
{
	/* cgroupfs drivers of CRI-O and podman: <prefix><id> */
	static const char *const bare[] = { "crio-", "libpod-" };
	size_t i;

	if (len == CONTAINER_ID_HEX_LEN)
		return is_hex64(s) ? s : NULL;
	if (memchr(s, ':', len))
		return colon_form_id(s, len);
	/* systemd driver: <prefix>-<id>.scope */
	for (i = 0; i < NR_RUNTIMES; i++) {
		size_t plen = strlen(runtime_prefixes[i]);

		if (len != plen + 1 + CONTAINER_ID_HEX_LEN + strlen(".scope") ||
		    strncmp(s, runtime_prefixes[i], plen) || s[plen] != '-' ||
		    strncmp(s + len - strlen(".scope"), ".scope", 6))
			continue;
		if (is_hex64(s + plen + 1))
			return s + plen + 1;
	}
	for (i = 0; i < sizeof(bare) / sizeof(bare[0]); i++) {
		size_t plen = strlen(bare[i]);

		if (len == plen + CONTAINER_ID_HEX_LEN &&
		    !strncmp(s, bare[i], plen) && is_hex64(s + plen))
			return s + plen;
	}
	return NULL;
}

int ss_container_id_from_path(const char *path, char *out, size_t outlen)
{
	size_t end;

	if (!path || !out || outlen < SS_CONTAINER_SHORT_ID_LEN + 1)
		return -EINVAL;
	end = strlen(path);
	while (end > 0) {
		size_t start = end;
		const char *id;

		while (start > 0 && path[start - 1] != '/')
			start--;
		id = component_id(path + start, end - start);
		if (id) {
			memcpy(out, id, SS_CONTAINER_SHORT_ID_LEN);
			out[SS_CONTAINER_SHORT_ID_LEN] = '\0';
			return 1;
		}
		end = start ? start - 1 : 0;
	}
	return 0;
}
