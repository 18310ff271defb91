// SPDX-License-Identifier: GPL-2.0-or-later
/* client.c - the client of a run: pairs links, drives the server, measures, reports */
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "base/util.h"
#include "bench/client.h"
#include "bench/ctl.h"
#include "bench/hugepages.h"
#include "bench/proto.h"
#include "bench/server.h"
#include "host/cpu_times.h"
#include "host/ibdev.h"
#include "host/port_counters.h"
#include "kernel/ethtool.h"
#include "seam/fs.h"

#define CONNECT_TIMEOUT_MS 5000
#define REPLY_TIMEOUT_MS 10000
#define SETUP_TIMEOUT_MS 60000	     /* the server registers memory and creates QPs */
#define RUN_SLACK_NS 120000000000ull /* past the planned end, a run is cut off */

/*
 * The counters a run's report shows per link, where the port has them:
 * mlx5 and rxe name their RoCE loss and congestion counters differently.
 */
static const char *const report_counters[] = {
	"out_of_sequence",
	"packet_seq_err",
	"local_ack_timeout_err",
	"rnr_nak_retry_err",
	"implied_nak_seq_err",
	"duplicate_request",
	"np_cnp_sent",
	"rp_cnp_handled",
	"np_ecn_marked_roce_packets",
	"out_of_seq_request",
	"rcvd_seq_err",
	"retry_exceeded_err",
	"retry_rnr_exceeded_err",
	"completer_retry_err",
	"rcvd_rnr_err",
	"send_rnr_err",
	"link_downed",
};

static int connect_server(const char *host, uint16_t port, volatile sig_atomic_t *interrupted,
			  char *peer, size_t peersize, struct rdc_err *err)
{
	struct addrinfo hints = {.ai_family = AF_INET, .ai_socktype = SOCK_STREAM}, *res, *ai;
	char service[8];
	int fd = -1, rc, last = ECONNREFUSED;

	snprintf(service, sizeof(service), "%u", port);
	snprintf(peer, peersize, "%s:%u", host, port);
	rc = getaddrinfo(host, service, &hints, &res);
	if (rc)
		return rdc_err_set(err, EHOSTUNREACH, "cannot resolve '%s': %s", host,
				   gai_strerror(rc));
	for (ai = res; ai && fd < 0; ai = ai->ai_next) {
		struct pollfd pfd;
		socklen_t len = sizeof(last);

		fd = socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
		if (fd < 0) {
			last = errno;
			continue;
		}
		if (connect(fd, ai->ai_addr, ai->ai_addrlen) && errno != EINPROGRESS) {
			last = errno;
			close(fd);
			fd = -1;
			continue;
		}
		pfd = (struct pollfd){.fd = fd, .events = POLLOUT};
		do
			rc = poll(&pfd, 1, CONNECT_TIMEOUT_MS);
		while (rc < 0 && errno == EINTR && !(interrupted && *interrupted));
		if (rc < 0)
			last = errno;
		else if (rc == 0)
			last = ETIMEDOUT;
		else if (getsockopt(fd, SOL_SOCKET, SO_ERROR, &last, &len) || last == 0)
			break;
		close(fd);
		fd = -1;
	}
	freeaddrinfo(res);
	if (fd < 0)
		return rdc_err_set(err, last, "cannot reach the bench server at %s", peer);
	rdc_bench_ctl_keepalive(fd);
	return fd;
}

/* The port's hardware counters and pause frames, whatever of them is readable. */
static void counters_snapshot(const struct rdc_bench_endpoint *e, struct rdc_counter_set *set)
{
	memset(set, 0, sizeof(*set));
	/*
	 * Both directories (the report uses group "hw"); a counter that cannot be
	 * read has no delta, and the report shows it as not measured.
	 */
	rdc_port_counters_read(e->device, e->port, set, NULL, NULL);
	if (e->netdev[0])
		rdc_ethtool_std_stats(e->netdev, set, NULL);
}

static void counters_delta(const struct rdc_counter_set *before,
			   const struct rdc_counter_set *after, struct rdc_counter_set *delta)
{
	for (size_t i = 0; i < RDC_ARRAY_SIZE(report_counters); i++) {
		const struct rdc_counter *a = rdc_counters_find(after, "hw", report_counters[i]);
		const struct rdc_counter *b = rdc_counters_find(before, "hw", report_counters[i]);

		if (a && b)
			rdc_counters_add(delta, "hw", a->name, a->value - b->value);
	}
	for (size_t i = 0; i < after->count; i++) {
		const struct rdc_counter *a = &after->items[i], *b;

		if (strcmp(a->group, "pause"))
			continue;
		b = rdc_counters_find(before, "pause", a->name);
		if (b)
			rdc_counters_add(delta, "pause", a->name, a->value - b->value);
	}
}

