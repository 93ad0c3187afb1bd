// SPDX-License-Identifier: GPL-2.0
/*
 * http_server.c - the /metrics endpoint on libmicrohttpd.  Snapshots are
 * reference counted: the interval loop replaces the current one, and each
 * response holds a reference until libmicrohttpd has sent it.
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

#include <microhttpd.h>

#include "prom_fmt.h"

#define CONN_LIMIT 256 /* concurrent connections; more are refused */
#define CONN_TIMEOUT_S 10 /* idle connections are closed after this */

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
};

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
	unsigned int flags = MHD_USE_AUTO_INTERNAL_THREAD;
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
		MHD_OPTION_CONNECTION_TIMEOUT, (unsigned int)CONN_TIMEOUT_S,
		MHD_OPTION_END);
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
	MHD_stop_daemon(h->d);
	if (h->cur)
		snap_put(h, h->cur);
	pthread_mutex_destroy(&h->lock);
	free(h);
}
