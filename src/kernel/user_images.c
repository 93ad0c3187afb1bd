// SPDX-License-Identifier: GPL-2.0
/*
 * user_images.c - each announced process's image (user_images.h): its
 * executable mappings (start, end, file offset, the file itself, held
 * open by device and inode across processes) and libbcc's symbolizer
 * for it, made while the process runs (libbcc reads /proc/PID/maps when
 * the symbolizer is made; it reads the files' symbols when first asked).
 * A process announced again has exec'd: a new image is read, and the old
 * one names the addresses only it maps.  An image is freed at the first
 * print after its process exited or exec'd.
 *
 * A caller frame of a frame-pointer walk is the word above a saved frame
 * pointer; in code built without frame pointers that register holds
 * anything, and the word is whatever it points at.  A frame is a return
 * address only when the bytes before it in its file are a call: the one
 * check that needs no unwind tables.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <bcc/bcc_syms.h>
#include <bcc/libbpf.h>
#include <bcc/perf_reader.h>

#include "user_images.h"

#define MAX_IMAGES 8192 /* the probes' stk_seen */
#define MAX_FILES 512 /* files held open */
#define POLL_MS 100 /* the thread looks at its stop flag this often */
#define START_WIN 0x400 /* bytes either side of __libc_start_main */

struct xmap {
	__u64 start, end, pgoff;
	int file; /* index in files[], -1: no file (anonymous, vdso) */
};

struct image {
	int pid;
	unsigned long long starttime; /* /proc/PID/stat field 22 */
	void *syms; /* bcc_symcache_new(pid) */
	struct xmap *maps;
	int nmaps;
	bool gone; /* exited, or exec'd, when the print began */
};

struct ufile {
	dev_t dev;
	ino_t ino;
	int fd;
};

struct ss_uimages {
	pthread_mutex_t lock;
	pthread_t thr;
	bool thread, stop;
	int seen_fd;
	struct perf_reader **readers; /* stk_new's, one per CPU */
	int nreaders;
	/* this libc's __libc_start_main: its file and offset from its base */
	dev_t libc_dev;
	ino_t libc_ino;
	__u64 libc_start;
	struct image *img;
	int nimg;
	int last; /* the last image looked up */
	struct ufile files[MAX_FILES];
	int nfiles;
};

/* process @pid's start time (clock ticks after boot); 0 when gone */
static unsigned long long starttime(int pid)
{
	char path[64], buf[1024], *p;
	unsigned long long v = 0;
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return 0;
	buf[n] = 0;
	p = strrchr(buf, ')'); /* the comm may hold anything */
	if (!p)
		return 0;
	/* field 3 follows ") "; the start time is field 22 */
	for (int f = 2; f < 22 && p; f++)
		p = strchr(p + 1, ' ');
	if (p)
		v = strtoull(p + 1, NULL, 10);
	return v;
}

/* the index of the file open as @fd in the set (closing @fd when it
 * holds one already), or -1 */
static int file_of(struct ss_uimages *im, int fd)
{
	struct stat st;

	if (fstat(fd, &st)) {
		close(fd);
		return -1;
	}
	for (int i = 0; i < im->nfiles; i++)
		if (im->files[i].dev == st.st_dev &&
		    im->files[i].ino == st.st_ino) {
			close(fd);
			return i;
		}
	if (im->nfiles == MAX_FILES) {
		close(fd);
		return -1;
	}
	im->files[im->nfiles] =
		(struct ufile){ .dev = st.st_dev, .ino = st.st_ino, .fd = fd };
	return im->nfiles++;
}

