// SPDX-License-Identifier: GPL-2.0
/*
 * feat_hotplug.c - CPUs going offline and coming back while we trace.
 *
 * When a CPU goes offline the kernel turns off every perf event bound to
 * it and leaves them off when the CPU returns; the probes' per-CPU slice
 * state would also hold a slice spanning the offline time.  A thread
 * listens to the kernel's uevents (NETLINK_KOBJECT_UEVENT: "offline@" and
 * "online@/devices/system/cpu/cpuN", sent once the CPU is down or up) and
 * every POLL_MS reads /sys/devices/system/cpu/online and the probes' count
 * of the kernel's teardown steps (hp_kdown, probes/hotplug.bpf.h): not
 * every hotplug sends uevents (none through cpuN/hotplug/target), and a
 * CPU down and up again between two reads of the mask shows only in the
 * count.  A CPU whose count moved went down since its perf events were
 * opened: if it is offline it is taken down here and brought up by the
 * mask once online; if it is online again its events are reopened (its
 * offline time is then charged to its idle task).  For each CPU that went down or came up it bumps that
 * CPU's entry in the probes' hp_epoch map (probes/hotplug.bpf.h: a slice
 * spanning offline time is dropped, counter readings start a new
 * baseline); for a CPU that came up it first has every feature reopen its
 * perf events there (feature.h cpu_up).  The socket is opened and the
 * online mask read in the open phase, before any feature opens a per-CPU
 * event: a CPU that was offline then and is back by start is a queued
 * uevent, applied (events reopened) before the thread starts.
 *
 * It also keeps the time each CPU was online in each interval (for
 * --check) and the number of hotplug events (for -v).  The uevents come
 * tens of ms (more under load) after a CPU has stopped running tasks or
 * has started again, so the times are the probes' own where they have
 * them: a CPU ran until its last slice began (ss_cpu.last_switch_ns, read
 * once it is offline: nothing writes it then) and runs again from the
 * event that dropped the slice spanning the offline time (ss_cpu.hp_up_ns),
 * which is when the probes start charging its time again.  A CPU that is
 * down and up again faster than the uevent arrives has its offline time
 * charged to its idle task.  In trace mode the same thread has the trace
 * feature open a new perf buffer for a CPU that came back.
 */
#define _GNU_SOURCE /* pipe2 */
#include <errno.h>
#include <fcntl.h>
#include <linux/netlink.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <bcc/libbpf.h>

#include "cpus.h"
#include "emit.h"
#include "feat_hotplug.h"

#define POLL_MS 50 /* without uevents: how often the online mask is read */
#define UEVENT_BUF 8192

struct hp_state {
	bool configured; /* the fds below are set (-1 or open) */
	bool on; /* attached: following hotplug */
	int ncpus; /* possible CPUs */
	int epoch_fd; /* hp_epoch map */
	int cpu_fd; /* cpu_state map (per-CPU struct ss_cpu) */
	int kdown_fd; /* hp_kdown: the kernel's teardown steps per CPU */
	int opened_fd; /* hp_opened: hp_kdown when a CPU's events opened */
	uint64_t kd_total; /* hp_kdown[ncpus] as last acted on */
	uint64_t kd_poll; /* ... as read at the last poll */
	uint64_t *kd_seen; /* hp_kdown[cpu] when its events were opened */
	struct ss_cpu *cpus; /* its values, one per possible CPU */
	int nl_fd; /* uevent socket; -1: polling */
	int stop[2]; /* pipe: closing stop[1] ends the thread */
	pthread_t thr;
	bool thr_on;
	pthread_mutex_t lock; /* the fields below, and the features' fds */
	bool *online; /* as last seen */
	uint32_t *down, *up; /* times seen going down / coming up */
	bool *changed; /* went down or up in this interval */
	uint64_t *seg_start; /* online since (CLOCK_MONOTONIC ns) */
	uint64_t *on_acc; /* online time in this interval before going down */
	uint64_t iv_start; /* start of the interval */
	unsigned int events; /* in this interval */
	bool seen; /* any since the start */
};

/* Tell the probes: CPU cpu went down or came up (hp_epoch[cpu]). */
static void write_epoch(struct hp_state *hp, int cpu)
{
	__u64 v = (__u64)hp->down[cpu] << 32 | hp->up[cpu];
	__u32 key = cpu;

	if (bpf_update_elem(hp->epoch_fd, &key, &v, BPF_ANY))
		ss_diag("CPU %d hotplug: updating BPF map "
			"hp_epoch: %s",
			cpu, strerror(errno));
}

