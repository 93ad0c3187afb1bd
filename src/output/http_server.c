// SPDX-License-Identifier: GPL-2.0
/*
 * http_server.c - the /metrics endpoint on libmicrohttpd.  Snapshots are
 * reference counted: the interval loop replaces the current one, and each
 * response holds a reference until libmicrohttpd has sent it.
 *
 * What one client may take from the others (a slow-header client,
 * Slowloris, held every connection slot): libmicrohttpd runs in a thread
 * of ours (external polling, MHD_run_wait every TICK_MS), which also
 * keeps a table of the connections (MHD_OPTION_NOTIFY_CONNECTION) and
 * ends, by shutdown(2) of its socket, a connection whose request header
 * is not whole HEADER_TIMEOUT_MS after it was accepted or its previous
 * response ended, and one whose request is not answered REQUEST_TIMEOUT_MS
 * after its header.  libmicrohttpd refuses an address's connections
 * beyond PER_ADDR_LIMIT and any beyond CONN_LIMIT; past CONN_LIMIT -
 * CONN_SPARE a new connection ends the one that has waited longest for a
 * request header (else the oldest request), so the accept loop, which never blocks, always has
 * room.  Memory is bounded by CONN_LIMIT connections of libmicrohttpd's
 * per-connection pool (32 KiB) each.  The socket is shut down only in the
 * thread that closes it, so it is never another connection's.
 */
#include "http_server.h"

#include <arpa/inet.h>
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>

#include <microhttpd.h>

#include "prom_fmt.h"

#define CONN_LIMIT 256 /* concurrent connections; more are refused */
#define CONN_SPARE 16 /* beyond CONN_LIMIT - this, the oldest waiting goes */
#define PER_ADDR_LIMIT 64 /* concurrent connections of one address */
#define HEADER_TIMEOUT_MS 10000 /* a whole request header, from accept */
#define REQUEST_TIMEOUT_MS 60000 /* a request, header to response sent */
#define IDLE_TIMEOUT_S 10 /* nothing sent or received: closed */
#define TICK_MS 100 /* the thread's longest wait: deadlines' resolution */

/* One connection, as the server thread sees it. */
struct conn {
	struct conn *prev, *next;
	int fd;
	bool busy; /* a request's header is in: answering it */
	bool cut; /* shut down: libmicrohttpd closes it next */
	uint64_t since_ms; /* waiting for a header (or busy) since */
};

struct snap {
	int refs; /* under ss_http.lock */
	char *buf[2]; /* enum ss_prom_format */
	size_t len[2];
};

struct ss_http {
	struct MHD_Daemon *d;
	pthread_mutex_t lock;
	struct snap *cur;
	uint64_t requests; /* under lock */
	pthread_t thr;
	int stop; /* __atomic: the server thread ends */
	/* the server thread's only: */
	struct conn *conns;
	unsigned int nconns;
};

static uint64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void conn_cut(struct conn *k)
{
	if (k->cut)
		return;
	shutdown(k->fd, SHUT_RDWR);
	k->cut = true;
}

/*
 * End the connection that has waited longest for a request header or,
 * with none waiting, the request longest in progress (a client that does
 * not read its answers).
 */
static void evict_oldest(struct ss_http *h, struct conn *except)
{
	struct conn *old = NULL;

	for (struct conn *k = h->conns; k; k = k->next)
		if (k != except && !k->cut &&
		    (!old || (old->busy && !k->busy) ||
		     (old->busy == k->busy && k->since_ms < old->since_ms)))
			old = k;
	if (old)
		conn_cut(old);
}

/* End the connections past their deadlines (see the top). */
static void reap(struct ss_http *h, uint64_t now)
{
	for (struct conn *k = h->conns; k; k = k->next) {
		uint64_t limit =
			k->busy ? REQUEST_TIMEOUT_MS : HEADER_TIMEOUT_MS;

		if (now - k->since_ms > limit)
			conn_cut(k);
	}
}

static void on_conn(void *cls, struct MHD_Connection *c, void **ctx,
		    enum MHD_ConnectionNotificationCode code)
{
	struct ss_http *h = cls;
	struct conn *k = *ctx;

