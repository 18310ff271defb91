// SPDX-License-Identifier: GPL-2.0-or-later
/* server.c - the server: one run after another, every client message distrusted */
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <arpa/inet.h>
#include <netinet/in.h>

#include "base/ipv4.h"
#include "base/util.h"
#include "bench/client.h"
#include "bench/ctl.h"
#include "bench/proto.h"
#include "bench/server.h"
#include "kernel/addr.h"

#define HELLO_TIMEOUT_MS 10000
#define SETUP_TIMEOUT_MS 60000 /* the client reads its ports and registers memory */
#define START_TIMEOUT_MS 60000
#define DONE_SLACK_MS 60000 /* past the planned end of a timed run */
#define POLL_MS 500	    /* how often an idle server looks at the stop flag */

static int listen_socket(const struct rdc_bench_server_opts *o, struct rdc_err *err)
{
	struct sockaddr_in sa = {.sin_family = AF_INET, .sin_port = htons(o->port)};
	int fd, on = 1;

	if (o->bind && inet_pton(AF_INET, o->bind, &sa.sin_addr) != 1)
		return rdc_err_set(err, EINVAL, "'%s' is not an IPv4 address", o->bind);
	fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return rdc_err_set(err, errno, "cannot open a TCP socket");
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, sizeof(on));
	if (bind(fd, (struct sockaddr *)&sa, sizeof(sa)) || listen(fd, 8)) {
		int e = errno;

		close(fd);
		return rdc_err_set(err, e, "cannot listen on %s:%u", o->bind ? o->bind : "0.0.0.0",
				   o->port);
	}
	return fd;
}

struct server_run {
	const struct rdc_bench_server_opts *o;
	const struct rdc_bench_server_cb *cb;
	unsigned int number;
	int fd;
	struct rdc_bench_report r;
	struct rdc_bench_link *links[RDC_BENCH_MAX_LINKS];
	struct rdc_bench_sync sync;
	struct rdc_bench_msg msg;
	bool begun;
};

static bool interrupted(const struct server_run *s)
{
	return s->o->interrupted && *s->o->interrupted;
}

/* Receive @type within @timeout_ms (-1: as long as the connection lives), minding the stop flag. */
static int server_expect(struct server_run *s, unsigned int type, int timeout_ms,
			 struct rdc_err *err)
{
	uint64_t deadline =
		timeout_ms < 0 ? 0 : rdc_bench_now_ns() + (uint64_t)timeout_ms * 1000000;

	for (;;) {
		struct pollfd pfd = {.fd = s->fd, .events = POLLIN};

		if (interrupted(s))
			return rdc_err_set(err, EINTR, "the server was stopped");
		if (deadline && rdc_bench_now_ns() >= deadline)
			return rdc_err_set(err, ETIMEDOUT, "the client sent no %s in time",
					   rdc_bench_msg_name(type));
		if (poll(&pfd, 1, POLL_MS) > 0)
			return rdc_bench_ctl_expect(s->fd, &s->msg, type, HELLO_TIMEOUT_MS,
						    "client", err);
	}
}

/* The client's side of link @i, as far as its half tells. */
static void remote_endpoint(const struct rdc_bench_link_wire *w, struct rdc_bench_endpoint *e)
{
	memset(e, 0, sizeof(*e));
	memcpy(e->gid, w->gid, 16);
	e->gid_index = w->gid_index;
	e->active_mtu = w->mtu;
	e->ipv4 = (uint32_t)w->gid[12] << 24 | (uint32_t)w->gid[13] << 16 |
		  (uint32_t)w->gid[14] << 8 | w->gid[15];
	e->prefix_len = 32;
	e->numa_node = -1;
}