/*
 * The probes' time (CLOCK_MONOTONIC ns) for CPU cpu going down (@up false:
 * the start of its last slice) or coming back (the event that dropped the
 * slice spanning the offline time), if in (@lo, @now]; else @now.
 */
static uint64_t probe_time(struct hp_state *hp, int cpu, bool up, uint64_t lo,
			   uint64_t now)
{
	__u32 zero = 0;
	uint64_t t;

	if (hp->cpu_fd < 0 || bpf_lookup_elem(hp->cpu_fd, &zero, hp->cpus))
		return now;
	t = up ? hp->cpus[cpu].hp_up_ns : hp->cpus[cpu].last_switch_ns;
	return t > lo && t <= now ? t : now;
}

/* hp_kdown[@idx]: the kernel's teardown steps (0 without the map). */
static uint64_t kdown(struct hp_state *hp, int idx)
{
	__u32 key = idx;
	__u64 v = 0;

	if (hp->kdown_fd >= 0)
		bpf_lookup_elem(hp->kdown_fd, &key, &v);
	return v;
}

/*
 * Reopen CPU cpu's perf events (feature.h cpu_up) and have the probes
 * count on them again: a new baseline (hp_epoch's up count), then
 * hp_opened (probes/hotplug.bpf.h).  With the lock held; 0 or -errno.
 */
static int reopen(struct ss_app *app, struct hp_state *hp, int cpu)
{
	/* read before the reopening: a teardown after it shows */
	uint64_t k = kdown(hp, cpu);
	__u32 key = cpu;
	int ret;

	ret = ss_features_cpu_up(app, cpu);
	hp->up[cpu]++;
	write_epoch(hp, cpu);
	hp->kd_seen[cpu] = k;
	if (hp->opened_fd >= 0 &&
	    bpf_update_elem(hp->opened_fd, &key, &k, BPF_ANY))
		ss_diag("CPU %d hotplug: updating BPF map hp_opened: %s", cpu,
			strerror(errno));
	return ret;
}

/* CPU cpu went down (up = false) or came up; called with the lock held. */
static void transition(struct ss_app *app, struct hp_state *hp, int cpu,
		       bool up)
{
	uint64_t now = ss_clock_ns(CLOCK_MONOTONIC);
	int ret = 0;

	if (cpu < 0 || cpu >= hp->ncpus || hp->online[cpu] == up)
		return;
	if (up) {
		ret = reopen(app, hp, cpu);
		/* online again from the probes' first event there */
		hp->seg_start[cpu] =
			probe_time(hp, cpu, true, hp->seg_start[cpu], now);
	} else {
		uint64_t end;

		hp->down[cpu]++;
		if (hp->seg_start[cpu] < hp->iv_start)
			hp->seg_start[cpu] = hp->iv_start;
		/* it ran tasks until its last slice began */
		end = probe_time(hp, cpu, false, hp->seg_start[cpu], now);
		hp->on_acc[cpu] += end - hp->seg_start[cpu];
		hp->seg_start[cpu] = end; /* offline since */
		write_epoch(hp, cpu);
	}
	hp->online[cpu] = up;
	hp->changed[cpu] = true;
	hp->events++;
	hp->seen = true;
	if (app->o.verbose)
		ss_diag("CPU %d %s%s%s", cpu,
			up ? "came back online: perf events reopened"
			   : "went offline",
			ret ? ", except: " : "", ret ? strerror(-ret) : "");
}

/* Compare the online mask with what we saw; apply the differences. */
static void resync(struct ss_app *app, struct hp_state *hp)
{
	bool *now = calloc(hp->ncpus, sizeof(*now));

	if (now && !ss_online_cpus(now, hp->ncpus)) {
		pthread_mutex_lock(&hp->lock);
		for (int c = 0; c < hp->ncpus; c++) {
			/* coming up: reopen once the kernel's steps are done */
			if (now[c] && !hp->online[c] &&
			    !ss_cpu_hotplug_settled(c))
				continue;
			transition(app, hp, c, now[c]);
		}
		pthread_mutex_unlock(&hp->lock);
	}
	free(now);
}

/*
 * CPUs that went down since their perf events were opened, by the
 * kernel's count (hp_kdown), whatever the uevents and the mask said: each
 * is taken down here; resync brings the online ones up again (reopened).
 */