static bool port_active(const struct rdc_bench_endpoint *e)
{
	char text[64], name[24];
	int state;

	/* Unknown is not a loss. */
	if (rdc_fs_read(text, sizeof(text), NULL, "/sys/class/infiniband/%s/ports/%u/state",
			e->device, e->port) < 0 ||
	    rdc_port_state_parse(text, &state, name, sizeof(name)))
		return true;
	return !strcmp(name, "ACTIVE");
}

struct client {
	const struct rdc_bench_client_opts *o;
	const struct rdc_bench_client_cb *cb;
	struct rdc_bench_report *r;
	int fd;
	struct rdc_bench_link *links[RDC_BENCH_MAX_LINKS];
	struct rdc_counter_set before[RDC_BENCH_MAX_LINKS];
	struct rdc_bench_sync sync;
	/* The session's links, paired once: every run of a sweep uses them all. */
	struct rdc_bench_endpoint local[RDC_BENCH_MAX_ENDPOINTS];
	struct rdc_bench_endpoint remote[RDC_BENCH_MAX_ENDPOINTS];
	struct rdc_bench_pair pairs[RDC_BENCH_MAX_LINKS];
	uint32_t npairs;
	struct rdc_bench_msg msg; /* scratch: large */
};

/* HELLO and PORTS: the server's endpoints, paired with ours once for the session. */
static int client_hello(struct client *c, struct rdc_err *err)
{
	struct rdc_bench_report *r = c->r;
	struct rdc_bench_msg *m = &c->msg;
	struct rdc_bench_params largest = r->params;
	uint32_t nlocal = 0, nremote;
	int rc;

	memset(m, 0, sizeof(*m));
	m->type = RDC_BENCH_MSG_HELLO;
	snprintf(m->u.hello.software, sizeof(m->u.hello.software), "rdmactl %s", RDC_VERSION);
	rc = rdc_bench_ctl_send(c->fd, m, err);
	if (!rc)
		rc = rdc_bench_ctl_expect(c->fd, m, RDC_BENCH_MSG_PORTS, REPLY_TIMEOUT_MS, "server",
					  err);
	if (rc)
		return rc;
	rdc_strlcpy(r->peer_host, m->u.ports.host, sizeof(r->peer_host));
	nremote = m->u.ports.count;
	memcpy(c->remote, m->u.ports.eps, nremote * sizeof(c->remote[0]));

	rc = rdc_bench_endpoints_read(c->local, RDC_BENCH_MAX_ENDPOINTS, &nlocal, err);
	if (!rc)
		rc = rdc_bench_pair_links(c->local, nlocal, c->remote, nremote, c->o->specs,
					  c->o->nspecs, c->pairs, &c->npairs, err);
	if (rc)
		return rc;
	/* rdma_cm listens once per server address and port: one link per server address. */
	for (uint32_t i = 0; r->params.rdma_cm && i < c->npairs; i++)
		for (uint32_t j = 0; j < i; j++)
			if (c->pairs[j].remote == c->pairs[i].remote)
				return rdc_err_set(err, EINVAL,
						   "rdma-cm needs a server address per link: links "
						   "%u and %u both "
						   "go to %s/%u on the server (give one link per "
						   "server address)",
						   j, i, c->remote[c->pairs[i].remote].device,
						   c->remote[c->pairs[i].remote].port);
	/* A sweep registers its largest size last: it must fit before the first run. */
	if (c->o->size_all)
		largest.size = RDC_BENCH_SWEEP_MAX;
	if (rdc_bench_params_memory(&largest, c->npairs) > RDC_BENCH_MAX_MEMORY) {
		if (c->o->size_all)
			return rdc_err_set(err, EINVAL,
					   "size all: %u links of %u MiB messages x qps need more "
					   "than %llu MiB",
					   c->npairs, RDC_BENCH_SWEEP_MAX >> 20,
					   RDC_BENCH_MAX_MEMORY >> 20);
		return rdc_err_set(err, EINVAL, "%u links of size x qps need more than %llu MiB",
				   c->npairs, RDC_BENCH_MAX_MEMORY >> 20);
	}
	/*
	 * hugepages: the pool is checked before any link takes from it (nothing
	 * half-done), for the largest size a sweep will register.
	 */
	if (r->params.hugepages) {
		struct rdc_bench_huge h;

		rc = rdc_bench_huge_read(&h, err);
		if (!rc)
			rc = rdc_bench_huge_check(&h, &largest, c->npairs, false, err);
		if (rc)
			return rc;
	}
	return 0;
}