/* @g's executable mappings from /proc/PID/maps; 0 or -1 (gone) */
static int read_maps(struct ss_uimages *im, struct image *g)
{
	char path[64], line[4096];
	FILE *f;
	int cap = 0;

	snprintf(path, sizeof(path), "/proc/%d/maps", g->pid);
	f = fopen(path, "re");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		unsigned long long s, e, off, ino;
		char perm[8], mf[96];
		struct xmap *m;
		int fd, pos = 0;

		if (sscanf(line, "%llx-%llx %7s %llx %*s %llu %n", &s, &e, perm,
			   &off, &ino, &pos) < 5 ||
		    perm[2] != 'x')
			continue;
		if (g->nmaps == cap) {
			void *p = realloc(g->maps, (cap ? cap * 2 : 16) *
							   sizeof(*g->maps));

			if (!p)
				break;
			g->maps = p;
			cap = cap ? cap * 2 : 16;
		}
		m = &g->maps[g->nmaps++];
		*m = (struct xmap){
			.start = s, .end = e, .pgoff = off, .file = -1
		};
		if (!ino)
			continue;
		/* the mapped file itself (deleted, or in another mount ns) */
		snprintf(mf, sizeof(mf), "/proc/%d/map_files/%llx-%llx", g->pid,
			 s, e);
		fd = open(mf, O_RDONLY | O_CLOEXEC);
		if (fd < 0 && pos && line[pos] == '/') { /* no CAP_SYS_ADMIN */
			line[strcspn(line, "\n")] = 0;
			fd = open(line + pos, O_RDONLY | O_CLOEXEC);
		}
		if (fd >= 0)
			m->file = file_of(im, fd);
	}
	fclose(f);
	return 0;
}

static void image_free(struct image *g)
{
	if (g->syms)
		bcc_free_symcache(g->syms, g->pid);
	free(g->maps);
	memset(g, 0, sizeof(*g));
}

/* @g maps @addr executable */
static bool maps_addr(const struct image *g, __u64 addr)
{
	for (int i = 0; i < g->nmaps; i++)
		if (addr >= g->maps[i].start && addr < g->maps[i].end)
			return true;
	return false;
}

/*
 * The image of @pid (lock held) that maps @addr, the newest first (an
 * exec'd process has two), else its newest; NULL when there is none.
 */
static struct image *find(struct ss_uimages *im, int pid, __u64 addr)
{
	struct image *any = NULL;

	if (im->last < im->nimg && im->img[im->last].pid == pid &&
	    maps_addr(&im->img[im->last], addr))
		return &im->img[im->last];
	for (int i = im->nimg - 1; i >= 0; i--) {
		if (im->img[i].pid != pid)
			continue;
		if (maps_addr(&im->img[i], addr)) {
			im->last = i;
			return &im->img[i];
		}
		if (!any)
			any = &im->img[i];
	}
	return any;
}

/*
 * Read process @pid's image (lock held); @again: it was announced again
 * (it exec'd), else an image of this process already read is kept.
 * NULL when it is gone.
 */
static struct image *capture(struct ss_uimages *im, int pid, bool again)
{
	unsigned long long st = starttime(pid);
	struct image *g = NULL;

	if (!st)
		return NULL;
	for (int i = im->nimg - 1; i >= 0 && !again; i--)
		if (im->img[i].pid == pid && im->img[i].starttime == st)
			return &im->img[i];
	if (im->nimg == MAX_IMAGES)
		return NULL;
	g = &im->img[im->nimg++];
	g->pid = pid;
	g->starttime = st;
	g->syms = bcc_symcache_new(pid, NULL);
	if (read_maps(im, g) || !g->syms || starttime(pid) != st) {
		image_free(g);
		g->pid = -1;
		return NULL;
	}
	return g;
}

/* perf_reader callback: a process announced (a __u32 tgid) */
static void on_new(void *cookie, void *raw, int size)
{
	struct ss_uimages *im = cookie;
	__u32 pid;

	if (size < (int)sizeof(pid))
		return;
	memcpy(&pid, raw, sizeof(pid));
	pthread_mutex_lock(&im->lock);
	capture(im, (int)pid, true);
	pthread_mutex_unlock(&im->lock);
}

static void *poll_thread(void *arg)
{
	struct ss_uimages *im = arg;

	while (!__atomic_load_n(&im->stop, __ATOMIC_ACQUIRE))
		perf_reader_poll(im->nreaders, im->readers, POLL_MS);
	return NULL;
}

/* this process's libc and its __libc_start_main, for ss_uimages_at_start */
static void find_libc(struct ss_uimages *im)
{
	void *p = dlsym(RTLD_DEFAULT, "__libc_start_main");
	struct stat st;
	Dl_info di;

	if (p && dladdr(p, &di) && di.dli_fname && !stat(di.dli_fname, &st)) {
		im->libc_dev = st.st_dev;
		im->libc_ino = st.st_ino;
		im->libc_start = (__u64)((char *)p - (char *)di.dli_fbase);
	}
}