static int server_setup(struct server_run *s, struct rdc_err *err)
{
	struct rdc_bench_msg *m = &s->msg;
	struct rdc_bench_endpoint eps[RDC_BENCH_MAX_ENDPOINTS];
	struct rdc_bench_link_wire mine[RDC_BENCH_MAX_LINKS];
	uint32_t neps = 0, nlinks;
	int rc;

	rc = server_expect(s, RDC_BENCH_MSG_HELLO, HELLO_TIMEOUT_MS, err);
	if (rc)
		return rc;
	rc = rdc_bench_endpoints_read(eps, RDC_BENCH_MAX_ENDPOINTS, &neps, err);
	if (rc)
		return rc;
	memset(m, 0, sizeof(*m));
	m->type = RDC_BENCH_MSG_PORTS;
	if (gethostname(m->u.ports.host, sizeof(m->u.ports.host) - 1))
		rdc_strlcpy(m->u.ports.host, "?", sizeof(m->u.ports.host));
	m->u.ports.count = neps;
	memcpy(m->u.ports.eps, eps, neps * sizeof(eps[0]));
	rc = rdc_bench_ctl_send(s->fd, m, err);
	if (!rc)
		rc = server_expect(s, RDC_BENCH_MSG_SETUP, SETUP_TIMEOUT_MS, err);
	if (rc)
		return rc;

	s->r.params = m->u.setup.params;
	rc = rdc_bench_params_check(&s->r.params, err);
	if (rc) {
		char why[sizeof(err->msg)] = "";

		if (err)
			snprintf(why, sizeof(why), "%s", err->msg);
		return rdc_err_set(err, EINVAL, "the client's parameters are refused: %.200s", why);
	}
	nlinks = m->u.setup.nlinks;
	if (!nlinks)
		return rdc_err_set(err, EINVAL, "the client asked for no links");
	if (rdc_bench_params_memory(&s->r.params, nlinks) > RDC_BENCH_MAX_MEMORY)
		return rdc_err_set(err, EINVAL, "%u links of size x qps need more than %llu MiB",
				   nlinks, RDC_BENCH_MAX_MEMORY >> 20);
	for (uint32_t i = 0; i < nlinks; i++) {
		const struct rdc_bench_link_wire *w = &m->u.setup.links[i];
		struct rdc_bench_link_report *lr = &s->r.links[i];

		if (w->endpoint >= neps)
			return rdc_err_set(err, EINVAL, "link %u names endpoint %u of %u", i,
					   w->endpoint, neps);
		lr->local = eps[w->endpoint];
		remote_endpoint(w, &lr->remote);
		rc = rdc_bench_link_open(&s->links[i], &s->r.params, &lr->local, true, err);
		if (rc)
			return rc;
		s->r.nlinks++;
		rc = rdc_bench_link_connect(s->links[i], w, err);
		if (rc)
			return rc;
		lr->path_mtu = rdc_bench_link_mtu(s->links[i]);
		rdc_bench_link_local(s->links[i], w->endpoint, &mine[i]);
	}
	memset(m, 0, sizeof(*m));
	m->type = RDC_BENCH_MSG_SETUP_OK;
	m->u.setup.nlinks = nlinks;
	memcpy(m->u.setup.links, mine, nlinks * sizeof(mine[0]));
	return rdc_bench_ctl_send(s->fd, m, err);
}

static int server_run_links(struct server_run *s, struct rdc_err *err)
{
	const struct rdc_bench_params *p = &s->r.params;
	int done_timeout;
	int rc;

	s->begun = true;
	if (s->cb->run_begin)
		s->cb->run_begin(s->cb->arg, s->number, &s->r);
	rc = server_expect(s, RDC_BENCH_MSG_START, START_TIMEOUT_MS, err);
	if (rc)
		return rc;
	s->sync.start_ns = s->r.start_ns = rdc_bench_now_ns();
	rc = rdc_bench_links_start(s->links, s->r.nlinks, &s->sync, err);
	if (rc)
		return rc;
	s->r.started = true;
	memset(&s->msg, 0, sizeof(s->msg));
	s->msg.type = RDC_BENCH_MSG_STARTED;
	rc = rdc_bench_ctl_send(s->fd, &s->msg, err);
	/*
	 * A timed run has a known end.  An iteration run lasts as long as its
	 * client needs, up to the longest run there is: a client that stopped
	 * (SIGSTOP, not gone) does not hold the server for ever.
	 */
	if (p->duration_ns)
		done_timeout = (int)((p->warmup_ns + p->duration_ns) / 1000000) + DONE_SLACK_MS;
	else
		done_timeout = RDC_BENCH_MAX_SECONDS * 1000 + DONE_SLACK_MS;
	if (!rc)
		rc = server_expect(s, RDC_BENCH_MSG_DONE, done_timeout, err);
	rdc_bench_links_stop(&s->sync);
	rdc_bench_links_join(s->links, s->r.nlinks);
	if (rc)
		return rc;
	/* What the client measured, for this side's log. */
	s->r.window_start_ns = 0;
	s->r.window_end_ns = s->msg.u.count.window_ns;
	for (uint32_t i = 0; i < s->r.nlinks && i < s->msg.u.count.nlinks; i++)
		s->r.links[i].peer = s->msg.u.count.links[i];
	memset(&s->msg, 0, sizeof(s->msg));
	s->msg.type = RDC_BENCH_MSG_RESULT;
	s->msg.u.count.nlinks = s->r.nlinks;
	for (uint32_t i = 0; i < s->r.nlinks; i++) {
		const struct rdc_bench_result *res = rdc_bench_link_result(s->links[i]);

		s->r.links[i].res.bytes = res->bytes;
		s->r.links[i].res.msgs = res->msgs;
		s->r.links[i].res.errors = res->errors;
		s->r.links[i].res.status = res->status;
		memcpy(s->r.links[i].res.error, res->error, sizeof(res->error));
		s->msg.u.count.links[i].bytes = res->bytes;
		s->msg.u.count.links[i].msgs = res->msgs;
		s->msg.u.count.links[i].errors = res->errors;
	}
	return rdc_bench_ctl_send(s->fd, &s->msg, err);
}