	if (code == MHD_CONNECTION_NOTIFY_STARTED) {
		const union MHD_ConnectionInfo *ci = MHD_get_connection_info(
			c, MHD_CONNECTION_INFO_CONNECTION_FD);

		k = calloc(1, sizeof(*k));
		if (!k || !ci) {
			free(k);
			return; /* untracked: the idle timeout still holds */
		}
		k->fd = ci->connect_fd;
		k->since_ms = now_ms();
		k->next = h->conns;
		if (h->conns)
			h->conns->prev = k;
		h->conns = k;
		*ctx = k;
		if (++h->nconns > CONN_LIMIT - CONN_SPARE)
			evict_oldest(h, k);
		return;
	}
	if (!k)
		return;
	if (k->prev)
		k->prev->next = k->next;
	else
		h->conns = k->next;
	if (k->next)
		k->next->prev = k->prev;
	h->nconns--;
	free(k);
	*ctx = NULL;
}

/* The connection's entry, from a request callback. */
static struct conn *conn_of(struct MHD_Connection *c)
{
	const union MHD_ConnectionInfo *ci =
		MHD_get_connection_info(c, MHD_CONNECTION_INFO_SOCKET_CONTEXT);

	return ci ? ci->socket_context : NULL;
}

/* A request was answered (or failed): waiting for the next header. */
static void on_done(void *cls, struct MHD_Connection *c, void **req_ctx,
		    enum MHD_RequestTerminationCode toe)
{
	struct conn *k = conn_of(c);

	if (k) {
		k->busy = false;
		k->since_ms = now_ms();
	}
}

static void *serve(void *arg)
{
	struct ss_http *h = arg;

	while (!__atomic_load_n(&h->stop, __ATOMIC_ACQUIRE)) {
		/* never a busy loop, even if libmicrohttpd fails at once */
		if (MHD_run_wait(h->d, TICK_MS) != MHD_YES)
			nanosleep(&(struct timespec){ 0, TICK_MS * 1000000L },
				  NULL);
		reap(h, now_ms());
	}
	return NULL;
}

static void snap_put(struct ss_http *h, struct snap *s)
{
	bool last;

	pthread_mutex_lock(&h->lock);
	last = --s->refs == 0;
	pthread_mutex_unlock(&h->lock);
	if (last) {
		free(s->buf[0]);
		free(s->buf[1]);
		free(s);
	}
}

struct resp_ref {
	struct ss_http *h;
	struct snap *s;
};

static void resp_free(void *cls)
{
	struct resp_ref *r = cls;

	snap_put(r->h, r->s);
	free(r);
}

static enum MHD_Result reply_text(struct MHD_Connection *c, unsigned int status,
				  const char *text, const char *allow)
{
	struct MHD_Response *resp = MHD_create_response_from_buffer(
		strlen(text), (void *)text, MHD_RESPMEM_PERSISTENT);
	enum MHD_Result ret;

	if (!resp)
		return MHD_NO;
	MHD_add_response_header(resp, MHD_HTTP_HEADER_CONTENT_TYPE,
				"text/plain; charset=utf-8");
	if (allow)
		MHD_add_response_header(resp, MHD_HTTP_HEADER_ALLOW, allow);
	ret = MHD_queue_response(c, status, resp);
	MHD_destroy_response(resp);
	return ret;
}

static enum MHD_Result on_request(void *cls, struct MHD_Connection *c,
				  const char *url, const char *method,
				  const char *version, const char *upload_data,
				  size_t *upload_data_size, void **con_cls)
{
	struct ss_http *h = cls;
	struct MHD_Response *resp;
	struct resp_ref *ref;
	enum ss_prom_format fmt;
	enum MHD_Result ret;
	struct snap *s;
	struct conn *k = conn_of(c);

	if (k && !k->busy) {
		k->busy = true;
		k->since_ms = now_ms();
	}
	pthread_mutex_lock(&h->lock);
	h->requests++;
	pthread_mutex_unlock(&h->lock);
	if (strcmp(url, "/metrics"))
		return reply_text(c, MHD_HTTP_NOT_FOUND, "Not Found\n", NULL);
	if (strcmp(method, MHD_HTTP_METHOD_GET) &&
	    strcmp(method, MHD_HTTP_METHOD_HEAD))
		return reply_text(c, MHD_HTTP_METHOD_NOT_ALLOWED,
				  "Method Not Allowed\n", "GET, HEAD");
	fmt = ss_prom_negotiate(MHD_lookup_connection_value(
		c, MHD_HEADER_KIND, MHD_HTTP_HEADER_ACCEPT));
	ref = malloc(sizeof(*ref));
	if (!ref)
		return MHD_NO;
	pthread_mutex_lock(&h->lock);
	s = h->cur;
	if (s)
		s->refs++;
	pthread_mutex_unlock(&h->lock);
	if (!s) {
		free(ref);
		return reply_text(c, MHD_HTTP_SERVICE_UNAVAILABLE,
				  "No data yet\n", NULL);
	}
	ref->h = h;
	ref->s = s;
	resp = MHD_create_response_from_buffer_with_free_callback_cls(
		s->len[fmt], s->buf[fmt], resp_free, ref);
	if (!resp) {
		resp_free(ref);
		return MHD_NO;
	}
	MHD_add_response_header(resp, MHD_HTTP_HEADER_CONTENT_TYPE,
				fmt == SS_PROM_OPENMETRICS
					? SS_PROM_CT_OPENMETRICS
					: SS_PROM_CT_TEXT);
	ret = MHD_queue_response(c, MHD_HTTP_OK, resp);
	MHD_destroy_response(resp);
	return ret;
}

