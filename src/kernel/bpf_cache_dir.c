// SPDX-License-Identifier: GPL-2.0
/*
 * bpf_cache_dir.c - the compiled-BPF cache's directory and files
 * (bpf_cache.h): who may own them, reading, writing in place atomically,
 * pruning the least recently used.
 */
#include "bpf_cache.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* ---- the directory and its files ---------------------------------------- */

/* ss_cache_dir_open - see bpf_cache.h */
int ss_cache_dir_open(const char *path, char *why, size_t whylen)
{
	uid_t euid = geteuid();
	const char *p = path;
	char comp[NAME_MAX + 1];
	struct stat st;
	int fd, nfd;

	if (path[0] != '/') {
		snprintf(why, whylen, "%s is not an absolute path", path);
		return -1;
	}
	fd = open("/", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0) {
		snprintf(why, whylen, "/: %s", strerror(errno));
		return -1;
	}
	for (;;) {
		size_t n;

		while (*p == '/')
			p++;
		if (!*p)
			break;
		n = strcspn(p, "/");
		if (n >= sizeof(comp)) {
			snprintf(why, whylen, "%s: a name too long", path);
			goto fail;
		}
		memcpy(comp, p, n);
		comp[n] = '\0';
		p += n;
		if (!strcmp(comp, "."))
			continue;
		if (!strcmp(comp, "..")) {
			snprintf(why, whylen, "%s has a .. component", path);
			goto fail;
		}
		/*
		 * the directory it is in: root's or ours, and no one else
		 * may rename what is in it (a sticky /tmp is fine)
		 */
		if (fstat(fd, &st)) {
			snprintf(why, whylen, "%s: %s", path, strerror(errno));
			goto fail;
		}
		if ((st.st_uid != 0 && st.st_uid != euid) ||
		    ((st.st_mode & (S_IWGRP | S_IWOTH)) &&
		     !(st.st_mode & S_ISVTX))) {
			snprintf(why, whylen,
				 "the directory holding %s in %s is not "
				 "root's or uid %u's alone",
				 comp, path, (unsigned)euid);
			goto fail;
		}
		nfd = openat(fd, comp,
			     O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (nfd < 0 && errno == ENOENT) {
			if (mkdirat(fd, comp, 0700) && errno != EEXIST) {
				snprintf(why, whylen, "cannot create %s: %s",
					 path, strerror(errno));
				goto fail;
			}
			nfd = openat(fd, comp,
				     O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
					     O_CLOEXEC);
		}
		if (nfd < 0) {
			int e = errno;

			if (!fstatat(fd, comp, &st, AT_SYMLINK_NOFOLLOW) &&
			    S_ISLNK(st.st_mode))
				snprintf(why, whylen,
					 "%s: %s in it is a symlink", path,
					 comp);
			else
				snprintf(why, whylen, "%s: %s", path,
					 strerror(e));
			goto fail;
		}
		close(fd);
		fd = nfd;
	}
	if (fstat(fd, &st)) {
		snprintf(why, whylen, "%s: %s", path, strerror(errno));
		goto fail;
	}
	if (st.st_uid != euid) {
		snprintf(why, whylen, "%s belongs to uid %u, not %u", path,
			 (unsigned)st.st_uid, (unsigned)euid);
		goto fail;
	}
	if (st.st_mode & (S_IWGRP | S_IWOTH)) {
		snprintf(why, whylen, "%s is group/other writable (mode %03o)",
			 path, (unsigned)(st.st_mode & 0777));
		goto fail;
	}
	return fd;
fail:
	close(fd);
	return -1;
}

static bool is_key_name(const char *s)
{
	size_t n = 0;

	for (; s[n]; n++)
		if (!((s[n] >= '0' && s[n] <= '9') ||
		      (s[n] >= 'a' && s[n] <= 'f')))
			return false;
	return n == SS_CACHE_KEY_HEX;
}

/* ss_cache_read - see bpf_cache.h */
int ss_cache_read(int dirfd, const char *key, struct ss_cache_mod *m, char *why,
		  size_t whylen)
{
	int fd = openat(dirfd, key,
			O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	struct stat st;
	uint8_t *buf;
	size_t got = 0;
	int ret = -1;

	memset(m, 0, sizeof(*m));
	if (fd < 0 && errno == ENOENT)
		return 0;
	if (fd < 0) {
		snprintf(why, whylen, "%s", strerror(errno));
		return -1;
	}
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) || st.st_uid != geteuid() ||
	    (st.st_mode & (S_IWGRP | S_IWOTH))) {
		snprintf(why, whylen,
			 "not a regular file of uid %u, or group/other "
			 "writable",
			 (unsigned)geteuid());
		close(fd);
		return -1;
	}
	if (st.st_size > SS_CACHE_MAX_FILE) {
		snprintf(why, whylen, "%lld bytes", (long long)st.st_size);
		close(fd);
		return -1;
	}
	buf = malloc(st.st_size ? st.st_size : 1);
	if (!buf) {
		snprintf(why, whylen, "out of memory");
		close(fd);
		return -1;
	}
	while (got < (size_t)st.st_size) {
		ssize_t r = read(fd, buf + got, st.st_size - got);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		got += r;
	}
	close(fd);
	if (got != (size_t)st.st_size)
		snprintf(why, whylen, "short read");
	else if (!ss_cache_parse(buf, got, m, why, whylen)) {
		if (strcmp(m->key, key)) {
			snprintf(why, whylen, "holds key %.12s...", m->key);
			ss_cache_mod_free(m);
		} else {
			ret = 1;
		}
	}
	free(buf);
	return ret;
}

struct cache_file {
	char name[SS_CACHE_KEY_HEX + 1];
	struct timespec mtime;
};

