// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * server.c - the server: one run at a time, every client message distrusted
 *
 * Two threads.  The main one owns the listening socket and every connection
 * that has not said HELLO yet: it never blocks on a client, so a silent or
 * slow one costs a slot of a bounded table for at most
 * RDC_BENCH_HELLO_TIMEOUT_S, and nobody else any time.  A HELLO while no
 * run is in progress hands the connection to a run thread, which drives
 * the run to its end; a HELLO while one is in progress is answered at once
 * with ERROR EBUSY naming the run (not its client).  A client that said
 * HELLO holds the run slot only while it keeps the handshake going: SETUP
 * and START are each due within RDC_BENCH_SETUP_TIMEOUT_S.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <stddef.h>
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
#include "bench/hugepages.h"
#include "bench/proto.h"
#include "bench/server.h"
#include "host/system.h"
#include "kernel/addr.h"
#include "seam/fs.h"

#define MSG_TIMEOUT_MS 10000 /* a message begun must be whole within this */
#define SETUP_TIMEOUT_MS (RDC_BENCH_SETUP_TIMEOUT_S * 1000)
#define START_TIMEOUT_MS (RDC_BENCH_SETUP_TIMEOUT_S * 1000)
#define DONE_SLACK_MS 60000 /* past the planned end of a timed run */
#define POLL_MS 500	    /* how often a waiting thread looks at the stop flag */
#define LINGER_MS 1000	    /* a turned-away client's time to read its ERROR and close */
#define LISTEN_BACKLOG 128
/*
 * The largest first message read whole: a HELLO is 12 + 2 + 31 bytes, the
 * ERROR of a client that gave up before its HELLO holds an error record's
 * message whole (code, length, text: protocol 3).
 */
#define FIRST_CAP (RDC_BENCH_HDR_LEN + 4 + 2 + RDC_ERR_MSG_LEN)

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
	if (bind(fd, (struct sockaddr *)&sa, sizeof(sa)) || listen(fd, LISTEN_BACKLOG) ||
	    fcntl(fd, F_SETFL, O_NONBLOCK)) {
		int e = errno;

		close(fd);
		return rdc_err_set(err, e, "cannot listen on %s:%u", o->bind ? o->bind : "0.0.0.0",
				   o->port);
	}
	return fd;
}

struct server;

/* The run in progress: owned by the run thread from its start to its end. */
struct server_run {
	struct server *srv;
	const struct rdc_bench_server_opts *o;
	const struct rdc_bench_server_cb *cb;
	unsigned int number;
	int fd;
	struct rdc_bench_report r;
	struct rdc_bench_link *links[RDC_BENCH_MAX_LINKS];
	struct rdc_bench_sync sync;
	struct rdc_bench_endpoint eps[RDC_BENCH_MAX_ENDPOINTS]; /* offered in PORTS */
	uint32_t neps;
	struct rdc_bench_msg msg;
	bool begun;
};

static bool interrupted(const struct server_run *s)
{
	return s->o->interrupted && *s->o->interrupted;
}

/*
 * Wait for the client's @type to begin: 0 once there is something to read
 * (or the client closed), -ETIMEDOUT when nothing came within @timeout_ms
 * (-1: as long as the connection lives), -EINTR once the server is stopped.
 */
static int server_await(struct server_run *s, unsigned int type, int timeout_ms,
			struct rdc_err *err)
{
	uint64_t deadline =
		timeout_ms < 0 ? 0 : rdc_bench_now_ns() + (uint64_t)timeout_ms * 1000000;

	for (;;) {
		struct pollfd pfd = {.fd = s->fd, .events = POLLIN};

		if (interrupted(s))
			return rdc_err_set(err, EINTR, "the server was stopped");
		if (deadline && rdc_bench_now_ns() >= deadline)
			return rdc_err_set(err, ETIMEDOUT, "the client sent no %s within %d s",
					   rdc_bench_msg_name(type), (timeout_ms + 999) / 1000);
		if (poll(&pfd, 1, POLL_MS) > 0)
			return 0;
	}
}

/* Receive @type within @timeout_ms (-1: as long as the connection lives), minding the stop flag. */
static int server_expect(struct server_run *s, unsigned int type, int timeout_ms,
			 struct rdc_err *err)
{
	int rc = server_await(s, type, timeout_ms, err);

