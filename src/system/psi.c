// SPDX-License-Identifier: GPL-2.0
/* psi.c - see psi.h */
#include "psi.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* ss_psi_parse_some - see psi.h */
int ss_psi_parse_some(const char *text, uint64_t *total_us)
{
	const char *l = text;

	while (l && *l) {
		const char *t;

		if (!strncmp(l, "some ", 5)) {
			const char *eol = strchr(l, '\n');

			t = strstr(l, " total=");
			if (t && (!eol || t < eol) &&
			    sscanf(t + 7, "%" SCNu64, total_us) == 1)
				return 0;
			return -EINVAL;
		}
		l = strchr(l, '\n');
		if (l)
			l++;
	}
	return -EINVAL;
}

static int read_text(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = read(fd, buf, len - 1);
	if (n < 0) {
		n = -errno;
		close(fd);
		return (int)n;
	}
	close(fd);
	buf[n] = '\0';
	return 0;
}

/* ss_psi_read_cpu_some - see psi.h */
int ss_psi_read_cpu_some(const char *mount, const char *path,
			 uint64_t *total_us)
{
	char file[PATH_MAX], buf[256];
	int ret;

	if (snprintf(file, sizeof(file), "%s%s%s/cpu.pressure", mount,
		     path[0] == '/' ? "" : "/",
		     strcmp(path, "/") ? path : "") >= (int)sizeof(file))
		return -ENAMETOOLONG;
	ret = read_text(file, buf, sizeof(buf));
	if (ret)
		return ret;
	return ss_psi_parse_some(buf, total_us);
}

/* ss_psi_available - see psi.h */
bool ss_psi_available(const char *proc)
{
	char file[PATH_MAX], buf[256];
	uint64_t us;

	snprintf(file, sizeof(file), "%s/pressure/cpu", proc);
	return !read_text(file, buf, sizeof(buf)) &&
	       !ss_psi_parse_some(buf, &us);
}

/* ss_psi_find - see psi.h */
struct ss_psi_ent *ss_psi_find(const struct ss_psi_cache *c, uint64_t id)
{
	for (size_t i = 0; i < c->n; i++)
		if (c->e[i].id == id)
			return &c->e[i];
	return NULL;
}

/* ss_psi_note - see psi.h */
struct ss_psi_ent *ss_psi_note(struct ss_psi_cache *c, uint64_t id, uint64_t at,
			       uint64_t total_us, uint64_t now_ns)
{
	struct ss_psi_ent *e = ss_psi_find(c, id);

	if (!e) {
		if (c->n == c->cap) {
			size_t cap = c->cap ? 2 * c->cap : 16;
			struct ss_psi_ent *ne =
				realloc(c->e, cap * sizeof(*ne));

			if (!ne)
				return NULL;
			c->e = ne;
			c->cap = cap;
		}
		e = &c->e[c->n++];
		memset(e, 0, sizeof(*e));
		e->id = id;
	} else if (now_ns > e->read_ns && total_us >= e->total_us) {
		e->pct = (double)(total_us - e->total_us) * 1e3 /
			 (double)(now_ns - e->read_ns) * 100.0;
		if (e->pct > 100.0) /* the reads' own timing */
			e->pct = 100.0;
		e->have_pct = true;
	} else {
		e->have_pct = false; /* a new cgroup with a reused id */
	}
	e->total_us = total_us;
	e->read_ns = now_ns;
	e->at = at;
	return e;
}

/* ss_psi_interval - see psi.h */
struct ss_psi_ent *ss_psi_interval(struct ss_psi_cache *c, const char *mount,
				   const char *path, uint64_t id, uint64_t at)
{
	struct ss_psi_ent *e = ss_psi_find(c, id);
	struct timespec ts;
	uint64_t us;

	if (e && e->at == at)
		return e;
	if (!path || ss_psi_read_cpu_some(mount, path, &us))
		return NULL;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ss_psi_note(c, id, at, us,
			   (uint64_t)ts.tv_sec * 1000000000ULL + ts.tv_nsec);
}

/* ss_psi_free - see psi.h */
void ss_psi_free(struct ss_psi_cache *c)
{
	free(c->e);
	memset(c, 0, sizeof(*c));
}
