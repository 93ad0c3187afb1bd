/* SPDX-License-Identifier: GPL-2.0 */
/*
 * http_server.h - GET /metrics over HTTP (libmicrohttpd, in one thread of
 * its own; what one client may hold: http_server.c).  The interval loop publishes a finished snapshot (the text in
 * both formats); a scrape takes a reference to the current snapshot under
 * a mutex and sends it, so scrapes never touch BPF maps or the series
 * store.  Other paths get 404, other methods than GET and HEAD 405.
 */
#ifndef SWITCHSTAT_HTTP_SERVER_H
#define SWITCHSTAT_HTTP_SERVER_H

#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>

struct ss_http;

/*
 * ss_http_start - listen on @sa and serve in a thread of its own (which
 * blocks SIGINT and SIGTERM, so they reach the main loop).  Until the
 * first ss_http_publish, /metrics answers 503.  Returns the server, or
 * NULL with a message in @err (address in use, permission...).
 */
struct ss_http *ss_http_start(const struct sockaddr *sa, socklen_t salen,
			      char *err, size_t errlen);

/*
 * ss_http_publish - make @text (text 0.0.4) and @om (OpenMetrics) of
 * @text_len and @om_len bytes, both malloc'ed, the answer to the next
 * scrapes.  Takes ownership of both buffers; the previous snapshot is freed
 * when its last scrape has been sent.
 */
void ss_http_publish(struct ss_http *h, char *text, size_t text_len, char *om,
		     size_t om_len);

/* ss_http_requests - requests answered so far (any path or status). */
uint64_t ss_http_requests(struct ss_http *h);

/* ss_http_stop - stop serving, wait for the thread, free everything. */
void ss_http_stop(struct ss_http *h);

#endif