static void kernel_check(struct ss_app *app, struct hp_state *hp)
{
	uint64_t total = kdown(hp, hp->ncpus);
	bool *now;

	/* still moving: a teardown under way; look again at the next poll */
	if (total != hp->kd_poll) {
		hp->kd_poll = total;
		return;
	}
	if (total == hp->kd_total)
		return;
	now = calloc(hp->ncpus, sizeof(*now));
	if (!now || ss_online_cpus(now, hp->ncpus)) {
		free(now);
		return; /* read again next time */
	}
	pthread_mutex_lock(&hp->lock);
	hp->kd_total = total;
	for (int c = 0; c < hp->ncpus; c++) {
		int ret;

		if (kdown(hp, c) == hp->kd_seen[c])
			continue;
		if (!now[c] || !hp->online[c]) {
			transition(app, hp, c, false); /* resync: up */
			continue;
		}
		/*
		 * down and up again, unseen: its offline time is charged to
		 * its idle task (as for a uevent that came late)
		 */
		ret = reopen(app, hp, c);
		hp->changed[c] = true;
		hp->events += 2;
		hp->seen = true;
		if (app->o.verbose)
			ss_diag("CPU %d went offline and came back (no "
				"uevent): perf events reopened%s%s",
				c, ret ? ", except: " : "",
				ret ? strerror(-ret) : "");
	}
	pthread_mutex_unlock(&hp->lock);
	free(now);
}

/*
 * The CPU of a uevent message ("online@/devices/system/cpu/cpu3\0...");
 * *up says which.  Returns -1 for any other message.
 */
static int uevent_cpu(const char *msg, size_t len, bool *up)
{
	static const char on[] = "online@/devices/system/cpu/cpu";
	static const char off[] = "offline@/devices/system/cpu/cpu";
	const char *p;
	char *end;
	long cpu;

	if (len > sizeof(on) - 1 && !strncmp(msg, on, sizeof(on) - 1)) {
		*up = true;
		p = msg + sizeof(on) - 1;
	} else if (len > sizeof(off) - 1 &&
		   !strncmp(msg, off, sizeof(off) - 1)) {
		*up = false;
		p = msg + sizeof(off) - 1;
	} else {
		return -1;
	}
	if (*p < '0' || *p > '9')
		return -1;
	cpu = strtol(p, &end, 10);
	if (*end || cpu > 65535)
		return -1;
	return (int)cpu;
}

/* Read every pending uevent; the kernel's (sender pid 0) only. */
static void read_uevents(struct ss_app *app, struct hp_state *hp)
{
	static char buf[UEVENT_BUF + 1];

	for (;;) {
		struct sockaddr_nl sa;
		struct iovec iov = { buf, UEVENT_BUF };
		struct msghdr mh = { .msg_name = &sa,
				     .msg_namelen = sizeof(sa),
				     .msg_iov = &iov,
				     .msg_iovlen = 1 };
		ssize_t n = recvmsg(hp->nl_fd, &mh, MSG_DONTWAIT);
		bool up;
		int cpu;

		if (n < 0 && errno == ENOBUFS) {
			resync(app, hp); /* lost some: read the mask */
			continue;
		}
		if (n < 0)
			return;
		if (sa.nl_pid != 0)
			continue;
		buf[n] = '\0';
		cpu = uevent_cpu(buf, n, &up);
		if (cpu < 0)
			continue;
		pthread_mutex_lock(&hp->lock);
		transition(app, hp, cpu, up);
		pthread_mutex_unlock(&hp->lock);
	}
}

struct thread_arg {
	struct ss_app *app;
	struct hp_state *hp;
};

static void *hp_thread(void *arg)
{
	struct ss_app *app = ((struct thread_arg *)arg)->app;
	struct hp_state *hp = ((struct thread_arg *)arg)->hp;

	free(arg);
	for (;;) {
		struct pollfd p[2] = { { .fd = hp->stop[0], .events = POLLIN },
				       { .fd = hp->nl_fd, .events = POLLIN } };
		int n = poll(p, hp->nl_fd >= 0 ? 2 : 1, POLL_MS);

		if (n < 0 && errno != EINTR)
			break;
		if (p[0].revents)
			break;
		if (hp->nl_fd >= 0 && (p[1].revents & POLLIN))
			read_uevents(app, hp);
		kernel_check(app, hp);
		resync(app, hp);
	}
	return NULL;
}