/* stk_new's perf buffer of each CPU that has one; 0, or -1 for none */
static int open_readers(struct ss_uimages *im, int map_fd, int ncpus)
{
	im->readers = calloc(ncpus, sizeof(*im->readers));
	if (!im->readers)
		return -1;
	for (int cpu = 0; cpu < ncpus; cpu++) {
		struct bcc_perf_buffer_opts o = { .pid = -1,
						  .cpu = cpu,
						  .wakeup_events = 1 };
		struct perf_reader *r;
		int fd;

		/* an offline CPU has none: its announcements fail, again */
		r = bpf_open_perf_buffer_opts(on_new, NULL, im, 1, &o);
		if (!r)
			continue;
		fd = perf_reader_fd(r);
		if (bpf_update_elem(map_fd, &cpu, &fd, 0)) {
			perf_reader_free(r);
			continue;
		}
		im->readers[im->nreaders++] = r;
	}
	return im->nreaders ? 0 : -1;
}

struct ss_uimages *ss_uimages_new(int new_fd, int seen_fd, int ncpus)
{
	struct ss_uimages *im = calloc(1, sizeof(*im));
	sigset_t all, old;

	if (!im)
		return NULL;
	im->img = calloc(MAX_IMAGES, sizeof(*im->img));
	if (!im->img) {
		free(im);
		return NULL;
	}
	im->seen_fd = seen_fd;
	pthread_mutex_init(&im->lock, NULL);
	find_libc(im);
	if (new_fd < 0)
		return im;
	if (open_readers(im, new_fd, ncpus)) {
		ss_uimages_free(im);
		return NULL;
	}
	/* signals stay with the main thread */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	im->thread = !pthread_create(&im->thr, NULL, poll_thread, im);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (!im->thread) {
		ss_uimages_free(im);
		return NULL;
	}
	return im;
}

void ss_uimages_free(struct ss_uimages *im)
{
	if (!im)
		return;
	if (im->thread) {
		__atomic_store_n(&im->stop, true, __ATOMIC_RELEASE);
		pthread_join(im->thr, NULL);
	}
	for (int i = 0; i < im->nreaders; i++)
		perf_reader_free(im->readers[i]);
	free(im->readers);
	for (int i = 0; i < im->nimg; i++)
		if (im->img[i].pid > 0)
			image_free(&im->img[i]);
	for (int i = 0; i < im->nfiles; i++)
		close(im->files[i].fd);
	pthread_mutex_destroy(&im->lock);
	free(im->img);
	free(im);
}

void ss_uimages_begin(struct ss_uimages *im)
{
	pthread_mutex_lock(&im->lock);
	for (int i = 0; i < im->nimg; i++) {
		struct image *g = &im->img[i];

		g->gone = g->pid > 0 && starttime(g->pid) != g->starttime;
		/* exec'd: a newer image of the process */
		for (int j = i + 1; j < im->nimg && g->pid > 0 && !g->gone; j++)
			g->gone = im->img[j].pid == g->pid;
	}
}

void ss_uimages_end(struct ss_uimages *im)
{
	int n = 0;

	for (int i = 0; i < im->nimg; i++) {
		struct image *g = &im->img[i];

		if (g->pid > 0 && g->gone) {
			__u32 pid = (__u32)g->pid;

			/* exited: a new process with its id is announced */
			if (im->seen_fd >= 0 &&
			    starttime(g->pid) != g->starttime)
				bpf_delete_elem(im->seen_fd, &pid);
			image_free(g);
		}
		if (g->pid > 0)
			im->img[n++] = *g;
	}
	if (n < im->nimg)
		memset(&im->img[n], 0, (im->nimg - n) * sizeof(*im->img));
	im->nimg = n;
	im->last = 0;
	pthread_mutex_unlock(&im->lock);
}