static int older_first(const void *a, const void *b)
{
	const struct cache_file *x = a, *y = b;

	if (x->mtime.tv_sec != y->mtime.tv_sec)
		return x->mtime.tv_sec < y->mtime.tv_sec ? -1 : 1;
	if (x->mtime.tv_nsec != y->mtime.tv_nsec)
		return x->mtime.tv_nsec < y->mtime.tv_nsec ? -1 : 1;
	return strcmp(x->name, y->name);
}

#define TMP_PREFIX ".tmp-"
#define TMP_STALE_S 3600 /* a temporary file older is a crash's */

/* Keep @keep cache files in @dirfd, the newest; stale temporaries go. */
/*
 * Whether directory entry @name (@st: its lstat) is a file this cache
 * wrote: a regular file of the effective uid that starts with the cache
 * file magic (a temporary file too, once it has its first 8 bytes).  The
 * pruning removes nothing else, in whatever directory it is pointed at.
 */
static bool ours(int dirfd, const char *name, const struct stat *st)
{
	char head[8];
	int fd;
	ssize_t n;

	if (!S_ISREG(st->st_mode) || st->st_uid != geteuid())
		return false;
	fd = openat(dirfd, name,
		    O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return false;
	n = read(fd, head, sizeof(head));
	close(fd);
	return n == (ssize_t)sizeof(head) && ss_cache_has_magic(head, n);
}

/* a name ss_cache_write gives a temporary file: TMP_PREFIX, 16 hex digits */
static bool is_tmp_name(const char *s)
{
	size_t p = strlen(TMP_PREFIX);

	if (strncmp(s, TMP_PREFIX, p) || strlen(s) != p + 16)
		return false;
	for (s += p; *s; s++)
		if (!((*s >= '0' && *s <= '9') || (*s >= 'a' && *s <= 'f')))
			return false;
	return true;
}

/*
 * Keep at most @keep cache files in @dirfd: the least recently used (mtime)
 * go first, but never @spare (the one just written: with the clock set
 * back, the newest file has the oldest mtime).  Only the cache's own files
 * count and go (ours); a temporary one of a crashed start goes once it is
 * an hour old.
 */
static void prune(int dirfd, int keep, const char *spare)
{
	struct cache_file *files = NULL;
	size_t n = 0, cap = 0;
	/* its own open file: a dup would share (and leave) dirfd's offset */
	int dfd = openat(dirfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	DIR *d = dfd >= 0 ? fdopendir(dfd) : NULL;
	struct dirent *e;
	time_t now = time(NULL);

	if (!d) {
		if (dfd >= 0)
			close(dfd);
		return;
	}
	while ((e = readdir(d))) {
		struct stat st;

		if (fstatat(dirfd, e->d_name, &st, AT_SYMLINK_NOFOLLOW))
			continue;
		if (is_tmp_name(e->d_name)) {
			if (now - st.st_mtime > TMP_STALE_S &&
			    ours(dirfd, e->d_name, &st))
				unlinkat(dirfd, e->d_name, 0);
			continue;
		}
		if (!is_key_name(e->d_name) || !strcmp(e->d_name, spare) ||
		    !ours(dirfd, e->d_name, &st))
			continue;
		if (n == cap) {
			struct cache_file *f;

			cap = cap ? 2 * cap : 64;
			f = realloc(files, cap * sizeof(*files));
			if (!f)
				break;
			files = f;
		}
		memcpy(files[n].name, e->d_name, sizeof(files[n].name));
		files[n++].mtime = st.st_mtim;
	}
	closedir(d);
	/* the spare one counts: keep - 1 others */
	if (keep > 0 && n > (size_t)keep - 1) {
		qsort(files, n, sizeof(*files), older_first);
		for (size_t i = 0; i < n - (keep - 1); i++)
			unlinkat(dirfd, files[i].name, 0);
	}
	free(files);
}

/* ss_cache_write - see bpf_cache.h */
int ss_cache_write(int dirfd, const struct ss_cache_mod *m, int keep, char *why,
		   size_t whylen)
{
	char tmp[64];
	size_t len, off = 0;
	uint8_t *buf = ss_cache_serialize(m, &len);
	int fd = -1;

	if (!buf) {
		snprintf(why, whylen, "out of memory or over the limits");
		return -1;
	}
	/*
	 * mkstemp's O_EXCL create with a random name, but in the checked
	 * directory's fd rather than by its path again
	 */
	for (int tries = 0; fd < 0 && tries < 16; tries++) {
		uint64_t r = 0;

		if (getrandom(&r, sizeof(r), 0) != sizeof(r))
			r = ((uint64_t)getpid() << 32) ^ (uint64_t)time(NULL) ^
			    (uint64_t)tries;
		snprintf(tmp, sizeof(tmp), TMP_PREFIX "%016llx",
			 (unsigned long long)r);
		fd = openat(dirfd, tmp,
			    O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW |
				    O_CLOEXEC,
			    0600);
		if (fd < 0 && errno != EEXIST)
			break;
	}
	if (fd < 0) {
		snprintf(why, whylen, "cannot create a file: %s",
			 strerror(errno));
		free(buf);
		return -1;
	}
	while (off < len) {
		ssize_t w = write(fd, buf + off, len - off);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			break;
		off += w;
	}
	free(buf);
	if (off != len || fsync(fd)) {
		snprintf(why, whylen, "cannot write: %s", strerror(errno));
		close(fd);
		unlinkat(dirfd, tmp, 0);
		return -1;
	}
	close(fd);
	if (renameat(dirfd, tmp, dirfd, m->key)) {
		snprintf(why, whylen, "cannot rename: %s", strerror(errno));
		unlinkat(dirfd, tmp, 0);
		return -1;
	}
	prune(dirfd, keep, m->key);
	return 0;
}