static int uevent_socket(void)
{
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK, .nl_groups = 1 };
	int size = 1 << 20;
	int fd = socket(AF_NETLINK, SOCK_DGRAM | SOCK_CLOEXEC,
			NETLINK_KOBJECT_UEVENT);

	if (fd < 0)
		return -1;
	setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, sizeof(size));
	if (bind(fd, (struct sockaddr *)&sa, sizeof(sa))) {
		close(fd);
		return -1;
	}
	return fd;
}

static int hp_open(struct ss_app *app, void *st)
{
	struct hp_state *hp = st;

	hp->nl_fd = -1;
	hp->stop[0] = hp->stop[1] = -1;
	hp->epoch_fd = -1;
	hp->cpu_fd = -1;
	hp->kdown_fd = -1;
	hp->opened_fd = -1;
	hp->configured = true;
	/*
	 * Listen, then read the online mask, before any feature opens a
	 * per-CPU event (features after this one): a CPU that goes down or
	 * comes up from here on is a queued uevent that hp_start applies,
	 * with the reopening it needs, even if it happened while the others
	 * were opening theirs.
	 */
	hp->ncpus = app->ncpus_possible;
	hp->online = calloc(hp->ncpus, sizeof(*hp->online));
	if (!hp->online) {
		ss_diag("out of memory");
		return 1;
	}
	hp->nl_fd = uevent_socket();
	if (ss_online_cpus(hp->online, hp->ncpus))
		for (int c = 0; c < hp->ncpus; c++)
			hp->online[c] = true;
	hp->on = true;
	return 0;
}

static int hp_attach(struct ss_app *app, void *st)
{
	struct hp_state *hp = st;
	int n = app->ncpus_possible;
	char err[SS_ERR_LEN];

	if (!hp->on)
		return 0;
	hp->epoch_fd = ss_bpf_map_fd(&app->bpf, "hp_epoch");
	hp->cpu_fd = ss_bpf_map_fd(&app->bpf, "cpu_state");
	hp->kdown_fd = ss_bpf_map_fd(&app->bpf, "hp_kdown");
	hp->opened_fd = ss_bpf_map_fd(&app->bpf, "hp_opened");
	hp->kd_seen = calloc(n, sizeof(*hp->kd_seen));
	hp->cpus = calloc(n, sizeof(*hp->cpus));
	hp->changed = calloc(n, sizeof(*hp->changed));
	hp->down = calloc(n, sizeof(*hp->down));
	hp->up = calloc(n, sizeof(*hp->up));
	hp->seg_start = calloc(n, sizeof(*hp->seg_start));
	hp->on_acc = calloc(n, sizeof(*hp->on_acc));
	if (hp->epoch_fd < 0 || !hp->cpus || !hp->online || !hp->changed ||
	    !hp->down || !hp->up || !hp->seg_start || !hp->on_acc ||
	    !hp->kd_seen) {
		ss_diag("CPU hotplug: BPF map hp_epoch "
			"missing or out of memory");
		return 1;
	}
	/* without it (no cpuhp tracepoints): the uevents and the mask */
	if (ss_bpf_attach_tp(&app->bpf, "tracepoint__cpuhp__cpuhp_enter",
			     "cpuhp", "cpuhp_enter", err, sizeof(err))) {
		if (app->o.verbose)
			ss_diag("CPU hotplug: %s; hotplug followed by uevents "
				"and the online mask only",
				err);
		hp->kdown_fd = -1;
		hp->opened_fd = -1;
	}
	pthread_mutex_init(&hp->lock, NULL);
	return 0;
}