/* One run's links: opened here, SETUP and SETUP_OK, connected. */
static int client_setup(struct client *c, struct rdc_err *err)
{
	struct rdc_bench_report *r = c->r;
	struct rdc_bench_msg *m = &c->msg;
	uint32_t npairs = c->npairs;
	int rc;

	memset(m, 0, sizeof(*m));
	m->type = RDC_BENCH_MSG_SETUP;
	m->u.setup.params = r->params;
	for (uint32_t i = 0; i < npairs; i++) {
		struct rdc_bench_link_report *lr = &r->links[i];

		lr->local = c->local[c->pairs[i].local];
		lr->remote = c->remote[c->pairs[i].remote];
		if (!lr->local.active)
			return rdc_err_set(err, ENETDOWN, "link %s/%u (%s): the port is not ACTIVE",
					   lr->local.device, lr->local.port, lr->local.netdev);
		rc = rdc_bench_link_open(&c->links[i], &r->params, &lr->local, false, err);
		if (rc)
			return rc;
		r->nlinks++;
		rdc_bench_link_local(c->links[i], c->pairs[i].remote, &m->u.setup.links[i]);
	}
	m->u.setup.nlinks = npairs;
	rc = rdc_bench_ctl_send(c->fd, m, err);
	if (!rc)
		rc = rdc_bench_ctl_expect(c->fd, m, RDC_BENCH_MSG_SETUP_OK, SETUP_TIMEOUT_MS,
					  "server", err);
	if (rc)
		return rc;
	if (m->u.setup.nlinks != npairs)
		return rdc_err_set(err, EPROTO, "server set up %u links, not %u", m->u.setup.nlinks,
				   npairs);
	for (uint32_t i = 0; i < npairs; i++) {
		rc = rdc_bench_link_connect(c->links[i], &m->u.setup.links[i], err);
		if (!rc && r->params.rdma_cm)
			rc = rdc_bench_link_cm_connect(c->links[i], r->links[i].remote.ipv4,
						       c->o->port, err);
		if (rc)
			return rc;
		r->links[i].path_mtu = rdc_bench_link_mtu(c->links[i]);
	}
	return 0;
}

/* Sleep until @until, waking for the control socket; -errno if the server spoke or left. */
static int client_wait(struct client *c, uint64_t until, struct rdc_err *err)
{
	for (;;) {
		uint64_t now = rdc_bench_now_ns();
		struct pollfd pfd = {.fd = c->fd, .events = POLLIN};
		int rc;

		if (c->o->interrupted && *c->o->interrupted)
			return rdc_err_set(err, EINTR, "interrupted");
		if (now >= until)
			return 0;
		rc = poll(&pfd, 1, (int)((until - now) / 1000000) + 1);
		if (rc > 0) {
			/* Mid-run the server only ever speaks to give up. */
			rc = rdc_bench_ctl_recv(c->fd, &c->msg, 1000, err);
			if (rc == -ECONNRESET)
				return rdc_err_set(err, ECONNRESET,
						   "the server closed the connection mid-run");
			if (rc)
				return rc;
			if (c->msg.type == RDC_BENCH_MSG_ERROR)
				return rdc_err_set(err, ECONNABORTED, "server: %s",
						   c->msg.u.error.text);
			return rdc_err_set(err, EPROTO, "server sent %s mid-run",
					   rdc_bench_msg_name(c->msg.type));
		}
	}
}

/* Every link's own requests are done (a bidir send link still takes the server's). */
static bool all_sent(struct client *c)
{
	for (uint32_t i = 0; i < c->r->nlinks; i++)
		if (!rdc_bench_link_sent(c->links[i]))
			return false;
	return true;
}

static void check_carriers(struct client *c, uint64_t now)
{
	for (uint32_t i = 0; i < c->r->nlinks; i++) {
		bool active = port_active(&c->r->links[i].local);

		rdc_bench_carrier_note(&c->r->links[i], active, now);
		if (!active)
			rdc_bench_link_note_port_down(c->links[i]);
	}
}