static void server_serve_one(struct server_run *s)
{
	struct rdc_err err = {0};
	int rc;

	rc = server_setup(s, &err);
	if (!rc)
		rc = server_run_links(s, &err);
	if (rc) {
		s->r.status = rc;
		snprintf(s->r.error, sizeof(s->r.error), "%s", err.msg);
		/* The client learns why, unless it is the one that left. */
		if (rc != -ECONNRESET)
			rdc_bench_ctl_send_error(s->fd, err.code, err.msg);
	}
	if (s->cb->run_end)
		s->cb->run_end(s->cb->arg, s->number, &s->r);
	for (uint32_t i = 0; i < RDC_BENCH_MAX_LINKS; i++) {
		rdc_bench_link_close(s->links[i]);
		s->links[i] = NULL;
	}
}

int rdc_bench_server_serve(const struct rdc_bench_server_opts *o,
			   const struct rdc_bench_server_cb *cb, int *last_status,
			   struct rdc_err *err)
{
	struct server_run *s;
	int lfd;

	rdc_bench_ctl_set_interrupt(o->interrupted);
	*last_status = 0;
	lfd = listen_socket(o, err);
	if (lfd < 0)
		return lfd;
	if (cb->listening)
		cb->listening(cb->arg, o->bind ? o->bind : "0.0.0.0", o->port);
	s = calloc(1, sizeof(*s));
	if (!s) {
		close(lfd);
		return rdc_err_set(err, ENOMEM, "out of memory");
	}
	for (unsigned int number = 1; !(o->interrupted && *o->interrupted);) {
		struct pollfd pfd = {.fd = lfd, .events = POLLIN};
		struct sockaddr_in peer = {0};
		socklen_t len = sizeof(peer);
		char ip[INET_ADDRSTRLEN] = "?";
		int fd;

		if (poll(&pfd, 1, POLL_MS) <= 0)
			continue;
		fd = accept4(lfd, (struct sockaddr *)&peer, &len, SOCK_CLOEXEC);
		if (fd < 0)
			continue;
		memset(s, 0, sizeof(*s));
		s->o = o;
		s->cb = cb;
		s->fd = fd;
		s->number = number;
		inet_ntop(AF_INET, &peer.sin_addr, ip, sizeof(ip));
		snprintf(s->r.peer, sizeof(s->r.peer), "%s:%u", ip, ntohs(peer.sin_port));
		rdc_bench_ctl_keepalive(fd);
		if (o->has_allow && !rdc_ipv4_same_subnet(ntohl(peer.sin_addr.s_addr), o->allow_net,
							  o->allow_prefix)) {
			s->r.status = -EACCES;
			snprintf(s->r.error, sizeof(s->r.error),
				 "client %s is not in the allowed range", ip);
			rdc_bench_ctl_send_error(fd, EACCES, s->r.error);
			if (cb->run_end)
				cb->run_end(cb->arg, 0, &s->r);
			rdc_bench_ctl_close(fd);
			continue;
		}
		server_serve_one(s);
		*last_status = s->r.status;
		rdc_bench_ctl_close(fd);
		number++;
		if (o->once)
			break;
	}
	free(s);
	close(lfd);
	return 0;
}