	return rc ? rc : rdc_bench_ctl_expect(s->fd, &s->msg, type, MSG_TIMEOUT_MS, "client", err);
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

/* After the HELLO (read by the main thread): this host's endpoints, offered once per session. */
static int server_hello(struct server_run *s, struct rdc_err *err)
{
	struct rdc_bench_msg *m = &s->msg;
	int rc;

	rc = rdc_bench_endpoints_read(s->eps, RDC_BENCH_MAX_ENDPOINTS, &s->neps, err);
	if (rc)
		return rc;
	memset(m, 0, sizeof(*m));
	m->type = RDC_BENCH_MSG_PORTS;
	if (gethostname(m->u.ports.host, sizeof(m->u.ports.host) - 1))
		rdc_strlcpy(m->u.ports.host, "?", sizeof(m->u.ports.host));
	m->u.ports.count = s->neps;
	memcpy(m->u.ports.eps, s->eps, s->neps * sizeof(s->eps[0]));
	return rdc_bench_ctl_send(s->fd, m, err);
}

/* The SETUP in s->msg: every field checked, the links opened and connected, SETUP_OK. */
static int server_setup(struct server_run *s, struct rdc_err *err)
{
	struct rdc_bench_msg *m = &s->msg;
	const struct rdc_bench_endpoint *eps = s->eps;
	struct rdc_bench_link_wire mine[RDC_BENCH_MAX_LINKS];
	uint32_t neps = s->neps, nlinks;
	int rc;

	s->r.params = m->u.setup.params;
	/* Under --root the endpoints are a bundle's: the handshake can be rehearsed, no data moves. */
	if (!rdc_system_live())
		return rdc_err_set(
			err, EROFS,
			"the server reads a bundle (--root %s): it offers its ports, but "
			"no data can move",
			rdc_fs_root() ? rdc_fs_root() : "?");
	rc = rdc_bench_params_check(&s->r.params, err);
	if (rc) {
		/* The check's message whole, said again in the server's words (a copy: it is rewritten). */
		char *why = err ? strdup(err->msg) : NULL;

		rc = rdc_err_set(err, EINVAL, "the client's parameters are refused: %s",
				 why ? why : "see the client");
		free(why);
		return rc;
	}
	nlinks = m->u.setup.nlinks;
	if (!nlinks)
		return rdc_err_set(err, EINVAL, "the client asked for no links");
	if (rdc_bench_params_memory(&s->r.params, nlinks) > RDC_BENCH_MAX_MEMORY)
		return rdc_err_set(err, EINVAL, "%u links of size x qps need more than %llu MiB",
				   nlinks, RDC_BENCH_MAX_MEMORY >> 20);
	/* hugepages: the pool is checked before any link takes from it (nothing half-done). */
	if (s->r.params.hugepages) {
		struct rdc_bench_huge h;

		rc = rdc_bench_huge_read(&h, err);
		if (!rc)
			rc = rdc_bench_huge_check(&h, &s->r.params, nlinks, true, err);
		if (rc)
			return rc;
	}
	for (uint32_t i = 0; i < nlinks; i++) {
		const struct rdc_bench_link_wire *w = &m->u.setup.links[i];
		struct rdc_bench_link_report *lr = &s->r.links[i];

		if (w->endpoint >= neps)
			return rdc_err_set(err, EINVAL, "link %u names endpoint %u of %u", i,
					   w->endpoint, neps);
		/* rdma_cm listens once per address and port: one link per server address. */
		for (uint32_t j = 0; s->r.params.rdma_cm && j < i; j++)
			if (m->u.setup.links[j].endpoint == w->endpoint)
				return rdc_err_set(
					err, EINVAL,
					"rdma-cm needs a server address per link: links %u "
					"and %u both go to %s/%u",
					j, i, eps[w->endpoint].device, eps[w->endpoint].port);
		lr->local = eps[w->endpoint];
		remote_endpoint(w, &lr->remote);
		rc = rdc_bench_link_open(&s->links[i], &s->r.params, &lr->local, true, err);
		if (rc)
			return rc;
		s->r.nlinks++;
		rc = rdc_bench_link_connect(s->links[i], w, err);
		/* rdma-cm: listening before SETUP_OK, the client connects once it has it. */
		if (!rc && s->r.params.rdma_cm)
			rc = rdc_bench_link_cm_listen(s->links[i], s->o->port, err);
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

static void server_cb_begin(struct server_run *s);

/*
 * bidir: the client's DONE says its requests are done; this side's may
 * still run (their drain, or iterations a slower direction has not
 * finished).  Wait for them, at most RDC_BENCH_BIDIR_WAIT_S, watching the
 * client: a message or a close now means it gave up.
 */
static int server_wait_sent(struct server_run *s, struct rdc_err *err)
{
	uint64_t deadline = rdc_bench_now_ns() + RDC_BENCH_BIDIR_WAIT_S * 1000000000ull;

	for (;;) {
		struct pollfd pfd = {.fd = s->fd, .events = POLLIN};
		bool all = true;

		for (uint32_t i = 0; i < s->r.nlinks; i++)
			if (!rdc_bench_link_sent(s->links[i]))
				all = false;
		if (all)
			return 0;
		if (interrupted(s))
			return rdc_err_set(err, EINTR, "the server was stopped");
		if (rdc_bench_now_ns() >= deadline)
			return rdc_err_set(err, ETIMEDOUT,
					   "this side's requests (bidir) still ran %u s after the "
					   "client's DONE",
					   RDC_BENCH_BIDIR_WAIT_S);
		if (poll(&pfd, 1, 10) > 0)
			return rdc_err_set(err, ECONNABORTED,
					   "the client gave up while this side's requests (bidir) "
					   "ended");
	}
}

/*
 * bidir: this side's window, counted as the client counts its own: a timed
 * run's whole window, else from the first link's start to the last one's end.
 */
static uint64_t server_window(const struct server_run *s)
{
	uint64_t start = UINT64_MAX, end = 0;

	if (s->r.params.duration_ns)
		return s->r.params.duration_ns;
	for (uint32_t i = 0; i < s->r.nlinks; i++) {
		const struct rdc_bench_result *res = rdc_bench_link_result(s->links[i]);

		if (res->window_start_ns < start)
			start = res->window_start_ns;
		if (res->window_end_ns > end)
			end = res->window_end_ns;
	}
	return end > start ? end - start : 0;
}

/*
 * rdma-cm: serve the links' connection requests until every QP is
 * connected, within START's time.  The client's START may come before the
 * last ESTABLISHED (it sends it after its RTU): *started says it came; an
 * ERROR (the client gave up) ends the wait.
 */
static int server_cm_accept(struct server_run *s, bool *started, struct rdc_err *err)
{
	/* A second per QP beside START's time: the client connects them one by one. */
	uint64_t deadline =
		rdc_bench_now_ns() +
		((uint64_t)START_TIMEOUT_MS + 1000ull * s->r.params.qps * s->r.nlinks) * 1000000;
	struct pollfd pfd[1 + RDC_BENCH_MAX_LINKS];

	for (;;) {
		uint32_t ready = 0, n = 0;
		int rc;

		for (uint32_t i = 0; i < s->r.nlinks; i++)
			ready += rdc_bench_link_cm_ready(s->links[i]);
		if (ready == s->r.nlinks)
			return 0;
		if (interrupted(s))
			return rdc_err_set(err, EINTR, "the server was stopped");
		if (rdc_bench_now_ns() >= deadline) {
			const char *why = NULL;

			for (uint32_t i = 0; i < s->r.nlinks && !why; i++)
				why = rdc_bench_link_cm_refused(s->links[i]);
			return rdc_err_set(err, ETIMEDOUT,
					   "the client connected %u of %u links through rdma_cm "
					   "in time%s%s",
					   ready, s->r.nlinks, why ? "; refused: " : "",
					   why ? why : "");
		}
		pfd[n++] = (struct pollfd){.fd = *started ? -1 : s->fd, .events = POLLIN};
		for (uint32_t i = 0; i < s->r.nlinks; i++)
			pfd[n++] = (struct pollfd){.fd = rdc_bench_link_cm_fd(s->links[i]),
						   .events = POLLIN};
		if (poll(pfd, n, POLL_MS) <= 0)
			continue;
		if (pfd[0].revents) {
			rc = rdc_bench_ctl_expect(s->fd, &s->msg, RDC_BENCH_MSG_START,
						  MSG_TIMEOUT_MS, "client", err);
			if (rc)
				return rc;
			*started = true;
		}
		for (uint32_t i = 0; i < s->r.nlinks; i++) {
			rc = rdc_bench_link_cm_service(s->links[i], err);
			if (rc)
				return rc;
		}
	}
}

static int server_run_links(struct server_run *s, struct rdc_err *err)
{
	const struct rdc_bench_params *p = &s->r.params;
	bool started = false;
	int done_timeout;
	int rc = 0;

	s->begun = true;
	server_cb_begin(s);
	if (p->rdma_cm)
		rc = server_cm_accept(s, &started, err);
	if (!rc && !started)
		rc = server_expect(s, RDC_BENCH_MSG_START, START_TIMEOUT_MS, err);
	if (rc)
		return rc;
	/* A requester too (bidir): start about when the client's threads do. */
	s->sync.start_ns = s->r.start_ns =
		rdc_bench_now_ns() + (p->bidir ? RDC_BENCH_START_DELAY_NS : 0);
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
	if (!rc && p->bidir)
		rc = server_wait_sent(s, err);
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
	/* Protocol 4: the window of this side's requests, over which the client counts them. */
	if (p->bidir)
		s->msg.u.count.window_ns = s->r.server_window_ns = server_window(s);
	for (uint32_t i = 0; i < s->r.nlinks; i++) {
		const struct rdc_bench_result *res = rdc_bench_link_result(s->links[i]);

		s->r.links[i].res.bytes = res->bytes;
		s->r.links[i].res.msgs = res->msgs;
		s->r.links[i].res.errors = res->errors;
		s->r.links[i].res.recv_msgs = res->recv_msgs;
		s->r.links[i].res.recv_bytes = res->recv_bytes;
		s->r.links[i].res.status = res->status;
		memcpy(s->r.links[i].res.error, res->error, sizeof(res->error));
		s->msg.u.count.links[i].bytes = res->bytes;
		s->msg.u.count.links[i].msgs = res->msgs;
		s->msg.u.count.links[i].errors = res->errors;
	}
	return rdc_bench_ctl_send(s->fd, &s->msg, err);
}

/* ---- the main thread: connections before their HELLO ---- */

enum conn_state {
	CONN_FREE,
	CONN_HELLO,  /* accepted, its HELLO not whole yet */
	CONN_LINGER, /* told why it is turned away: drained until it closes */
};

struct conn {
	enum conn_state state;
	int fd;
	uint64_t since_ns;    /* accepted; the oldest goes first when the table is full */
	uint64_t deadline_ns; /* HELLO due, or the end of the linger */
	size_t have;	      /* bytes of buf read */
	char peer[64];	      /* "ADDR:PORT" */
	uint8_t buf[FIRST_CAP];
};

struct server {
	const struct rdc_bench_server_opts *o;
	const struct rdc_bench_server_cb *cb;
	int lfd;
	int wake[2]; /* the run thread writes a byte when its run has ended */
	/* One callback at a time: the run thread and the main thread both report. */
	pthread_mutex_t cb_lock;
	struct conn conns[RDC_BENCH_MAX_PENDING];
	struct rdc_bench_report *refusal; /* scratch of the main thread */
	/* The run in progress, if any; these fields are the main thread's. */
	struct server_run *run;
	pthread_t thread;
	unsigned int number; /* of the last run started */
	uint64_t run_since_ns;
	int last_status;
};

static bool srv_interrupted(const struct server *srv)
{
	return srv->o->interrupted && *srv->o->interrupted;
}

static void server_cb_begin(struct server_run *s)
{
	if (!s->cb->run_begin)
		return;
	pthread_mutex_lock(&s->srv->cb_lock);
	s->cb->run_begin(s->cb->arg, s->number, &s->r);
	pthread_mutex_unlock(&s->srv->cb_lock);
}

static void server_cb_end(struct server *srv, unsigned int run, const struct rdc_bench_report *r)
{
	if (!srv->cb->run_end)
		return;
	pthread_mutex_lock(&srv->cb_lock);
	srv->cb->run_end(srv->cb->arg, run, r);
	pthread_mutex_unlock(&srv->cb_lock);
}

/* The next run of a session starts from an empty report: the client's address stays. */
static void server_next_run(struct server_run *s)
{
	char peer[sizeof(s->r.peer)];

	memcpy(peer, s->r.peer, sizeof(peer));
	rdc_bench_report_free(&s->r);
	memcpy(s->r.peer, peer, sizeof(peer));
	memset(&s->sync, 0, sizeof(s->sync));
	s->begun = false;
}

/*
 * After a whole run: true when the session is over, the client closed or
 * said nothing within SETUP_TIMEOUT_MS (a client still freeing a big run's
 * buffers, or one stopped), or the server is being stopped.  No run failed
 * then and none is reported; a client still there is told why the server
 * hangs up, should it want another run.
 */
static bool server_session_over(struct server_run *s)
{
	struct rdc_err err = {0};
	char probe;
	ssize_t n;
	int rc = server_await(s, RDC_BENCH_MSG_SETUP, SETUP_TIMEOUT_MS, &err);

	if (rc == -ETIMEDOUT)
		snprintf(err.msg, sizeof(err.msg),
			 "no SETUP within %d s of the last run: the session is over",
			 RDC_BENCH_SETUP_TIMEOUT_S);
	if (rc) {
		rdc_bench_ctl_send_error(s->fd, -rc, err.msg);
		return true;
	}
	/* Readable: the next SETUP, or the close that ends the session. */
	n = recv(s->fd, &probe, 1, MSG_PEEK | MSG_DONTWAIT);
	return n == 0 || (n < 0 && errno == ECONNRESET);
}

/*
 * A session: PORTS, then runs, each SETUP to RESULT, until the client closes
 * or falls silent after a whole run (server_session_over; protocol 4: size
 * all sends SETUP again after RESULT).
 * Each run is reported on its own, all with the session's number.
 */
static void server_serve_one(struct server_run *s)
{
	struct rdc_err err = {0};
	int rc = server_hello(s, &err);

	for (unsigned int k = 0;; k++) {
		if (!rc && k && server_session_over(s))
			break;
		if (!rc)
			rc = server_expect(s, RDC_BENCH_MSG_SETUP, SETUP_TIMEOUT_MS, &err);
		if (!rc && k >= RDC_BENCH_SESSION_RUNS)
			rc = rdc_err_set(&err, EPROTO, "more than %u runs in one session",
					 RDC_BENCH_SESSION_RUNS);
		if (!rc)
			rc = server_setup(s, &err);
		if (!rc)
			rc = server_run_links(s, &err);
		if (rc) {
			s->r.status = rc;
			_Static_assert(sizeof(s->r.error) == sizeof(err.msg),
				       "the report holds a message");
			memcpy(s->r.error, err.msg, sizeof(s->r.error));
			/* The client learns why, unless it is the one that left. */
			if (rc != -ECONNRESET)
				rdc_bench_ctl_send_error(s->fd, err.code, err.msg);
		}
		server_cb_end(s->srv, s->number, &s->r);
		for (uint32_t i = 0; i < RDC_BENCH_MAX_LINKS; i++) {
			rdc_bench_link_close(s->links[i]);
			s->links[i] = NULL;
		}
		if (rc)
			break;
		server_next_run(s);
	}
}

static void *server_run_thread(void *arg)
{
	struct server_run *s = arg;
	char byte = 1;
	ssize_t n;

	server_serve_one(s);
	rdc_bench_ctl_close(s->fd);
	s->fd = -1;
	/* Wake the main thread; a full pipe (it cannot be) would say the same. */
	n = write(s->srv->wake[1], &byte, 1);
	(void)n;
	return NULL;
}

/* The run thread has ended (or is about to): wait for it and free its run. */
static void server_join(struct server *srv)
{
	char sink[16];

	if (!srv->run)
		return;
	pthread_join(srv->thread, NULL);
	srv->last_status = srv->run->r.status;
	rdc_bench_report_free(&srv->run->r);
	free(srv->run);
	srv->run = NULL;
	while (read(srv->wake[0], sink, sizeof(sink)) > 0)
		;
}

static void conn_close(struct conn *c)
{
	close(c->fd);
	c->fd = -1;
	c->state = CONN_FREE;
}

/* Log a client turned away before a run: run null, its address and why. */
static void server_refused(struct server *srv, const char *peer, int code, const char *why)
{
	struct rdc_bench_report *r = srv->refusal;

	memset(r, 0, sizeof(*r));
	rdc_strlcpy(r->peer, peer, sizeof(r->peer));
	r->status = -code;
	rdc_strlcpy(r->error, why, sizeof(r->error));
	server_cb_end(srv, 0, r);
}

/*
 * Turn @c away: log why, tell it (unless @tell is false: it left, or spoke
 * ERROR itself), and let it read that before the close.  Closing with its
 * bytes unread would send a reset that can discard the ERROR, so the
 * connection is drained for up to LINGER_MS without holding anyone up.
 */
static void conn_refuse(struct server *srv, struct conn *c, bool tell, int code, const char *why)
{
	server_refused(srv, c->peer, code, why);
	if (!tell) {
		conn_close(c);
		return;
	}
	rdc_bench_ctl_send_error_now(c->fd, code, why);
	shutdown(c->fd, SHUT_WR);
	c->state = CONN_LINGER;
	c->deadline_ns = rdc_bench_now_ns() + (uint64_t)LINGER_MS * 1000000;
}

/* Start a run on @c, whose HELLO was read: the connection moves to a run thread. */
static int server_start_run(struct server *srv, struct conn *c, struct rdc_err *err)
{
	struct server_run *s = calloc(1, sizeof(*s));
	int rc;

	if (!s)
		return rdc_err_set(err, ENOMEM, "out of memory");
	s->srv = srv;
	s->o = srv->o;
	s->cb = srv->cb;
	s->fd = c->fd;
	s->number = srv->number + 1;
	rdc_strlcpy(s->r.peer, c->peer, sizeof(s->r.peer));
	rc = pthread_create(&srv->thread, NULL, server_run_thread, s);
	if (rc) {
		free(s);
		return rdc_err_set(err, rc, "cannot start a thread for the run");
	}
	srv->number++;
	srv->run = s;
	srv->run_since_ns = rdc_bench_now_ns();
	c->fd = -1;
	c->state = CONN_FREE;
	return 0;
}

/* A whole first message is in c->buf: a HELLO starts a run, or is told the server is busy. */
static void conn_hello(struct server *srv, struct conn *c)
{
	struct rdc_bench_msg *m = calloc(1, sizeof(*m));
	struct rdc_err err = {0};
	bool gave_up = false;
	char busy[256];
	int rc;

	if (!m) {
		conn_refuse(srv, c, true, ENOMEM, "out of memory");
		return;
	}
	rc = rdc_bench_msg_decode(c->buf, c->have, m, &err);
	if (!rc && m->type == RDC_BENCH_MSG_ERROR) {
		/* The client gave up (as rdc_bench_ctl_expect reads it): nothing to tell it. */
		int code = m->u.error.code > 0 && m->u.error.code < 4096 ? m->u.error.code : EPROTO;

		rc = rdc_err_set(&err, code, "client: %s", m->u.error.text);
		gave_up = true;
	} else if (!rc && m->type != RDC_BENCH_MSG_HELLO) {
		rc = rdc_err_set(&err, EPROTO, "client sent %s where HELLO was due",
				 rdc_bench_msg_name(m->type));
	}
	if (rc) {
		conn_refuse(srv, c, !gave_up, err.code, err.msg);
	} else if (srv->run) {
		/* Who holds the run is the operator's to know (the server's log), not every caller's. */
		snprintf(busy, sizeof(busy),
			 "busy with run %u, started %llu s ago; try again later", srv->number,
			 (unsigned long long)((rdc_bench_now_ns() - srv->run_since_ns) /
					      1000000000));
		conn_refuse(srv, c, true, EBUSY, busy);
	} else if (server_start_run(srv, c, &err)) {
		conn_refuse(srv, c, true, err.code, err.msg);
	}
	free(m);
}

/* @c is readable while it owes its HELLO: read what is there, act on a whole message. */
static void conn_read_hello(struct server *srv, struct conn *c)
{
	struct rdc_err err = {0};
	uint16_t version, type;
	uint32_t len = 0;
	size_t want = RDC_BENCH_HDR_LEN;
	ssize_t n;
	int rc;

	if (c->have >= RDC_BENCH_HDR_LEN) {
		rc = rdc_bench_hdr_decode(c->buf, &version, &type, &len, &err);
		if (rc) {
			conn_refuse(srv, c, true, err.code, err.msg);
			return;
		}
		want += len;
	}
	n = recv(c->fd, c->buf + c->have, want - c->have, MSG_DONTWAIT);
	if (n == 0) {
		conn_refuse(srv, c, false, ECONNRESET,
			    "waiting for HELLO from the client: the peer closed the connection");
		return;
	}
	if (n < 0) {
		if (errno == EINTR || errno == EAGAIN)
			return;
		rc = errno;
		rdc_err_set_plain(&err, rc, "waiting for HELLO from the client: %s", strerror(rc));
		conn_refuse(srv, c, false, rc, err.msg);
		return;
	}
	c->have += (size_t)n;
	if (c->have < want)
		return;
	if (want == RDC_BENCH_HDR_LEN) {
		/* The header is whole: check it, and whether its message fits. */
		rc = rdc_bench_hdr_decode(c->buf, &version, &type, &len, &err);
		if (!rc && RDC_BENCH_HDR_LEN + (size_t)len > sizeof(c->buf))
			rc = rdc_err_set(&err, EMSGSIZE,
					 "a %s message of %u bytes where HELLO (or ERROR, at most "
					 "%zu) was due",
					 rdc_bench_msg_name(type), len,
					 sizeof(c->buf) - RDC_BENCH_HDR_LEN);
		if (rc) {
			conn_refuse(srv, c, true, err.code, err.msg);
			return;
		}
		if (len)
			return; /* the payload next time round */
	}
	conn_hello(srv, c);
}

static void conn_drain(struct conn *c)
{
	char sink[4096];
	ssize_t n = recv(c->fd, sink, sizeof(sink), MSG_DONTWAIT);

	if (n == 0 || (n < 0 && errno != EINTR && errno != EAGAIN))
		conn_close(c);
}

/* A free slot for a new connection: when none is free, the oldest is pushed out. */
static struct conn *conn_slot(struct server *srv)
{
	struct conn *oldest = NULL;

	for (size_t i = 0; i < RDC_BENCH_MAX_PENDING; i++) {
		struct conn *c = &srv->conns[i];

		if (c->state == CONN_FREE)
			return c;
		/* A lingering one is done already: it goes before any that may still say HELLO. */
		if (!oldest || (c->state == CONN_LINGER && oldest->state != CONN_LINGER) ||
		    (c->state == oldest->state && c->since_ns < oldest->since_ns))
			oldest = c;
	}
	if (!oldest)
		return NULL; /* no table at all: not with RDC_BENCH_MAX_PENDING > 0 */
	if (oldest->state == CONN_HELLO) {
		char why[160];

		snprintf(why, sizeof(why),
			 "dropped without its HELLO: %d connections were waiting to say it, "
			 "this one the longest",
			 RDC_BENCH_MAX_PENDING);
		server_refused(srv, oldest->peer, EAGAIN, why);
		rdc_bench_ctl_send_error_now(oldest->fd, EAGAIN, why);
	}
	conn_close(oldest);
	return oldest;
}

static void server_accept(struct server *srv)
{
	for (;;) {
		struct sockaddr_in peer = {0};
		socklen_t len = sizeof(peer);
		char ip[INET_ADDRSTRLEN] = "?";
		struct conn *c;
		int fd;

		fd = accept4(srv->lfd, (struct sockaddr *)&peer, &len,
			     SOCK_CLOEXEC | SOCK_NONBLOCK);
		if (fd < 0)
			return; /* EAGAIN: none left; anything else: the next round tries again */
		c = conn_slot(srv);
		if (!c) {
			close(fd);
			return;
		}
		memset(c, 0, offsetof(struct conn, buf));
		c->fd = fd;
		c->state = CONN_HELLO;
		c->since_ns = rdc_bench_now_ns();
		c->deadline_ns = c->since_ns + (uint64_t)RDC_BENCH_HELLO_TIMEOUT_S * 1000000000;
		inet_ntop(AF_INET, &peer.sin_addr, ip, sizeof(ip));
		snprintf(c->peer, sizeof(c->peer), "%s:%u", ip, ntohs(peer.sin_port));
		rdc_bench_ctl_keepalive(fd);
		if (srv->o->has_allow &&
		    !rdc_ipv4_same_subnet(ntohl(peer.sin_addr.s_addr), srv->o->allow_net,
					  srv->o->allow_prefix)) {
			char why[96];

			snprintf(why, sizeof(why), "client %s is not in the allowed range", ip);
			conn_refuse(srv, c, true, EACCES, why);
		}
	}
}

/* Connections past their deadline: a HELLO overdue is told so, a linger ends. */
static void server_expire(struct server *srv, uint64_t now)
{
	for (size_t i = 0; i < RDC_BENCH_MAX_PENDING; i++) {
		struct conn *c = &srv->conns[i];
		char why[96];

		if (c->state == CONN_FREE || now < c->deadline_ns)
			continue;
		if (c->state == CONN_LINGER) {
			conn_close(c);
			continue;
		}
		snprintf(why, sizeof(why), "the client sent no HELLO within %d s",
			 RDC_BENCH_HELLO_TIMEOUT_S);
		conn_refuse(srv, c, true, ETIMEDOUT, why);
	}
}

/* One round of the main thread: wait for any socket (at most POLL_MS), handle what is ready. */
static void server_round(struct server *srv)
{
	struct pollfd pfd[2 + RDC_BENCH_MAX_PENDING];
	struct conn *who[2 + RDC_BENCH_MAX_PENDING];
	uint64_t now = rdc_bench_now_ns(), next = now + (uint64_t)POLL_MS * 1000000;
	nfds_t n = 0;

	pfd[n++] = (struct pollfd){.fd = srv->lfd, .events = POLLIN};
	pfd[n++] = (struct pollfd){.fd = srv->wake[0], .events = POLLIN};
	for (size_t i = 0; i < RDC_BENCH_MAX_PENDING; i++) {
		struct conn *c = &srv->conns[i];

		if (c->state == CONN_FREE)
			continue;
		if (c->deadline_ns < next)
			next = c->deadline_ns;
		who[n] = c;
		pfd[n++] = (struct pollfd){.fd = c->fd, .events = POLLIN};
	}
	if (poll(pfd, n, next > now ? (int)((next - now) / 1000000) + 1 : 0) < 0)
		return; /* a signal: the caller looks at the stop flag */
	if (pfd[1].revents)
		server_join(srv);
	for (nfds_t i = 2; i < n; i++) {
		struct conn *c = who[i];

		/* A slot reused by an accept below is not this round's. */
		if (!pfd[i].revents || c->fd != pfd[i].fd)
			continue;
		if (c->state == CONN_HELLO)
			conn_read_hello(srv, c);
		else if (c->state == CONN_LINGER)
			conn_drain(c);
	}
	server_expire(srv, rdc_bench_now_ns());
	if (pfd[0].revents)
		server_accept(srv);
}

bool rdc_bench_server_system_ok(void)
{
	return rdc_system_live() || rdc_fs_root();
}

int rdc_bench_server_serve(const struct rdc_bench_server_opts *o,
			   const struct rdc_bench_server_cb *cb, int *last_status,
			   struct rdc_err *err)
{
	struct server *srv;
	int rc = 0;

	uint32_t neps;

	rdc_bench_ctl_set_interrupt(o->interrupted);
	*last_status = 0;
	/* A server with nothing to offer would only tell each client so: refuse to start. */
	rc = rdc_bench_endpoints_usable(&neps, err);
	if (rc)
		return rc;
	srv = calloc(1, sizeof(*srv));
	if (!srv)
		return rdc_err_set(err, ENOMEM, "out of memory");
	srv->o = o;
	srv->cb = cb;
	srv->refusal = calloc(1, sizeof(*srv->refusal));
	if (!srv->refusal) {
		rc = rdc_err_set(err, ENOMEM, "out of memory");
		goto err_refusal;
	}
	if (pipe2(srv->wake, O_CLOEXEC | O_NONBLOCK)) {
		rc = rdc_err_set(err, errno, "cannot make a pipe");
		goto err_pipe;
	}
	pthread_mutex_init(&srv->cb_lock, NULL);
	srv->lfd = listen_socket(o, err);
	if (srv->lfd < 0) {
		rc = srv->lfd;
		goto err_listen;
	}
	if (cb->listening)
		cb->listening(cb->arg, o->bind ? o->bind : "0.0.0.0", o->port);
	while (!srv_interrupted(srv) && !(o->once && srv->number && !srv->run))
		server_round(srv);
	/* Stopped (a run in progress ends at its next look at the flag), or once and done. */
	server_join(srv);
	*last_status = srv->last_status;
	for (size_t i = 0; i < RDC_BENCH_MAX_PENDING; i++)
		if (srv->conns[i].state != CONN_FREE)
			conn_close(&srv->conns[i]);
	close(srv->lfd);
err_listen:
	pthread_mutex_destroy(&srv->cb_lock);
	close(srv->wake[0]);
	close(srv->wake[1]);
err_pipe:
	free(srv->refusal);
err_refusal:
	free(srv);
	return rc;
}