/* The measured part: start the threads together, sample, watch the server and the carriers. */
static int client_measure(struct client *c, struct rdc_err *err)
{
	struct rdc_bench_report *r = c->r;
	const struct rdc_bench_params *p = &r->params;
	struct rdc_cpu_times cpu0 = {0}, cpu1 = {0};
	uint64_t t0, planned_end, tick;
	size_t k = 0;
	int rc;

	c->sync.start_ns = r->start_ns = rdc_bench_now_ns() + RDC_BENCH_START_DELAY_NS;
	rc = rdc_bench_links_start(c->links, r->nlinks, &c->sync, err);
	if (rc)
		return rc;
	r->started = true;
	t0 = r->start_ns + p->warmup_ns;
	planned_end = t0 + (p->duration_ns ? p->duration_ns
					   : (uint64_t)RDC_BENCH_MAX_SECONDS * 1000000000ull);
	rc = client_wait(c, t0, err);
	rdc_cpu_times_read(&cpu0, NULL);
	tick = t0 + p->interval_ns;
	while (!rc && !all_sent(c)) {
		/* Wake at least every 50 ms to notice the threads' end and lost carriers. */
		uint64_t now = rdc_bench_now_ns(), until = now + 50000000ull;

		rc = client_wait(c, until < tick ? until : tick, err);
		now = rdc_bench_now_ns();
		check_carriers(c, now);
		if (rc)
			break;
		if (now >= tick) {
			uint64_t bytes[RDC_BENCH_MAX_LINKS];

			for (uint32_t i = 0; i < r->nlinks; i++)
				bytes[i] = rdc_bench_link_interval(c->links[i], k);
			if (!rdc_bench_test_is_lat(p->test) && tick <= planned_end &&
			    c->cb->interval)
				c->cb->interval(c->cb->arg, r, k, bytes);
			k++;
			tick += p->interval_ns;
		}
		if (!cpu1.total && now >= planned_end)
			rdc_cpu_times_read(&cpu1, NULL);
		if (now > planned_end + RUN_SLACK_NS)
			rc = rdc_err_set(err, ETIMEDOUT,
					 "links still busy %u s after the planned end",
					 (unsigned int)(RUN_SLACK_NS / 1000000000ull));
	}
	/*
	 * Cut short: stop every thread now.  Otherwise the threads are joined
	 * after RESULT (client_run_one()): a bidir send link keeps taking the
	 * server's last sends until then.
	 */
	if (rc) {
		rdc_bench_links_stop(&c->sync);
		rdc_bench_links_join(c->links, r->nlinks);
	}
	if (!cpu1.total)
		rdc_cpu_times_read(&cpu1, NULL);
	r->host_cpu_percent = rdc_cpu_busy_percent(&cpu0, &cpu1);
	return rc;
}

/*
 * The run's window from the links' results (final once their requests are
 * done, rdc_bench_link_sent()): the common window of a timed bandwidth run,
 * else from the first link's start to the last one's end.
 */
static void client_window(struct client *c)
{
	struct rdc_bench_report *r = c->r;

	for (uint32_t i = 0; i < r->nlinks; i++) {
		const struct rdc_bench_result *res = rdc_bench_link_result(c->links[i]);

		if (i == 0 || res->window_start_ns < r->window_start_ns)
			r->window_start_ns = res->window_start_ns;
		if (res->window_end_ns > r->window_end_ns)
			r->window_end_ns = res->window_end_ns;
	}
	if (r->params.duration_ns && !rdc_bench_test_is_lat(r->params.test)) {
		/* The common window, whatever each link did inside it. */
		uint64_t planned_end = r->start_ns + r->params.warmup_ns + r->params.duration_ns;

		r->window_start_ns = r->start_ns + r->params.warmup_ns;
		/* A run cut short ends when its last link stopped. */
		if (r->window_end_ns > planned_end || r->window_end_ns < r->window_start_ns)
			r->window_end_ns = planned_end;
	}
}