/* After every attach: the perf events the thread may reopen exist. */
static int hp_start(struct ss_app *app, void *st)
{
	struct hp_state *hp = st;
	struct thread_arg *arg;
	sigset_t all, old;
	int err;

	if (!hp->on)
		return 0;
	if (app->o.verbose)
		ss_diag("CPU hotplug: %s",
			hp->nl_fd >= 0 ? "kernel uevents followed"
				       : "no uevent socket: polling "
					 "/sys/devices/system/cpu/online");
	arg = malloc(sizeof(*arg));
	if (!arg || pipe2(hp->stop, O_CLOEXEC)) {
		free(arg);
		ss_diag("CPU hotplug: %s", strerror(errno));
		return 1;
	}
	arg->app = app;
	arg->hp = hp;
	/*
	 * CPUs that changed since hp_open, before the thread reads the
	 * socket too: the queued uevents (a CPU down and up again has its
	 * events reopened; one that was offline when the features opened
	 * theirs and is back gets them now)
	 */
	if (hp->nl_fd >= 0)
		read_uevents(app, hp);
	kernel_check(app, hp);
	/* signals (Ctrl-C) go to the main thread, never to this one */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	err = pthread_create(&hp->thr, NULL, hp_thread, arg);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (err) {
		free(arg);
		ss_diag("CPU hotplug thread: %s", strerror(err));
		return 1;
	}
	hp->thr_on = true;
	/* without uevents: a CPU that changed since hp_open */
	resync(app, hp);
	return 0;
}

/* Start of the interval loop: nothing before it counts. */
static int hp_reset(struct ss_app *app, void *st)
{
	struct hp_state *hp = st;

	if (!hp->on)
		return 0;
	pthread_mutex_lock(&hp->lock);
	hp->iv_start = ss_clock_ns(CLOCK_MONOTONIC);
	hp->events = 0;
	for (int c = 0; c < hp->ncpus; c++) {
		hp->changed[c] = false;
		hp->on_acc[c] = 0;
	}
	pthread_mutex_unlock(&hp->lock);
	return 0;
}

/*
 * Runs after the core feature collected the interval: the CPU time online
 * in it (iv.interval_ns for each CPU that stayed online; from the
 * transition times for the others) and the events, for --check and -v.
 */
static int hp_interval(struct ss_app *app, void *st)
{
	struct hp_state *hp = st;
	uint64_t now, total = 0;

	if (!hp->on)
		return 0;
	pthread_mutex_lock(&hp->lock);
	now = ss_clock_ns(CLOCK_MONOTONIC);
	for (int c = 0; c < hp->ncpus; c++) {
		uint64_t on = hp->on_acc[c];

		if (!hp->changed[c]) {
			on = hp->online[c] ? app->iv.interval_ns : 0;
		} else if (hp->online[c]) {
			uint64_t s = hp->seg_start[c] > hp->iv_start
					     ? hp->seg_start[c]
					     : hp->iv_start;

			on += now > s ? now - s : 0;
		}
		total += on;
		hp->changed[c] = false;
		hp->on_acc[c] = 0;
	}
	app->iv_online_ns = total;
	/* --check's CPU count: the CPUs online now */
	app->ncpus_online = 0;
	for (int c = 0; c < hp->ncpus; c++)
		app->ncpus_online += hp->online[c];
	app->iv_hotplug_events = hp->events;
	app->hotplug_seen = hp->seen;
	hp->events = 0;
	hp->iv_start = now;
	pthread_mutex_unlock(&hp->lock);
	return 0;
}

static void stop_thread(struct hp_state *hp)
{
	if (hp->thr_on) {
		close(hp->stop[1]);
		hp->stop[1] = -1;
		pthread_join(hp->thr, NULL);
		hp->thr_on = false;
	}
}

/* Probes still attached: stop reopening events before they go. */
static void hp_finish(struct ss_app *app, void *st)
{
	stop_thread(st);
}

static void hp_close(struct ss_app *app, void *st)
{
	struct hp_state *hp = st;

	if (!hp->configured)
		return;
	stop_thread(hp);
	if (hp->stop[0] >= 0)
		close(hp->stop[0]);
	if (hp->stop[1] >= 0)
		close(hp->stop[1]);
	if (hp->nl_fd >= 0)
		close(hp->nl_fd);
	hp->stop[0] = hp->stop[1] = hp->nl_fd = -1;
	free(hp->online);
	free(hp->changed);
	free(hp->down);
	free(hp->up);
	free(hp->seg_start);
	free(hp->on_acc);
	free(hp->cpus);
	free(hp->kd_seen);
	hp->kd_seen = NULL;
	hp->cpus = NULL;
	hp->online = hp->changed = NULL;
	hp->down = hp->up = NULL;
	hp->seg_start = hp->on_acc = NULL;
}

const struct ss_feature ss_feat_hotplug = {
	.name = "hotplug",
	.state_size = sizeof(struct hp_state),
	.open = hp_open,
	.attach = hp_attach,
	.start = hp_start,
	.reset = hp_reset,
	.on_interval = hp_interval,
	.finish = hp_finish,
	.close = hp_close,
};