#if defined(__x86_64__)
/* the length of a call r/m64 (ff /2) from its ModRM byte @m and SIB @sib */
static size_t x86_rm_len(unsigned char m, unsigned char sib)
{
	unsigned int mod = m >> 6, rm = m & 7;

	if (mod == 3)
		return 2;
	if (mod == 1)
		return rm == 4 ? 4 : 3;
	if (mod == 2)
		return rm == 4 ? 7 : 6;
	if (rm == 5)
		return 6; /* rip-relative */
	if (rm == 4)
		return (sib & 7) == 5 ? 7 : 3;
	return 2;
}
#endif

bool ss_uimages_is_call(const unsigned char *b, size_t n)
{
#if defined(__x86_64__)
	/* call rel32: e8 and 4 bytes */
	if (n >= 5 && b[n - 5] == 0xe8)
		return true;
	/* call r/m64: ff /2, as long as its ModRM byte says */
	for (size_t l = 2; l <= 7 && l <= n; l++) {
		const unsigned char *p = b + n - l;

		if (p[0] == 0xff && ((p[1] >> 3) & 7) == 2 &&
		    x86_rm_len(p[1], l >= 3 ? p[2] : 0) == l)
			return true;
	}
	return false;
#elif defined(__aarch64__)
	__u32 i;

	if (n < 4)
		return false;
	i = (__u32)b[n - 4] | (__u32)b[n - 3] << 8 | (__u32)b[n - 2] << 16 |
	    (__u32)b[n - 1] << 24;
	return (i & 0xfc000000) == 0x94000000 || /* bl */
	       (i & 0xfffffc1f) == 0xd63f0000 || /* blr */
	       (i & 0xfefff800) == 0xd63f0800; /* blraa, blrab (and z) */
#else
	(void)b;
	(void)n;
	return true;
#endif
}

/* true when a call ends at @addr in @g; unknown bytes (no file) pass */
static bool after_call(struct ss_uimages *im, const struct image *g, __u64 addr)
{
	unsigned char b[8];
	__u64 from;

	for (int i = 0; i < g->nmaps; i++) {
		const struct xmap *m = &g->maps[i];

		if (addr <= m->start || addr > m->end)
			continue;
		if (m->file < 0)
			return true; /* anonymous code (a JIT): not checked */
		from = addr - m->start >= sizeof(b) ? addr - sizeof(b)
						    : m->start;
		if (pread(im->files[m->file].fd, b, addr - from,
			  (off_t)(from - m->start + m->pgoff)) !=
		    (ssize_t)(addr - from))
			return false;
		return ss_uimages_is_call(b, addr - from);
	}
	return false; /* in no executable mapping */
}

int ss_uimages_name(struct ss_uimages *im, int pid, __u64 addr, bool caller,
		    char *buf, size_t len)
{
	struct image *g = find(im, pid, caller ? addr - 1 : addr);
	struct bcc_symbol sym = { 0 };
	const char *name = NULL;
	int r = -1;

	if (!g) /* not announced (the set was full): read it if it runs */
		g = capture(im, pid, false);
	if (!g)
		return SS_UF_EXITED;
	if (caller && !after_call(im, g, addr))
		return SS_UF_BAD;
	if (g->syms)
		r = bcc_symcache_resolve(g->syms, caller ? addr - 1 : addr,
					 &sym);
	if (!r)
		name = sym.demangle_name ? sym.demangle_name : sym.name;
	snprintf(buf, len, "%s", name && *name ? name : "[unknown]");
	if (!r)
		bcc_symbol_free_demangle_name(&sym);
	return SS_UF_NAMED;
}

bool ss_uimages_at_start(struct ss_uimages *im, int pid, __u64 addr)
{
	struct image *g = find(im, pid, addr - 1);

	for (int i = 0; g && im->libc_ino && i < g->nmaps; i++) {
		const struct xmap *m = &g->maps[i];
		const struct ufile *f;
		__u64 off;

		if (addr - 1 < m->start || addr - 1 >= m->end || m->file < 0)
			continue;
		f = &im->files[m->file];
		off = addr - (m->start - m->pgoff);
		return f->dev == im->libc_dev && f->ino == im->libc_ino &&
		       off + START_WIN > im->libc_start &&
		       off < im->libc_start + START_WIN;
	}
	return false;
}