/* Move each link's result into the report, with statistics and counter deltas (threads joined). */
static void client_collect(struct client *c)
{
	struct rdc_bench_report *r = c->r;

	for (uint32_t i = 0; i < r->nlinks; i++) {
		struct rdc_bench_link_report *lr = &r->links[i];
		const struct rdc_bench_result *res = &lr->res;
		uint64_t base = r->start_ns + r->params.warmup_ns;
		struct rdc_counter_set after;

		/* The report takes the link's arrays over. */
		rdc_bench_link_take_result(c->links[i], &lr->res);
		/* Whole intervals only: a partial one would be divided by the full length. */
		if (res->interval_bytes) {
			size_t n = res->window_end_ns > base
					   ? (size_t)((res->window_end_ns - base) /
						      r->params.interval_ns)
					   : 0;

			lr->res.nintervals = n < res->nintervals ? n : res->nintervals;
		}
		if (res->lat_ns && res->nlat)
			rdc_lat_stats_compute(lr->res.lat_ns, res->nlat, &lr->lat);
		counters_snapshot(&lr->local, &after);
		counters_delta(&c->before[i], &after, &lr->counters);
		rdc_counters_free(&after);
	}
}

/*
 * DONE and RESULT; false when the exchange failed, with why in @why (a single
 * run's numbers stand without the peer's; a sweep cannot go on).
 */
static bool client_finish(struct client *c, struct rdc_err *why)
{
	struct rdc_bench_report *r = c->r;
	struct rdc_bench_msg *m = &c->msg;

	memset(m, 0, sizeof(*m));
	m->type = RDC_BENCH_MSG_DONE;
	m->u.count.window_ns = r->window_end_ns > r->window_start_ns
				       ? r->window_end_ns - r->window_start_ns
				       : 0; /* a link that failed in its warm-up has no window */
	m->u.count.nlinks = r->nlinks;
	/* The threads may still run (bidir send), their counts are final: rdc_bench_link_sent(). */
	for (uint32_t i = 0; i < r->nlinks; i++) {
		const struct rdc_bench_result *res = rdc_bench_link_result(c->links[i]);

		m->u.count.links[i].bytes = res->bytes;
		m->u.count.links[i].msgs = res->msgs;
		m->u.count.links[i].errors = res->errors;
	}
	/* With bidir the server first lets its own requests end (RDC_BENCH_BIDIR_WAIT_S). */
	if (rdc_bench_ctl_send(c->fd, m, why) ||
	    rdc_bench_ctl_expect(c->fd, m, RDC_BENCH_MSG_RESULT,
				 REPLY_TIMEOUT_MS +
					 (r->params.bidir ? RDC_BENCH_BIDIR_WAIT_S * 1000 : 0),
				 "server", why))
		return false;
	for (uint32_t i = 0; i < r->nlinks && i < m->u.count.nlinks; i++)
		r->links[i].peer = m->u.count.links[i];
	/*
	 * bidir: the server's own window, for the rates of its direction; a
	 * window no run can have (over the longest run and its slack) is none.
	 */
	if (r->params.bidir &&
	    m->u.count.window_ns <= (uint64_t)RDC_BENCH_MAX_SECONDS * 1000000000ull + RUN_SLACK_NS)
		r->server_window_ns = m->u.count.window_ns;
	return true;
}

/* One run at r->params: links up, started, measured, collected, told. */
static int client_run_one(struct client *c, bool *finished, struct rdc_err *err)
{
	struct rdc_bench_report *r = c->r;
	const struct rdc_bench_client_cb *cb = c->cb;
	int rc;

	*finished = false;
	rc = client_setup(c, err);
	if (!rc) {
		for (uint32_t i = 0; i < r->nlinks; i++)
			counters_snapshot(&r->links[i].local, &c->before[i]);
		if (cb->linked)
			cb->linked(cb->arg, r);
		memset(&c->msg, 0, sizeof(c->msg));
		c->msg.type = RDC_BENCH_MSG_START;
		rc = rdc_bench_ctl_send(c->fd, &c->msg, err);
		if (!rc)
			rc = rdc_bench_ctl_expect(c->fd, &c->msg, RDC_BENCH_MSG_STARTED,
						  REPLY_TIMEOUT_MS, "server", err);
	}
	if (!rc)
		rc = client_measure(c, err);
	if (r->started)
		client_window(c);
	/* DONE and RESULT before the threads end: bidir send links take the server's last sends. */
	if (!rc) {
		struct rdc_err why = {0};

		*finished = client_finish(c, &why);
		/* A sweep goes on only in step with the server: a lost RESULT ends it. */
		if (!*finished && c->o->size_all && why.code == EINTR)
			rc = rdc_err_set(err, EINTR, "interrupted");
		else if (!*finished && c->o->size_all)
			rc = rdc_err_set(
				err, why.code ? why.code : EPROTO,
				"size all stopped at %u bytes: no RESULT from the server: %s",
				r->params.size, why.msg);
	}
	rdc_bench_links_stop(&c->sync);
	rdc_bench_links_join(c->links, r->nlinks);
	if (r->started)
		client_collect(c);
	return rc;
}