/* ss_http_start - see http_server.h */
struct ss_http *ss_http_start(const struct sockaddr *sa, socklen_t salen,
			      char *err, size_t errlen)
{
	unsigned int flags = MHD_USE_EPOLL; /* external polling: serve() */
	struct ss_http *h = calloc(1, sizeof(*h));
	sigset_t block, old;
	char addr[64] = "?";

	if (!h) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	pthread_mutex_init(&h->lock, NULL);
	if (sa->sa_family == AF_INET6)
		flags |= MHD_USE_IPv6;
	/* the server thread inherits this mask: signals go to main */
	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	pthread_sigmask(SIG_BLOCK, &block, &old);
	errno = 0;
	h->d = MHD_start_daemon(
		flags, 0, NULL, NULL, on_request, h, MHD_OPTION_SOCK_ADDR, sa,
		MHD_OPTION_CONNECTION_LIMIT, (unsigned int)CONN_LIMIT,
		MHD_OPTION_PER_IP_CONNECTION_LIMIT,
		(unsigned int)PER_ADDR_LIMIT, MHD_OPTION_CONNECTION_TIMEOUT,
		(unsigned int)IDLE_TIMEOUT_S, MHD_OPTION_NOTIFY_CONNECTION,
		on_conn, h, MHD_OPTION_NOTIFY_COMPLETED, on_done, h,
		MHD_OPTION_END);
	if (h->d) {
		int e = pthread_create(&h->thr, NULL, serve, h);

		if (e) {
			MHD_stop_daemon(h->d);
			h->d = NULL;
			errno = e;
		}
	}
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (!h->d) {
		int e = errno;

		if (sa->sa_family == AF_INET)
			inet_ntop(AF_INET,
				  &((const struct sockaddr_in *)sa)->sin_addr,
				  addr, sizeof(addr));
		else
			inet_ntop(AF_INET6,
				  &((const struct sockaddr_in6 *)sa)->sin6_addr,
				  addr, sizeof(addr));
		snprintf(err, errlen,
			 "--listen: cannot serve HTTP on %s port %u: %s", addr,
			 ntohs(((const struct sockaddr_in *)sa)->sin_port),
			 e ? strerror(e) : "libmicrohttpd failed to start");
		pthread_mutex_destroy(&h->lock);
		free(h);
		return NULL;
	}
	(void)salen;
	return h;
}

/* ss_http_publish - see http_server.h */
void ss_http_publish(struct ss_http *h, char *text, size_t text_len, char *om,
		     size_t om_len)
{
	struct snap *s = calloc(1, sizeof(*s)), *old;

	if (!s) {
		free(text);
		free(om);
		return; /* keep serving the previous snapshot */
	}
	s->refs = 1; /* the server's own reference */
	s->buf[SS_PROM_TEXT] = text;
	s->len[SS_PROM_TEXT] = text_len;
	s->buf[SS_PROM_OPENMETRICS] = om;
	s->len[SS_PROM_OPENMETRICS] = om_len;
	pthread_mutex_lock(&h->lock);
	old = h->cur;
	h->cur = s;
	pthread_mutex_unlock(&h->lock);
	if (old)
		snap_put(h, old);
}

/* ss_http_requests - see http_server.h */
uint64_t ss_http_requests(struct ss_http *h)
{
	uint64_t n;

	pthread_mutex_lock(&h->lock);
	n = h->requests;
	pthread_mutex_unlock(&h->lock);
	return n;
}

/* ss_http_stop - see http_server.h */
void ss_http_stop(struct ss_http *h)
{
	if (!h)
		return;
	__atomic_store_n(&h->stop, 1, __ATOMIC_RELEASE);
	pthread_join(h->thr, NULL); /* within TICK_MS */
	MHD_stop_daemon(h->d);
	if (h->cur)
		snap_put(h, h->cur);
	pthread_mutex_destroy(&h->lock);
	free(h);
}