/* The links of the run just ended, closed; the report emptied for the next, the session's parts kept. */
static void client_next_run(struct client *c)
{
	struct rdc_bench_report *r = c->r;
	struct rdc_bench_params params = r->params;
	char peer[sizeof(r->peer)], host[sizeof(r->peer_host)];

	for (uint32_t i = 0; i < RDC_BENCH_MAX_LINKS; i++) {
		rdc_bench_link_close(c->links[i]);
		c->links[i] = NULL;
		rdc_counters_free(&c->before[i]);
	}
	memset(&c->sync, 0, sizeof(c->sync));
	memcpy(peer, r->peer, sizeof(peer));
	memcpy(host, r->peer_host, sizeof(host));
	rdc_bench_report_free(r);
	r->params = params;
	memcpy(r->peer, peer, sizeof(peer));
	memcpy(r->peer_host, host, sizeof(host));
}

/* A sweep stops at a size where a link failed: the rows so far stand, the error says where. */
static int client_sweep_check(struct client *c, struct rdc_err *err)
{
	const struct rdc_bench_report *r = c->r;

	for (uint32_t i = 0; i < r->nlinks; i++) {
		const struct rdc_bench_link_report *lr = &r->links[i];

		if (lr->res.status)
			return rdc_err_set(err, EIO,
					   "size all stopped at %u bytes: link %s/%u (%s) failed: "
					   "%s",
					   r->params.size, lr->local.device, lr->local.port,
					   lr->local.netdev, lr->res.error);
	}
	return 0;
}

int rdc_bench_client_run(const struct rdc_bench_client_opts *o,
			 const struct rdc_bench_client_cb *cb, struct rdc_bench_report *r,
			 struct rdc_err *err)
{
	struct client *c;
	bool finished = false;
	int rc;

	memset(r, 0, sizeof(*r));
	r->params = o->params;
	if (o->size_all)
		r->params.size = RDC_BENCH_SWEEP_MIN;
	rc = o->size_all ? rdc_bench_sweep_check(&r->params, err)
			 : rdc_bench_params_check(&r->params, err);
	if (rc)
		return rc;
	c = calloc(1, sizeof(*c));
	if (!c)
		return rdc_err_set(err, ENOMEM, "out of memory");
	c->o = o;
	c->cb = cb;
	c->r = r;
	rdc_bench_ctl_set_interrupt(o->interrupted);
	c->fd = connect_server(o->host, o->port, o->interrupted, r->peer, sizeof(r->peer), err);
	if (c->fd < 0) {
		rc = c->fd;
		free(c);
		return rc;
	}
	rc = client_hello(c, err);
	/* One run, or (size all) one per size on this connection, the smallest first. */
	while (!rc) {
		rc = client_run_one(c, &finished, err);
		if (!rc && o->size_all)
			rc = client_sweep_check(c, err);
		if (rc && err) {
			r->status = rc;
			/* As large as the record's message: whole. */
			_Static_assert(sizeof(r->error) == sizeof(err->msg),
				       "the report holds a message");
			memcpy(r->error, err->msg, sizeof(r->error));
		}
		if (o->size_all && r->started && cb->size_done)
			cb->size_done(cb->arg, r);
		if (rc || !o->size_all || r->params.size >= RDC_BENCH_SWEEP_MAX)
			break;
		client_next_run(c);
		r->params.size *= 2;
		/* A signal between two sizes (outside any wait): no next SETUP. */
		if (o->interrupted && *o->interrupted)
			rc = rdc_err_set(err, EINTR, "interrupted");
	}
	/* The server learns why, unless the run itself ended whole (a sweep just ends there). */
	if (rc && !finished)
		rdc_bench_ctl_send_error(c->fd, err ? err->code : EIO,
					 err ? err->msg : "the client gave up");
	if (rc && err && !r->status) {
		r->status = rc;
		memcpy(r->error, err->msg, sizeof(r->error));
	}
	for (uint32_t i = 0; i < RDC_BENCH_MAX_LINKS; i++) {
		rdc_bench_link_close(c->links[i]);
		rdc_counters_free(&c->before[i]);
	}
	rdc_bench_ctl_close(c->fd);
	free(c);
	return rc;
}
