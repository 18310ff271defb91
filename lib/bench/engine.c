// SPDX-License-Identifier: GPL-2.0-or-later
/* engine.c - verbs resources per link and the data loops of the bandwidth and latency tests */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <arpa/inet.h>
#include <infiniband/verbs.h>
#include <linux/mempolicy.h>
#include <rdma/rdma_cma.h>

#include "base/cpulist.h"
#include "base/util.h"
#include "bench/ctl.h"
#include "bench/engine.h"
#include "bench/hugepages.h"
#include "bench/pace.h"
#include "kernel/verbs_lib.h"
#include "seam/fs.h"

/*
 * The RNR timer perftest users know: 12 (0.64 ms).  The requester's ACK
 * timeout and retry counts are the run's (rdc_bench_params; by default 14,
 * about 67 ms, and 7 retries: a dead peer or cable ends in a retry-exceeded
 * completion within about 0.5 s).
 */
#define QP_MIN_RNR_TIMER 12
#define QP_HOP_LIMIT 64
#define POLL_BATCH 16 /* completions per ibv_poll_cq */
/*
 * The no-progress limits of small messages; a link's own grow with the bytes it
 * waits for (rdc_bench_silence_ns: link_limits).
 */
#define DRAIN_NS 3000000000ull	    /* how long a link may take to retire its last requests */
#define LAT_ANSWER_NS 5000000000ull /* a lat peer silent this long has gone */
/* A link with requests in flight and no completion this long has failed (RNR loops never end). */
#define STALL_FAIL_NS 10000000000ull
#define MAX_RD_ATOM 16
/*
 * cq-wait events: the longest sleep on the completion channel, so that a stop,
 * a window's edge or a stall is seen in time without a completion to wake on.
 */
#define CQ_SLEEP_MAX_NS 10000000ull /* 10 ms */
/* Duration-mode lat at about 1 us a round trip for RDC_BENCH_MAX_LAT_SECONDS. */
#define MAX_LAT_SAMPLES 60000000u

struct bench_qp {
	struct ibv_qp *qp;
	uint32_t psn;
	uint32_t remote_qpn, remote_psn;
	uint64_t posted, completed; /* work requests, 64-bit: never wrap */
	uint32_t unsignaled;	    /* posted since the last signalled one */
	uint64_t measured_posted;   /* iteration mode: posted inside the window */
	uint32_t warm_tail; /* iteration mode: unsignalled warm-up requests not retired yet */
};

struct rdc_bench_link {
	struct rdc_bench_params p;
	struct rdc_bench_endpoint ep;
	bool server;
	bool use_inline;    /* the run's messages go inline (inline, a size that fits) */
	bool inline_strict; /* the user asked for max_inline: a device that takes less fails */
	struct ibv_context *ctx;
	struct ibv_pd *pd;
	struct ibv_cq *cq;
	struct ibv_comp_channel *cq_ch; /* cq-wait events: the CQ's completion channel */
	struct ibv_mr *mr;
	uint8_t *buf;
	struct ibv_send_wr *wrs; /* post_list of each, for one chain */
	struct ibv_sge *sges;
	uint64_t buf_len, slot;
	uint32_t max_inline; /* asked of the QP; what the device grants may be more */
	uint32_t rd_atom_resp, rd_atom_init; /* device limits as responder / initiator */
	enum ibv_mtu active_mtu, path_mtu;
	uint32_t rx_depth;
	enum rdc_bench_cq_wait cq_wait; /* resolved: the result's cq_wait */
	struct bench_qp qps[RDC_BENCH_MAX_QPS];
	uint32_t nqps;
	uint32_t remote_rkey, remote_rd_atom;
	uint64_t remote_vaddr;
	uint32_t sig_every; /* signal one work request in this many (cq-mod) */
	/* The no-progress limits of this link's message size, ns (link_limits). */
	uint64_t stall_ns, drain_ns, answer_ns;
	uint32_t post_list;	    /* work requests chained per ibv_post_send() */
	uint64_t map_len;	    /* the buffer's mapping: buf_len rounded up to its pages */
	uint64_t page_bytes;	    /* the page size of that mapping (huge pages or not) */
	struct rdc_bench_pace pace; /* rate-limit: the requester's posts, all QPs together */

	struct rdc_bench_sync *sync;
	pthread_t thread;
	bool has_thread;
	struct rdc_bench_result res;
	uint64_t bucket_base_ns; /* start of interval 0: start + warm-up */

	/* rdma-cm: the link's event channel, the server's listener, one id per QP. */
	struct rdma_event_channel *cm_ch;
	struct rdma_cm_id *cm_listen;
	struct rdma_cm_id *cm_ids[RDC_BENCH_MAX_QPS];
	bool cm_up[RDC_BENCH_MAX_QPS]; /* ESTABLISHED (server) or RTU sent (client) */
	uint32_t cm_ready;	       /* QPs up */
	char cm_refused[200];	       /* the server: the last request refused, and why */
	bool quiesced;		       /* quiesce_qps ran: its QPs are in ERR, flushed */
	bool port_went_down;	       /* set by the client's thread (atomic): see run_bw */
	bool cq_armed;		       /* cq-wait events: an event is asked for (cq_sleep) */
};

uint64_t rdc_bench_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static uint64_t thread_cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static bool stop_requested(const struct rdc_bench_link *l)
{
	return __atomic_load_n(&l->sync->stop, __ATOMIC_RELAXED);
}

static uint32_t mtu_bytes(enum ibv_mtu m)
{
	return m >= IBV_MTU_256 && m <= IBV_MTU_4096 ? 128u << m : 0;
}

static enum ibv_mtu mtu_enum(uint32_t bytes)
{
	enum ibv_mtu m = IBV_MTU_256;

	while (m < IBV_MTU_4096 && mtu_bytes(m + 1) <= bytes)
		m++;
	return m;
}

/* Keep the calling thread on the CPUs of @node; silently nothing when unknown. */
static void pin_to_node(int node)
{
	unsigned char cpus[CPU_SETSIZE];
	char list[4096];
	cpu_set_t set;
	bool any = false;

	if (node < 0 ||
	    rdc_fs_read(list, sizeof(list), NULL, "/sys/devices/system/node/node%d/cpulist", node) <
		    0 ||
	    rdc_cpulist_parse(list, cpus, sizeof(cpus)))
		return;
	CPU_ZERO(&set);
	for (int c = 0; c < CPU_SETSIZE; c++)
		if (cpus[c]) {
			CPU_SET(c, &set);
			any = true;
		}
	if (any)
		pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
}

/*
 * Page-aligned anonymous memory of @len bytes, a multiple of @huge when that
 * is not 0 (then from the default huge page pool, MAP_HUGETLB: the mapping
 * reserves its pages, so a pool without them fails here, not on first
 * touch), placed on @node (MPOL_PREFERRED, so a full node falls back rather
 * than fails) before it is first touched.  NULL with errno on failure.
 */
static void *alloc_on_node(size_t len, int node, bool huge)
{
	void *p = mmap(NULL, len, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | (huge ? MAP_HUGETLB : 0), -1, 0);

	if (p == MAP_FAILED)
		return NULL;
	if (node >= 0 && node < 64) {
		unsigned long mask = 1ul << node;

		/* Best effort: without NUMA support the kernel says ENOSYS/EINVAL. */
		(void)syscall(SYS_mbind, p, len, MPOL_PREFERRED, &mask, 64 + 1, 0);
	}
	memset(p, 0, len);
	return p;
}

/* The link's buffer, from huge pages when the run says (hugepages); l->map_len set. */
static int alloc_buffer(struct rdc_bench_link *l, struct rdc_err *err)
{
	struct rdc_bench_huge h = {0};
	int rc, e;

	l->map_len = l->buf_len;
	if (l->p.hugepages) {
		rc = rdc_bench_huge_read(&h, err);
		if (rc)
			return rc;
		l->map_len = rdc_bench_huge_round(l->buf_len, h.page_bytes);
		l->page_bytes = h.page_bytes;
	} else {
		l->page_bytes = (uint64_t)sysconf(_SC_PAGESIZE);
	}
	l->res.buffer_page_bytes = l->page_bytes;
	l->buf = alloc_on_node(l->map_len, l->ep.numa_node, l->p.hugepages);
	if (l->buf)
		return 0;
	e = errno;
	if (!l->p.hugepages)
		return rdc_err_set(err, ENOMEM, "cannot allocate %llu bytes for %s",
				   (unsigned long long)l->buf_len, l->ep.device);
	/* The pool emptied since the run's check (another process), or a limit. */
	rc = rdc_err_set(err, e, "cannot map %llu bytes of %llu kB huge pages%s for %s",
			 (unsigned long long)l->map_len, (unsigned long long)(h.page_bytes >> 10),
			 l->server ? " on the server" : "", l->ep.device);
	rdc_err_detail(err, "%llu free: reserve more%s with sysctl vm.nr_hugepages",
		       (unsigned long long)h.free, l->server ? " there" : "");
	return rc;
}

static int verbs_fail(struct rdc_err *err, int e, const char *what, const struct rdc_bench_link *l)
{
	if (e <= 0)
		e = EIO;
	return rdc_err_set(err, e, "%s/%u: cannot %s", l->ep.device, l->ep.port, what);
}

static int open_device(struct rdc_bench_link *l, struct rdc_err *err)
{
	struct ibv_device **list;
	int n = 0;
	int rc = rdc_verbs_load(err);

	if (rc)
		return rc;
	list = rdc_ibv_get_device_list(&n);
	if (!list)
		return rdc_err_set(err, errno ? errno : ENODEV, "cannot list RDMA devices");
	for (int i = 0; i < n && !l->ctx; i++)
		if (!strcmp(rdc_ibv_get_device_name(list[i]), l->ep.device))
			l->ctx = rdc_ibv_open_device(list[i]);
	rdc_ibv_free_device_list(list);
	if (!l->ctx)
		return rdc_err_set(err, ENODEV, "cannot open RDMA device '%s'", l->ep.device);
	return 0;
}

static int create_qp(struct rdc_bench_link *l, struct bench_qp *q, struct rdc_err *err)
{
	struct ibv_qp_init_attr init = {
		.send_cq = l->cq,
		.recv_cq = l->cq,
		.cap = {.max_send_wr = l->p.tx_depth,
			.max_recv_wr = l->rx_depth,
			.max_send_sge = 1,
			.max_recv_sge = 1,
			.max_inline_data = l->max_inline},
		.qp_type = IBV_QPT_RC,
		.sq_sig_all = 0,
	};
	struct ibv_qp_attr attr = {
		.qp_state = IBV_QPS_INIT,
		.pkey_index = 0,
		.port_num = (uint8_t)l->ep.port,
		.qp_access_flags =
			IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ,
	};
	uint32_t rnd = 0;

	q->qp = rdc_ibv_create_qp(l->pd, &init);
	if (!q->qp && l->max_inline && !l->inline_strict) {
		/* Some devices take less inline data; lat's default then posts from the MR. */
		l->max_inline = init.cap.max_inline_data = 0;
		l->use_inline = false;
		q->qp = rdc_ibv_create_qp(l->pd, &init);
	}
	if (!q->qp && l->max_inline) {
		int e = errno;

		verbs_fail(err, e, "create an RC QP", l);
		rdc_err_detail(err,
			       "%u bytes inline: more than the device takes? inline 0 turns it off",
			       l->max_inline);
		return -(e > 0 ? e : EIO);
	}
	if (!q->qp)
		return verbs_fail(err, errno, "create an RC QP", l);
	/* Not init.cap.max_inline_data: devices write back what they grant, asked or not. */
	if (getrandom(&rnd, sizeof(rnd), 0) != sizeof(rnd))
		rnd = (uint32_t)rdc_bench_now_ns();
	q->psn = rnd & 0xffffff;
	if (rdc_ibv_modify_qp(q->qp, &attr,
			      IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT | IBV_QP_ACCESS_FLAGS))
		return verbs_fail(err, errno, "move a QP to INIT", l);
	return 0;
}

/*
 * The side of a bandwidth test that waits for completions: the requester, and
 * the target of send (its receives).  The target of write and read waits for
 * none (its NIC answers); the latency tests always poll (one message in
 * flight: a wake-up would be part of what they time).
 */
static bool link_waits_bw(const struct rdc_bench_link *l)
{
	return !rdc_bench_test_is_lat(l->p.test) &&
	       (!l->server || l->p.bidir || l->p.test == RDC_BENCH_SEND);
}

/*
 * cq-wait resolved for this side's device.  auto: events on a software
 * device (rxe, siw), whose transport runs on the CPUs a polling thread would
 * take from it.  Not "no device link": kernels before 5.11 gave rxe and siw
 * their netdev's bus device as parent, so the link is there on RHEL 8 and
 * Ubuntu 20.04; "parent" (the netdev it runs on) is their own attribute.
 */
static bool cq_events_wanted(const struct rdc_bench_link *l)
{
	if (l->p.cq_wait != RDC_BENCH_CQ_WAIT_AUTO)
		return l->p.cq_wait == RDC_BENCH_CQ_WAIT_EVENTS;
	return rdc_fs_exists("/sys/class/infiniband/%s/parent", l->ep.device);
}

/*
 * How this side waits (l->cq_wait), and for events the CQ's completion
 * channel, made before the CQ.  A channel that cannot be made fails the link
 * when events were asked for; chosen by auto, the link polls instead.
 */
static int open_cq_wait(struct rdc_bench_link *l, struct rdc_err *err)
{
	int flags, e;

	l->cq_wait = RDC_BENCH_CQ_WAIT_AUTO; /* waits for nothing */
	if (!link_waits_bw(l))
		return 0;
	l->cq_wait = RDC_BENCH_CQ_WAIT_POLL;
	if (!cq_events_wanted(l))
		return 0;
	l->cq_ch = rdc_ibv_create_comp_channel(l->ctx);
	/* Woken by ppoll() only: a read that finds no event must not block the thread. */
	flags = l->cq_ch ? fcntl(l->cq_ch->fd, F_GETFL) : -1;
	if (flags >= 0 && !fcntl(l->cq_ch->fd, F_SETFL, flags | O_NONBLOCK)) {
		l->cq_wait = RDC_BENCH_CQ_WAIT_EVENTS;
		return 0;
	}
	e = errno;
	if (l->cq_ch)
		rdc_ibv_destroy_comp_channel(l->cq_ch);
	l->cq_ch = NULL;
	if (l->p.cq_wait == RDC_BENCH_CQ_WAIT_AUTO)
		return 0;
	return verbs_fail(err, e, "make a completion channel (cq-wait events)", l);
}

/*
 * The no-progress limits for this link's messages: an 8 MiB message on a slow
 * link (Soft-RoCE under emulation) must not read as a stall.
 */
static void link_limits(struct rdc_bench_link *l)
{
	uint64_t bytes = rdc_bench_wait_bytes(&l->p);

	l->stall_ns = rdc_bench_silence_ns(STALL_FAIL_NS, bytes);
	l->drain_ns = rdc_bench_silence_ns(DRAIN_NS, bytes);
	l->answer_ns = rdc_bench_silence_ns(LAT_ANSWER_NS, bytes);
}

int rdc_bench_link_open(struct rdc_bench_link **out, const struct rdc_bench_params *p,
			const struct rdc_bench_endpoint *ep, bool server, struct rdc_err *err)
{
	struct rdc_bench_link *l;
	struct ibv_device_attr dattr;
	struct ibv_port_attr pattr;
	int rc;

	*out = NULL;
	l = calloc(1, sizeof(*l));
	if (!l)
		return rdc_err_set(err, ENOMEM, "out of memory");
	l->p = *p;
	l->ep = *ep;
	l->server = server;
	l->nqps = p->qps;
	l->slot = rdc_bench_slot_bytes(p);
	l->buf_len = l->slot * p->qps;
	/* The receiving side of send (both sides with bidir) keeps a full queue of receives per QP. */
	l->rx_depth = (server || p->bidir) && p->test == RDC_BENCH_SEND ? p->tx_depth : 1;
	/* The QP takes inline data only when the run's messages fit it (a read sends none). */
	l->use_inline = p->size <= rdc_bench_inline_bytes(p);
	l->max_inline = l->use_inline ? rdc_bench_inline_bytes(p) : 0;
	l->inline_strict = p->inline_size != RDC_BENCH_INLINE_DEFAULT;
	/*
	 * Small messages signal one request in a quarter of the queue, large
	 * ones every request (it costs nothing there and keeps the count
	 * exact), unless the run says (cq-mod, post-list).
	 */
	l->sig_every = rdc_bench_cq_mod(p);
	link_limits(l);
	l->post_list = p->post_list ? p->post_list : 1;
	l->wrs = calloc(l->post_list, sizeof(*l->wrs));
	l->sges = calloc(l->post_list, sizeof(*l->sges));
	if (!l->wrs || !l->sges) {
		rc = rdc_err_set(err, ENOMEM, "out of memory");
		goto fail;
	}

	rc = open_device(l, err);
	if (rc)
		goto fail;
	if (rdc_ibv_query_device(l->ctx, &dattr)) {
		rc = verbs_fail(err, errno, "query the device", l);
		goto fail;
	}
	if (rdc_ibv_query_port(l->ctx, (uint8_t)ep->port, &pattr)) {
		rc = verbs_fail(err, errno, "query the port", l);
		goto fail;
	}
	if (pattr.link_layer != IBV_LINK_LAYER_ETHERNET) {
		rc = rdc_err_set(err, EPROTONOSUPPORT, "%s/%u is not a RoCE port", ep->device,
				 ep->port);
		goto fail;
	}
	if ((uint32_t)dattr.max_qp_wr < p->tx_depth || (uint32_t)dattr.max_qp_wr < l->rx_depth) {
		rc = rdc_err_set(err, EINVAL, "%s takes at most %d work requests per queue",
				 ep->device, dattr.max_qp_wr);
		goto fail;
	}
	l->active_mtu = pattr.active_mtu;
	l->rd_atom_resp = dattr.max_qp_rd_atom < MAX_RD_ATOM ? dattr.max_qp_rd_atom : MAX_RD_ATOM;
	l->rd_atom_init =
		dattr.max_qp_init_rd_atom < MAX_RD_ATOM ? dattr.max_qp_init_rd_atom : MAX_RD_ATOM;
	l->pd = rdc_ibv_alloc_pd(l->ctx);
	if (!l->pd) {
		rc = verbs_fail(err, errno, "allocate a protection domain", l);
		goto fail;
	}
	rc = alloc_buffer(l, err);
	if (rc)
		goto fail;
	l->mr = rdc_ibv_reg_mr(l->pd, l->buf, l->buf_len,
			       IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE |
				       IBV_ACCESS_REMOTE_READ);
	if (!l->mr) {
		int e = errno;

		rc = verbs_fail(err, e, "register the buffer", l);
		if (e == ENOMEM || e == EPERM)
			rdc_err_detail(err,
				       "%llu bytes; is the locked-memory limit (ulimit -l) lower?",
				       (unsigned long long)l->buf_len);
		goto fail;
	}
	rc = open_cq_wait(l, err);
	if (rc)
		goto fail;
	l->cq = rdc_ibv_create_cq(l->ctx, (int)(p->qps * (p->tx_depth + l->rx_depth)), NULL,
				  l->cq_ch, 0);
	if (!l->cq) {
		rc = verbs_fail(err, errno, "create a completion queue", l);
		goto fail;
	}
	for (uint32_t q = 0; q < l->nqps; q++) {
		rc = create_qp(l, &l->qps[q], err);
		if (rc)
			goto fail;
	}
	*out = l;
	return 0;
fail:
	rdc_bench_link_close(l);
	return rc;
}

static void cm_close(struct rdc_bench_link *l);

/*
 * Before the QPs of a link that failed or still had requests in flight are
 * destroyed: each to ERR, then the CQ polled until QUIESCE_MIN_NS have passed
 * and no completion came for QUIESCE_QUIET_NS (at most QUIESCE_MAX_NS while
 * flushed ones keep coming), sleeping 1 ms between empty polls so that the
 * kernel's workers get the CPU (Soft-RoCE flushes in its tasks; a lab guest
 * has one vCPU).  Why: such a QP still has packets and tasks in the kernel,
 * and Soft-RoCE's destroy waits only 200 ms for what holds the QP (Linux 6.1,
 * rxe_pool.c __rxe_cleanup: a WARNING, then the QP freed while packets still
 * point to it).  A QP in ERR posts nothing new, its flush runs, and packets
 * already handed to the NIC get QUIESCE_MIN_NS to leave.  What this cannot
 * help: a NIC that stopped sending (the lab's warnings came from virtio
 * transmit queues QEMU stopped serving, docs/HACKING.md).  The kernel's own RDMA
 * users drain before a destroy too (ib_drain_qp, which waits for a marker
 * request instead: posting to a QP in ERR is where rxe versions differ).  A
 * link whose requests all completed has none of this: it is destroyed at once.
 * A modify that fails (a QP still in RESET) is ignored: nothing of it to flush.
 */
#define QUIESCE_MIN_NS 200000000ull  /* the first 200 ms after ERR, always */
#define QUIESCE_QUIET_NS 20000000ull /* then 20 ms without a completion: done */
#define QUIESCE_MAX_NS 1000000000ull /* at most 1 s, completions or not */

static bool all_retired(const struct rdc_bench_link *l);

static void quiesce_qps(struct rdc_bench_link *l)
{
	struct ibv_qp_attr attr = {.qp_state = IBV_QPS_ERR};
	const struct timespec nap = {.tv_nsec = 1000000};
	struct ibv_wc wc[POLL_BATCH];
	uint64_t start, last;
	bool any = false;

	if (!l->cq || l->quiesced || (!l->res.status && all_retired(l)))
		return;
	l->quiesced = true;
	for (uint32_t q = 0; q < l->nqps; q++)
		if (l->qps[q].qp && !rdc_ibv_modify_qp(l->qps[q].qp, &attr, IBV_QP_STATE))
			any = true;
	if (!any)
		return;
	start = last = rdc_bench_now_ns();
	for (;;) {
		int n = ibv_poll_cq(l->cq, POLL_BATCH, wc);
		uint64_t now = rdc_bench_now_ns();

		if (n < 0 || now - start > QUIESCE_MAX_NS)
			return;
		if (n > 0)
			last = now;
		else if (now - start > QUIESCE_MIN_NS && now - last > QUIESCE_QUIET_NS)
			return;
		else
			nanosleep(&nap, NULL); /* EINTR: a shorter nap, the clock decides */
	}
}

void rdc_bench_link_close(struct rdc_bench_link *l)
{
	if (!l)
		return;
	quiesce_qps(l);
	cm_close(l);
	for (uint32_t q = 0; q < l->nqps; q++)
		if (l->qps[q].qp)
			rdc_ibv_destroy_qp(l->qps[q].qp);
	if (l->cq)
		rdc_ibv_destroy_cq(l->cq); /* every event was acknowledged: cq_sleep */
	if (l->cq_ch)
		rdc_ibv_destroy_comp_channel(l->cq_ch);
	if (l->mr)
		rdc_ibv_dereg_mr(l->mr);
	if (l->buf)
		munmap(l->buf, l->map_len);
	if (l->pd)
		rdc_ibv_dealloc_pd(l->pd);
	if (l->ctx)
		rdc_ibv_close_device(l->ctx);
	free(l->res.interval_bytes);
	free(l->res.lat_ns);
	free(l->wrs);
	free(l->sges);
	free(l);
}

void rdc_bench_link_local(const struct rdc_bench_link *l, uint32_t endpoint,
			  struct rdc_bench_link_wire *w)
{
	memset(w, 0, sizeof(*w));
	w->endpoint = endpoint;
	memcpy(w->gid, l->ep.gid, 16);
	w->gid_index = l->ep.gid_index;
	w->mtu = mtu_bytes(l->active_mtu);
	w->rd_atom = l->rd_atom_resp;
	w->rkey = l->mr->rkey;
	w->vaddr = (uint64_t)(uintptr_t)l->buf;
	w->length = l->buf_len;
	w->nqps = l->nqps;
	for (uint32_t q = 0; q < l->nqps; q++) {
		w->qps[q].qpn = l->qps[q].qp->qp_num;
		w->qps[q].psn = l->qps[q].psn;
	}
}

static int post_recv(struct rdc_bench_link *l, uint32_t q)
{
	struct ibv_sge sge = {
		.addr = (uint64_t)(uintptr_t)(l->buf + q * l->slot),
		.length = l->p.size,
		.lkey = l->mr->lkey,
	};
	struct ibv_recv_wr wr = {.wr_id = q, .sg_list = &sge, .num_sge = 1}, *bad;

	/* The post calls return the error; they do not promise to set errno. */
	return ibv_post_recv(l->qps[q].qp, &wr, &bad);
}

/*
 * The receiving side of send (both sides with bidir): a full receive queue
 * before the first send; both sides of lat-send: the one receive of the
 * ping-pong.
 */
static int post_first_recvs(struct rdc_bench_link *l, uint32_t q, struct rdc_err *err)
{
	for (uint32_t r = 0; (((l->server || l->p.bidir) && l->p.test == RDC_BENCH_SEND) ||
			      l->p.test == RDC_BENCH_LAT_SEND) &&
			     r < l->rx_depth;
	     r++) {
		int e = post_recv(l, q);

		if (e)
			return verbs_fail(err, e, "post receives", l);
	}
	return 0;
}

int rdc_bench_link_connect(struct rdc_bench_link *l, const struct rdc_bench_link_wire *remote,
			   struct rdc_err *err)
{
	enum ibv_mtu path = l->active_mtu;
	int rc;

	if (remote->nqps != l->nqps)
		return rdc_err_set(err, EPROTO, "%s: the peer has %u QPs for this link, not %u",
				   l->ep.device, remote->nqps, l->nqps);
	if (remote->length < l->buf_len)
		return rdc_err_set(err, EPROTO, "%s: the peer's buffer (%llu bytes) is too small",
				   l->ep.device, (unsigned long long)remote->length);
	if (remote->gid[10] != 0xff || remote->gid[11] != 0xff)
		return rdc_err_set(err, EPROTO,
				   "%s: the peer's GID is not a RoCE v2 IPv4-mapped one; both ends "
				   "must use the same GID type",
				   l->ep.device);
	if ((l->p.test == RDC_BENCH_READ || l->p.test == RDC_BENCH_LAT_READ) && !remote->rd_atom)
		return rdc_err_set(err, EOPNOTSUPP, "%s: the peer accepts no RDMA reads",
				   l->ep.device);
	if (remote->mtu && mtu_enum(remote->mtu) < path)
		path = mtu_enum(remote->mtu);
	if (l->p.mtu && mtu_enum(l->p.mtu) < path)
		path = mtu_enum(l->p.mtu);
	l->path_mtu = path;
	l->remote_rkey = remote->rkey;
	l->remote_vaddr = remote->vaddr;
	l->remote_rd_atom = remote->rd_atom;
	if (l->p.rdma_cm) {
		/* rdma_cm moves the QPs later; the QPNs are checked against its messages. */
		for (uint32_t q = 0; q < l->nqps; q++)
			l->qps[q].remote_qpn = remote->qps[q].qpn;
		return 0;
	}
	for (uint32_t q = 0; q < l->nqps; q++) {
		struct bench_qp *bq = &l->qps[q];
		struct ibv_qp_attr attr = {
			.qp_state = IBV_QPS_RTR,
			.path_mtu = path,
			.dest_qp_num = remote->qps[q].qpn,
			.rq_psn = remote->qps[q].psn,
			.max_dest_rd_atomic = (uint8_t)l->rd_atom_resp,
			.min_rnr_timer = QP_MIN_RNR_TIMER,
			.ah_attr = {.is_global = 1,
				    .port_num = (uint8_t)l->ep.port,
				    .grh = {.sgid_index = (uint8_t)l->ep.gid_index,
					    .hop_limit = QP_HOP_LIMIT,
					    .traffic_class = l->p.traffic_class}},
		};
		uint32_t rd = l->rd_atom_init < remote->rd_atom ? l->rd_atom_init : remote->rd_atom;

		memcpy(attr.ah_attr.grh.dgid.raw, remote->gid, 16);
		bq->remote_qpn = remote->qps[q].qpn;
		bq->remote_psn = remote->qps[q].psn;
		if (l->ep.gid_index > 255)
			return rdc_err_set(err, ERANGE,
					   "%s: GID index %u does not fit verbs' 8 bits",
					   l->ep.device, l->ep.gid_index);
		if (rdc_ibv_modify_qp(bq->qp, &attr,
				      IBV_QP_STATE | IBV_QP_AV | IBV_QP_PATH_MTU | IBV_QP_DEST_QPN |
					      IBV_QP_RQ_PSN | IBV_QP_MAX_DEST_RD_ATOMIC |
					      IBV_QP_MIN_RNR_TIMER))
			return verbs_fail(err, errno,
					  "move a QP to RTR (check the GIDs and the route between "
					  "the links)",
					  l);
		memset(&attr, 0, sizeof(attr));
		attr.qp_state = IBV_QPS_RTS;
		attr.timeout = l->p.qp_timeout;
		attr.retry_cnt = l->p.retry_cnt;
		attr.rnr_retry = l->p.rnr_retry;
		attr.sq_psn = bq->psn;
		attr.max_rd_atomic = (uint8_t)(rd ? rd : 1);
		if (rdc_ibv_modify_qp(bq->qp, &attr,
				      IBV_QP_STATE | IBV_QP_TIMEOUT | IBV_QP_RETRY_CNT |
					      IBV_QP_RNR_RETRY | IBV_QP_SQ_PSN |
					      IBV_QP_MAX_QP_RD_ATOMIC))
			return verbs_fail(err, errno, "move a QP to RTS", l);
		rc = post_first_recvs(l, q, err);
		if (rc)
			return rc;
	}
	return 0;
}

uint32_t rdc_bench_link_mtu(const struct rdc_bench_link *l)
{
	return mtu_bytes(l->path_mtu);
}

const struct rdc_bench_result *rdc_bench_link_result(const struct rdc_bench_link *l)
{
	return &l->res;
}

void rdc_bench_link_take_result(struct rdc_bench_link *l, struct rdc_bench_result *out)
{
	*out = l->res;
	l->res.interval_bytes = NULL;
	l->res.lat_ns = NULL;
	l->res.nintervals = l->res.nlat = l->res.cap_lat = 0;
}

uint64_t rdc_bench_link_interval(const struct rdc_bench_link *l, size_t k)
{
	if (!l->res.interval_bytes || k >= l->res.nintervals)
		return 0;
	return __atomic_load_n(&l->res.interval_bytes[k], __ATOMIC_RELAXED);
}

bool rdc_bench_link_finished(const struct rdc_bench_link *l)
{
	return __atomic_load_n(&l->res.finished, __ATOMIC_ACQUIRE);
}

bool rdc_bench_link_sent(const struct rdc_bench_link *l)
{
	return __atomic_load_n(&l->res.sent, __ATOMIC_ACQUIRE);
}

void rdc_bench_link_note_port_down(struct rdc_bench_link *l)
{
	__atomic_store_n(&l->port_went_down, true, __ATOMIC_RELAXED);
}

/* ---- rdma-cm: the QPs connected through the connection manager (perftest -R) ---- */

/*
 * The run's QPs are created as without rdma-cm (INIT, on the link's own
 * device context); rdma_cm carries the connection: the client sends one
 * connection request per QP to the server's address on the link at the
 * control port, with the QP's number and this private data, and the CM's
 * REQ/REP/RTU choose the path (GIDs, PSNs).  The QPs are moved by hand from
 * the attributes the CM gives (rdma_init_qp_attr()), with the run's limits
 * on top: path MTU, traffic class, ACK timeout, retries, reads in flight.
 *
 *   private data  0  "RDCB"
 *                 4  u32 big-endian: the QP's index in its link
 */
#define CM_RESOLVE_MS 5000 /* address and route resolution */
#define CM_EVENT_MS 10000  /* a connection request's answer */
#define CM_POLL_SLICE_MS 200
#define CM_PRIVATE_LEN 8

static const uint8_t cm_magic[4] = {'R', 'D', 'C', 'B'}; /* RDC_BENCH_PROTO_MAGIC's bytes */

static int cm_fail(struct rdc_err *err, int e, const char *what, const struct rdc_bench_link *l)
{
	if (e <= 0)
		e = EIO;
	return rdc_err_set(err, e, "%s/%u: rdma_cm cannot %s", l->ep.device, l->ep.port, what);
}

static void cm_close(struct rdc_bench_link *l)
{
	for (uint32_t q = 0; q < RDC_BENCH_MAX_QPS; q++)
		if (l->cm_ids[q])
			rdc_rdma_destroy_id(l->cm_ids[q]);
	if (l->cm_listen)
		rdc_rdma_destroy_id(l->cm_listen);
	if (l->cm_ch)
		rdc_rdma_destroy_event_channel(l->cm_ch);
}

/* The link's event channel, non-blocking: the server polls it beside the control connection. */
static int cm_channel(struct rdc_bench_link *l, struct rdc_err *err)
{
	int fl, rc;

	if (l->cm_ch)
		return 0;
	rc = rdc_rdmacm_load(err);
	if (rc)
		return rc;
	l->cm_ch = rdc_rdma_create_event_channel();
	if (!l->cm_ch) {
		int e = errno;

		cm_fail(err, e, "open an event channel", l);
		rdc_err_detail(err, "is rdma_ucm loaded (/dev/infiniband/rdma_cm)?");
		return -(e > 0 ? e : EIO);
	}
	fl = fcntl(l->cm_ch->fd, F_GETFL);
	if (fl < 0 || fcntl(l->cm_ch->fd, F_SETFL, fl | O_NONBLOCK))
		return cm_fail(err, errno, "make its event channel non-blocking", l);
	return 0;
}

/* rdma_cm bound @id to the link's device and port (an address on another one is not this link). */
static int cm_on_link(const struct rdc_bench_link *l, const struct rdma_cm_id *id,
		      struct rdc_err *err)
{
	const char *dev = id->verbs ? rdc_ibv_get_device_name(id->verbs->device) : NULL;

	if (dev && !strcmp(dev, l->ep.device) && id->port_num == l->ep.port)
		return 0;
	return rdc_err_set(err, EHOSTUNREACH,
			   "%s/%u: rdma_cm routes the link's addresses over %s/%u, not this port",
			   l->ep.device, l->ep.port, dev ? dev : "no device", id->port_num);
}

/* The reads the link's QPs issue in flight (what the peer accepts, at most ours). */
static uint32_t cm_rd_init(const struct rdc_bench_link *l)
{
	uint32_t rd = l->rd_atom_init < l->remote_rd_atom ? l->rd_atom_init : l->remote_rd_atom;

	return rd ? rd : 1;
}

/* QP @q to RTR and RTS from the CM's attributes for @id, the run's limits on top; receives posted. */
static int cm_qp_up(struct rdc_bench_link *l, uint32_t q, struct rdma_cm_id *id,
		    struct rdc_err *err)
{
	struct ibv_qp *qp = l->qps[q].qp;
	struct ibv_qp_attr a;
	int mask = 0;

	memset(&a, 0, sizeof(a));
	a.qp_state = IBV_QPS_RTR;
	if (rdc_rdma_init_qp_attr(id, &a, &mask))
		return cm_fail(err, errno, "give a QP's RTR attributes", l);
	if (a.path_mtu > l->path_mtu)
		a.path_mtu = l->path_mtu;
	a.max_dest_rd_atomic = (uint8_t)l->rd_atom_resp;
	a.min_rnr_timer = QP_MIN_RNR_TIMER;
	a.ah_attr.grh.traffic_class = l->p.traffic_class;
	if (rdc_ibv_modify_qp(qp, &a, mask | IBV_QP_MAX_DEST_RD_ATOMIC | IBV_QP_MIN_RNR_TIMER))
		return verbs_fail(err, errno, "move a QP to RTR with rdma_cm's attributes", l);
	/* The MTU in use: the CM's path may be narrower than both ports. */
	l->path_mtu = a.path_mtu;
	memset(&a, 0, sizeof(a));
	a.qp_state = IBV_QPS_RTS;
	mask = 0;
	if (rdc_rdma_init_qp_attr(id, &a, &mask))
		return cm_fail(err, errno, "give a QP's RTS attributes", l);
	a.timeout = l->p.qp_timeout;
	a.retry_cnt = l->p.retry_cnt;
	a.rnr_retry = l->p.rnr_retry;
	a.max_rd_atomic = (uint8_t)cm_rd_init(l);
	if (rdc_ibv_modify_qp(qp, &a,
			      mask | IBV_QP_TIMEOUT | IBV_QP_RETRY_CNT | IBV_QP_RNR_RETRY |
				      IBV_QP_MAX_QP_RD_ATOMIC))
		return verbs_fail(err, errno, "move a QP to RTS with rdma_cm's attributes", l);
	l->qps[q].psn = a.sq_psn;
	return post_first_recvs(l, q, err);
}

static void cm_conn_param(const struct rdc_bench_link *l, uint32_t q, uint8_t *priv,
			  struct rdma_conn_param *cp)
{
	uint32_t be = htonl(q);

	memcpy(priv, cm_magic, sizeof(cm_magic));
	memcpy(priv + 4, &be, 4);
	memset(cp, 0, sizeof(*cp));
	cp->private_data = priv;
	cp->private_data_len = CM_PRIVATE_LEN;
	cp->responder_resources = (uint8_t)l->rd_atom_resp;
	cp->initiator_depth = (uint8_t)cm_rd_init(l);
	cp->retry_count = l->p.retry_cnt;
	cp->rnr_retry_count = l->p.rnr_retry;
	cp->qp_num = l->qps[q].qp->qp_num;
}

/*
 * The client: wait for the next event on @id, which must be @want.  The
 * event is copied (its private data is not) and acknowledged.  The user's
 * signal (rdc_bench_ctl_set_interrupt) ends the wait with -EINTR at once:
 * poll() returns EINTR, and slices of CM_POLL_SLICE_MS bound a signal that
 * lands between the flag's check and the poll.
 */
static int cm_wait(struct rdc_bench_link *l, struct rdma_cm_id *id, enum rdma_cm_event_type want,
		   int timeout_ms, struct rdma_cm_event *out, struct rdc_err *err)
{
	uint64_t deadline = rdc_bench_now_ns() + (uint64_t)timeout_ms * 1000000ull;

	for (;;) {
		struct pollfd pfd = {.fd = l->cm_ch->fd, .events = POLLIN};
		struct rdma_cm_event *ev;
		uint64_t now = rdc_bench_now_ns();
		int slice_ms;

		if (rdc_bench_ctl_interrupted())
			return rdc_err_set(err, EINTR, "interrupted");
		if (now >= deadline)
			return rdc_err_set(err, ETIMEDOUT, "%s/%u: rdma_cm: no %s within %d s",
					   l->ep.device, l->ep.port, rdc_rdma_event_str(want),
					   timeout_ms / 1000);
		slice_ms = (int)((deadline - now) / 1000000) + 1;
		if (slice_ms > CM_POLL_SLICE_MS)
			slice_ms = CM_POLL_SLICE_MS;
		if (poll(&pfd, 1, slice_ms) <= 0)
			continue;
		if (rdc_rdma_get_cm_event(l->cm_ch, &ev)) {
			if (errno == EAGAIN || errno == EINTR)
				continue;
			return cm_fail(err, errno, "read an event", l);
		}
		*out = *ev;
		out->param.conn.private_data = NULL;
		out->param.conn.private_data_len = 0;
		rdc_rdma_ack_cm_event(ev);
		if (out->id != id)
			continue; /* an earlier QP's (a disconnect) */
		if (out->event == want)
			return 0;
		if (out->event == RDMA_CM_EVENT_REJECTED)
			return rdc_err_set(err, ECONNREFUSED,
					   "%s/%u: the server refused the connection of QP %u "
					   "through rdma_cm (REJECTED, reason %d)",
					   l->ep.device, l->ep.port, l->cm_ready, out->status);
		return rdc_err_set(err, out->status < 0 ? -out->status : EPROTO,
				   "%s/%u: rdma_cm: %s instead of %s", l->ep.device, l->ep.port,
				   rdc_rdma_event_str(out->event), rdc_rdma_event_str(want));
	}
}

int rdc_bench_link_cm_connect(struct rdc_bench_link *l, uint32_t server_ipv4, uint16_t port,
			      struct rdc_err *err)
{
	struct sockaddr_in src = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(l->ep.ipv4)};
	struct sockaddr_in dst = {.sin_family = AF_INET,
				  .sin_port = htons(port),
				  .sin_addr.s_addr = htonl(server_ipv4)};
	int rc = cm_channel(l, err);

	for (uint32_t q = 0; !rc && q < l->nqps; q++) {
		uint8_t priv[CM_PRIVATE_LEN], tos = l->p.traffic_class;
		struct rdma_conn_param cp;
		struct rdma_cm_event ev;
		struct rdma_cm_id *id;

		if (rdc_rdma_create_id(l->cm_ch, &id, l, RDMA_PS_TCP))
			return cm_fail(err, errno, "create an id", l);
		l->cm_ids[q] = id;
		if (tos &&
		    rdc_rdma_set_option(id, RDMA_OPTION_ID, RDMA_OPTION_ID_TOS, &tos, sizeof(tos)))
			return cm_fail(err, errno, "set the traffic class", l);
		if (rdc_rdma_resolve_addr(id, (struct sockaddr *)&src, (struct sockaddr *)&dst,
					  CM_RESOLVE_MS))
			return cm_fail(err, errno, "resolve the server's address", l);
		rc = cm_wait(l, id, RDMA_CM_EVENT_ADDR_RESOLVED, CM_RESOLVE_MS + 1000, &ev, err);
		if (!rc)
			rc = cm_on_link(l, id, err);
		if (rc)
			return rc;
		if (rdc_rdma_resolve_route(id, CM_RESOLVE_MS))
			return cm_fail(err, errno, "resolve the route to the server", l);
		rc = cm_wait(l, id, RDMA_CM_EVENT_ROUTE_RESOLVED, CM_RESOLVE_MS + 1000, &ev, err);
		if (rc)
			return rc;
		cm_conn_param(l, q, priv, &cp);
		if (rdc_rdma_connect(id, &cp))
			return cm_fail(err, errno, "send a connection request", l);
		/* No QP on the id: the REP comes as CONNECT_RESPONSE, the RTU is rdma_establish(). */
		rc = cm_wait(l, id, RDMA_CM_EVENT_CONNECT_RESPONSE, CM_EVENT_MS, &ev, err);
		if (rc)
			return rc;
		if (ev.param.conn.qp_num != l->qps[q].remote_qpn)
			return rdc_err_set(err, EPROTO,
					   "%s/%u: the server answered QP %u through rdma_cm with "
					   "QPN %u, its SETUP_OK said %u",
					   l->ep.device, l->ep.port, q, ev.param.conn.qp_num,
					   l->qps[q].remote_qpn);
		rc = cm_qp_up(l, q, id, err);
		if (rc)
			return rc;
		if (rdc_rdma_establish(id))
			return cm_fail(err, errno, "confirm a connection (RTU)", l);
		l->cm_up[q] = true;
		l->cm_ready++;
	}
	return rc;
}

int rdc_bench_link_cm_listen(struct rdc_bench_link *l, uint16_t port, struct rdc_err *err)
{
	struct sockaddr_in sa = {.sin_family = AF_INET,
				 .sin_port = htons(port),
				 .sin_addr.s_addr = htonl(l->ep.ipv4)};
	char addr[INET_ADDRSTRLEN] = "?";
	int rc = cm_channel(l, err);

	if (rc)
		return rc;
	if (rdc_rdma_create_id(l->cm_ch, &l->cm_listen, l, RDMA_PS_TCP))
		return cm_fail(err, errno, "create an id", l);
	inet_ntop(AF_INET, &sa.sin_addr, addr, sizeof(addr));
	if (rdc_rdma_bind_addr(l->cm_listen, (struct sockaddr *)&sa) ||
	    rdc_rdma_listen(l->cm_listen, RDC_BENCH_MAX_QPS)) {
		/*
		 * The kernel says EADDRNOTAVAIL when another id holds the port on
		 * any address; said in the message, which is what reaches the client.
		 */
		const char *held = " (another rdma_cm listener holds it: perftest -R?)";
		int e = errno;

		return rdc_err_set(err, e > 0 ? e : EIO, "%s/%u: rdma_cm cannot listen on %s:%u%s",
				   l->ep.device, l->ep.port, addr, port,
				   e == EADDRINUSE || e == EADDRNOTAVAIL ? held : "");
	}
	return cm_on_link(l, l->cm_listen, err);
}

int rdc_bench_link_cm_fd(const struct rdc_bench_link *l)
{
	return l->cm_ch ? l->cm_ch->fd : -1;
}

bool rdc_bench_link_cm_ready(const struct rdc_bench_link *l)
{
	return l->cm_ready == l->nqps;
}

const char *rdc_bench_link_cm_refused(const struct rdc_bench_link *l)
{
	return l->cm_refused[0] ? l->cm_refused : NULL;
}

/*
 * The server: a connection request.  A request that is not one of this
 * run's QPs (another host, a QP already connected, a QPN that SETUP did not
 * name) is refused and the server waits on; why is kept for the timeout's
 * message.  Returns -errno only when this side cannot go on.
 */
static int cm_request(struct rdc_bench_link *l, struct rdma_cm_id *id, uint32_t qpn,
		      const uint8_t *priv, size_t len, struct rdc_err *err)
{
	struct rdma_conn_param cp;
	uint8_t mine[CM_PRIVATE_LEN];
	uint32_t q = UINT32_MAX, be;
	bool ours = false;
	int rc;

	if (len >= CM_PRIVATE_LEN && !memcmp(priv, cm_magic, sizeof(cm_magic))) {
		memcpy(&be, priv + 4, 4);
		q = ntohl(be);
	}
	if (q == UINT32_MAX)
		snprintf(l->cm_refused, sizeof(l->cm_refused),
			 "a connection request that is not rdmactl's");
	else if (q >= l->nqps)
		snprintf(l->cm_refused, sizeof(l->cm_refused),
			 "a connection request for QP %u of %u", q, l->nqps);
	else if (l->cm_ids[q])
		snprintf(l->cm_refused, sizeof(l->cm_refused),
			 "a second connection request for QP %u", q);
	else if (qpn != l->qps[q].remote_qpn)
		snprintf(l->cm_refused, sizeof(l->cm_refused),
			 "a connection request for QP %u from QPN %u, SETUP said %u", q, qpn,
			 l->qps[q].remote_qpn);
	else if (cm_on_link(l, id, NULL))
		snprintf(l->cm_refused, sizeof(l->cm_refused),
			 "a connection request for QP %u on another port", q);
	else
		ours = true;
	if (!ours) {
		rdc_rdma_reject(id, NULL, 0);
		rdc_rdma_destroy_id(id);
		return 0;
	}
	l->cm_ids[q] = id;
	rc = cm_qp_up(l, q, id, err);
	if (rc)
		return rc;
	cm_conn_param(l, q, mine, &cp);
	if (rdc_rdma_accept(id, &cp))
		return cm_fail(err, errno, "accept a connection", l);
	return 0;
}

int rdc_bench_link_cm_service(struct rdc_bench_link *l, struct rdc_err *err)
{
	struct rdma_cm_event *ev;

	while (l->cm_ch && !rdc_rdma_get_cm_event(l->cm_ch, &ev)) {
		enum rdma_cm_event_type type = ev->event;
		struct rdma_cm_id *id = ev->id;
		uint8_t priv[CM_PRIVATE_LEN] = {0};
		size_t len = ev->param.conn.private_data_len;
		uint32_t qpn = ev->param.conn.qp_num, q;
		int status = ev->status, rc = 0;

		if (type == RDMA_CM_EVENT_CONNECT_REQUEST && ev->param.conn.private_data)
			memcpy(priv, ev->param.conn.private_data,
			       len < sizeof(priv) ? len : sizeof(priv));
		/* Acknowledged first: a refused request's id is destroyed below. */
		rdc_rdma_ack_cm_event(ev);
		for (q = 0; q < l->nqps && l->cm_ids[q] != id; q++)
			;
		if (type == RDMA_CM_EVENT_CONNECT_REQUEST)
			rc = cm_request(l, id, qpn, priv, len, err);
		else if (q == l->nqps)
			; /* not one of ours (the listener's own, a refused one's) */
		else if (type == RDMA_CM_EVENT_ESTABLISHED && !l->cm_up[q]) {
			l->cm_up[q] = true;
			l->cm_ready++;
		} else if (!rdc_bench_link_cm_ready(l))
			rc = rdc_err_set(err, status < 0 ? -status : EPROTO,
					 "%s/%u: rdma_cm: %s on QP %u before every QP was "
					 "connected",
					 l->ep.device, l->ep.port, rdc_rdma_event_str(type), q);
		if (rc)
			return rc;
	}
	if (l->cm_ch && errno != EAGAIN && errno != EINTR)
		return cm_fail(err, errno, "read an event", l);
	return 0;
}

/* ---- the data loops ---- */

/*
 * Seconds on the report's clock: from the end of the warm-up (the start when
 * there is none), so that a failure's time reads as the interval lines do.
 */
static double clock_s(const struct rdc_bench_link *l, uint64_t t)
{
	return (double)(int64_t)(t - (l->sync->start_ns + l->p.warmup_ns)) / 1e9;
}

/* A completion (or a round trip) at @now after silence since *@last. */
static void note_activity(struct rdc_bench_link *l, uint64_t now, uint64_t *last)
{
	if (now - *last > l->res.longest_stall_ns) {
		l->res.longest_stall_ns = now - *last;
		l->res.longest_stall_start_ns = *last;
	}
	*last = now;
}

/*
 * The silence from *@last to @now at a link's end: a stall when the link
 * ended well, the outage that failed it otherwise (said apart, not counted).
 */
static void note_end(struct rdc_bench_link *l, uint64_t now, uint64_t last)
{
	if (l->res.status) {
		l->res.silent_to_end = true;
		l->res.silent_from_ns = last;
		return;
	}
	if (now - last > l->res.longest_stall_ns) {
		l->res.longest_stall_ns = now - last;
		l->res.longest_stall_start_ns = last;
	}
}

/* A good completion of our own requests (the peer's sends taken by bidir's receives are not). */
static bool any_success(const struct ibv_wc *wc, int n)
{
	for (int i = 0; i < n; i++)
		if (wc[i].status == IBV_WC_SUCCESS && !(wc[i].opcode & IBV_WC_RECV))
			return true;
	return false;
}

const char *rdc_bench_wc_status_str(int status)
{
	return rdc_ibv_wc_status_str((enum ibv_wc_status)status);
}

/* "retry exceeded" and what usually causes it, for a failed completion. */
static void link_failed_wc(struct rdc_bench_link *l, const struct ibv_wc *wc, uint64_t now)
{
	l->res.errors++;
	if (l->res.status)
		return;
	l->res.status = -EIO;
	l->res.wc_status = (int)wc->status;
	l->res.failed_ns = now;
	if (wc->status == IBV_WC_RETRY_EXC_ERR)
		snprintf(l->res.error, sizeof(l->res.error),
			 "%s (status %d) at %.3f s: no answer from the peer; cable, route, GID, "
			 "MTU or a lossy priority",
			 rdc_ibv_wc_status_str(wc->status), wc->status, clock_s(l, now));
	else
		snprintf(l->res.error, sizeof(l->res.error), "%s (status %d) at %.3f s",
			 rdc_ibv_wc_status_str(wc->status), wc->status, clock_s(l, now));
}

static void link_failed(struct rdc_bench_link *l, int code, const char *what)
{
	if (l->res.status)
		return;
	l->res.status = -code;
	snprintf(l->res.error, sizeof(l->res.error), "%s", what);
}

/* link_failed naming a no-progress limit: "@head N s@tail", N in whole seconds ("10", "26"). */
static void link_timed_out(struct rdc_bench_link *l, const char *head, uint64_t limit_ns,
			   const char *tail)
{
	char what[128];

	snprintf(what, sizeof(what), "%s %.4g s%s", head, (double)limit_ns / 1e9, tail);
	link_failed(l, ETIMEDOUT, what);
}

static void credit(struct rdc_bench_link *l, uint64_t now, uint64_t msgs, uint64_t bytes)
{
	uint64_t k;

	l->res.msgs += msgs;
	l->res.bytes += bytes;
	/* Buckets count from the common window start, as the progress lines do. */
	k = now > l->bucket_base_ns ? (now - l->bucket_base_ns) / l->p.interval_ns : 0;
	if (l->res.interval_bytes && k < l->res.nintervals)
		__atomic_store_n(&l->res.interval_bytes[k], l->res.interval_bytes[k] + bytes,
				 __ATOMIC_RELAXED);
}

/*
 * Post @n requests on QP @q in one chain (post-list).  Every sig_every-th is
 * signalled and its completion retires it and the unsignalled ones before it;
 * @force_signal signals the chain's last (the last of an iteration run).
 */
static int post_chain(struct rdc_bench_link *l, uint32_t q, uint32_t n, bool force_signal)
{
	struct bench_qp *bq = &l->qps[q];
	uint64_t off = q * l->slot;
	enum ibv_wr_opcode opcode;
	unsigned int flags = 0;
	uint32_t unsignaled = bq->unsignaled;
	struct ibv_send_wr *bad;
	int rc;

	switch (l->p.test) {
	case RDC_BENCH_READ:
		opcode = IBV_WR_RDMA_READ;
		break;
	case RDC_BENCH_SEND:
		opcode = IBV_WR_SEND;
		break;
	default:
		opcode = IBV_WR_RDMA_WRITE;
		break;
	}
	if (l->use_inline && opcode != IBV_WR_RDMA_READ)
		flags |= IBV_SEND_INLINE;
	for (uint32_t i = 0; i < n; i++) {
		struct ibv_send_wr *wr = &l->wrs[i];
		bool signal = (force_signal && i + 1 == n) || unsignaled + 1 >= l->sig_every;

		l->sges[i] = (struct ibv_sge){
			.addr = (uint64_t)(uintptr_t)(l->buf + off),
			.length = l->p.size,
			.lkey = l->mr->lkey,
		};
		*wr = (struct ibv_send_wr){
			.next = i + 1 < n ? &l->wrs[i + 1] : NULL,
			.sg_list = &l->sges[i],
			.num_sge = 1,
			.opcode = opcode,
			.send_flags = flags,
		};
		if (opcode != IBV_WR_SEND) {
			wr->wr.rdma.remote_addr = l->remote_vaddr + off;
			wr->wr.rdma.rkey = l->remote_rkey;
		}
		if (signal) {
			wr->send_flags |= IBV_SEND_SIGNALED;
			wr->wr_id = (uint64_t)q << 32 | (unsignaled + 1);
			unsignaled = 0;
		} else {
			unsignaled++;
		}
	}
	rc = ibv_post_send(bq->qp, l->wrs, &bad);
	if (rc)
		return rc > 0 ? -rc : -EIO;
	bq->posted += n;
	bq->unsignaled = unsignaled;
	return 0;
}

enum bw_phase { PHASE_WARM, PHASE_QUIESCE, PHASE_MEASURE, PHASE_DRAIN };

/*
 * bidir send: the peer's message @wc landed in a receive of ours; post it
 * again at once (the peer's next send needs it), and count it (@count)
 * when it came inside this side's window.
 */
static void take_recv(struct rdc_bench_link *l, const struct ibv_wc *wc, bool count)
{
	uint32_t q = (uint32_t)wc->wr_id;

	if (q >= l->nqps)
		return;
	if (count) {
		l->res.recv_msgs++;
		l->res.recv_bytes += wc->byte_len;
	}
	if (post_recv(l, q))
		link_failed(l, EIO, "cannot post a receive");
}

/*
 * bidir send, after this side's own requests are done and its result is
 * final: keep the receive queues full for the peer's last sends (its window
 * may end a little after ours, or its iterations take longer) until told
 * to stop.  The result is not touched any more: the caller reads it now.
 */
static void serve_recvs(struct rdc_bench_link *l)
{
	struct ibv_wc wc[POLL_BATCH];

	while (!stop_requested(l)) {
		int n = ibv_poll_cq(l->cq, POLL_BATCH, wc);

		if (n < 0)
			return;
		if (n == 0) {
			/* The queues are full: no need to spin the peer's CPU time away. */
			struct timespec ts = {.tv_nsec = 100000};

			nanosleep(&ts, NULL);
			continue;
		}
		for (int i = 0; i < n; i++)
			if (wc[i].status == IBV_WC_SUCCESS && (wc[i].opcode & IBV_WC_RECV) &&
			    (uint32_t)wc[i].wr_id < l->nqps && post_recv(l, (uint32_t)wc[i].wr_id))
				return;
	}
}

static bool all_retired(const struct rdc_bench_link *l)
{
	for (uint32_t q = 0; q < l->nqps; q++)
		/* Unsignalled requests after the last signalled one retire with the QP. */
		if (l->qps[q].posted - l->qps[q].unsignaled != l->qps[q].completed)
			return false;
	return true;
}

/*
 * cq-wait events, after an empty poll: arm the CQ and return, so that the
 * caller polls once more (a completion that came before the arm raises no
 * event); when it is armed already, sleep on the channel until an event,
 * @until_ns or CQ_SLEEP_MAX_NS, whichever comes first.  A failed arm or
 * read leaves the caller polling, as without events.
 */
static void cq_sleep(struct rdc_bench_link *l, uint64_t now, uint64_t until_ns)
{
	struct pollfd pfd = {.fd = l->cq_ch->fd, .events = POLLIN};
	uint64_t wait = CQ_SLEEP_MAX_NS;
	struct timespec ts;
	struct ibv_cq *cq;
	void *cq_ctx;

	if (!l->cq_armed) {
		l->cq_armed = !ibv_req_notify_cq(l->cq, 0);
		return;
	}
	if (until_ns <= now)
		return;
	if (until_ns - now < wait)
		wait = until_ns - now;
	ts.tv_sec = (time_t)(wait / 1000000000ull);
	ts.tv_nsec = (long)(wait % 1000000000ull);
	if (ppoll(&pfd, 1, &ts, NULL) > 0 && !rdc_ibv_get_cq_event(l->cq_ch, &cq, &cq_ctx)) {
		rdc_ibv_ack_cq_events(cq, 1);
		l->cq_armed = false;
	}
}

/*
 * rate-limit held the posts back and the CQ was empty: sleep rather than
 * spin when the next post is far enough off (PACE_SPIN_NS), up to it, but
 * at most PACE_NAP_NS while requests are in flight (their completions
 * keep their times) and PACE_IDLE_NS otherwise (a stop is seen in time).
 */
#define PACE_SPIN_NS 50000ull	 /* below this, a sleep's wake-up costs more than it saves */
#define PACE_NAP_NS 1000000ull	 /* 1 ms */
#define PACE_IDLE_NS 50000000ull /* 50 ms */
static void pace_sleep(struct rdc_bench_link *l, uint64_t now)
{
	uint64_t wait = rdc_bench_pace_wait_ns(&l->pace, now);
	uint64_t cap = all_retired(l) ? PACE_IDLE_NS : PACE_NAP_NS;
	struct timespec ts;

	if (wait < PACE_SPIN_NS)
		return;
	if (wait > cap)
		wait = cap;
	ts.tv_sec = (time_t)(wait / 1000000000ull);
	ts.tv_nsec = (long)(wait % 1000000000ull);
	(void)clock_nanosleep(CLOCK_MONOTONIC, 0, &ts, NULL);
}

/*
 * After a duration window: every QP that still has requests outstanding has
 * had a good completion since (@alive, by QP), so none of them is stuck.
 */
static bool tail_alive(const struct rdc_bench_link *l, const bool *alive)
{
	for (uint32_t q = 0; q < l->nqps; q++)
		if (l->qps[q].posted - l->qps[q].unsignaled != l->qps[q].completed && !alive[q])
			return false;
	return true;
}

/*
 * The requester of write, read and send.  Duration mode counts what completes
 * inside [start + warmup, start + warmup + duration); iteration mode drains
 * the warm-up first and then counts exactly iters requests per QP.
 */
static void run_bw(struct rdc_bench_link *l)
{
	const struct rdc_bench_params *p = &l->p;
	uint64_t t0 = l->sync->start_ns + p->warmup_ns;
	uint64_t t1 = p->duration_ns ? t0 + p->duration_ns : UINT64_MAX;
	uint64_t last = l->sync->start_ns, drain_until = 0, now;
	enum bw_phase phase = p->warmup_ns ? PHASE_WARM : PHASE_MEASURE;
	struct ibv_wc wc[POLL_BATCH];
	bool flush_tail = false; /* the window ended: a good completion a QP, then flush */
	bool alive_after = false;
	bool qp_alive[RDC_BENCH_MAX_QPS] = {false}; /* a good completion after the window */

	l->res.window_start_ns = t0;
	/* rate-limit: catch-up bursts of at most 1 ms of traffic, a queue or a chain. */
	rdc_bench_pace_init(&l->pace, p->rate_limit_bps, p->size, l->post_list, p->tx_depth,
			    l->sync->start_ns);
	for (;;) {
		bool paced = false;
		int n;

		now = rdc_bench_now_ns();
		if (phase != PHASE_DRAIN && (stop_requested(l) || l->res.status)) {
			/* Cut short: the link's window ends here, not after the drain. */
			l->res.window_end_ns = now < t1 ? now : t1;
			phase = PHASE_DRAIN;
			drain_until = now + l->drain_ns;
		}
		if (phase == PHASE_WARM && now >= t0)
			phase = p->duration_ns ? PHASE_MEASURE : PHASE_QUIESCE;
		if (phase == PHASE_QUIESCE && all_retired(l)) {
			phase = PHASE_MEASURE;
			l->res.window_start_ns = now > t0 ? now : t0;
			/* The window's first completion also retires these: not theirs to count. */
			for (uint32_t q = 0; q < l->nqps; q++)
				l->qps[q].warm_tail = l->qps[q].unsignaled;
		}
		if (phase == PHASE_MEASURE) {
			bool done = false;

			if (p->duration_ns) {
				done = now >= t1;
			} else {
				done = true;
				for (uint32_t q = 0; q < l->nqps; q++)
					if (l->qps[q].measured_posted < p->iters ||
					    l->qps[q].posted != l->qps[q].completed)
						done = false;
			}
			if (done) {
				l->res.window_end_ns = p->duration_ns ? t1 : now;
				phase = PHASE_DRAIN;
				drain_until = now + l->drain_ns;
				/*
				 * Duration mode, one direction: what is in flight at t1
				 * (tx-depth messages a QP: 8 MiB at the defaults) counts
				 * for nothing, and on a slow link (Soft-RoCE in a VM: tens
				 * of Mb/s) waiting for it took seconds a run.  One more
				 * good completion on each QP still outstanding proves the
				 * link alive (a stuck QP fails after drain_ns, as before);
				 * the rest is flushed.  Not with bidir: the peer's
				 * requests need our QPs to answer until its own window
				 * ends.  Not for read: the server's QPs would still be
				 * sending the read responses when it closes them (rxe
				 * frees a QP that packets still point to, engine.c
				 * quiesce_qps), where write and send leave it only ACKs.
				 * Not after the port went down in the run: Soft-RoCE then
				 * resends what it held, and a QP flushed in that burst
				 * was still referenced 200 ms into its destroy (the
				 * rxe_pool.c WARNING, once in a lab's cable test).
				 */
				flush_tail = p->duration_ns && !p->bidir &&
					     p->test != RDC_BENCH_READ &&
					     !__atomic_load_n(&l->port_went_down, __ATOMIC_RELAXED);
			}
		}
		if (phase == PHASE_DRAIN && (all_retired(l) || now >= drain_until || alive_after))
			break;
		if (phase == PHASE_WARM || phase == PHASE_MEASURE) {
			for (uint32_t q = 0; q < l->nqps; q++) {
				struct bench_qp *bq = &l->qps[q];

				/* A whole chain at a time, as perftest's post list. */
				for (;;) {
					uint32_t chain = l->post_list;
					bool last_one = false;
					int rc;

					if (phase == PHASE_MEASURE && !p->duration_ns) {
						if (bq->measured_posted == p->iters)
							break;
						if (p->iters - bq->measured_posted <= chain) {
							chain = (uint32_t)(p->iters -
									   bq->measured_posted);
							last_one = true;
						}
					}
					if (bq->posted - bq->completed + chain > p->tx_depth)
						break;
					/* A whole chain when the rate allows all of it. */
					if (rdc_bench_pace_allow(&l->pace, now, chain) < chain) {
						paced = true;
						break;
					}
					rc = post_chain(l, q, chain, last_one);
					if (rc) {
						char why[96];

						snprintf(why, sizeof(why),
							 "cannot post a work request: %s",
							 strerror(-rc));
						link_failed(l, -rc, why);
						break;
					}
					rdc_bench_pace_take(&l->pace, chain);
					if (phase == PHASE_MEASURE) {
						bq->measured_posted += chain;
						l->res.post_calls++;
					}
				}
			}
		}
		n = ibv_poll_cq(l->cq, POLL_BATCH, wc);
		if (n < 0) {
			link_failed(l, EIO, "cannot poll the completion queue");
			continue;
		}
		if (n > 0) {
			now = rdc_bench_now_ns();
			/*
			 * Only good completions end a silence: a batch of failures alone
			 * (retries exhausted after a blackhole) is where the silence ends
			 * the link, and silent_from_ns must stay at the last good one.
			 */
			if (any_success(wc, n))
				note_activity(l, now, &last);
			if (phase == PHASE_DRAIN)
				drain_until = now + l->drain_ns;
		} else if (phase != PHASE_DRAIN && now - last > l->stall_ns && !all_retired(l)) {
			link_timed_out(l, "no completion for", l->stall_ns,
				       " with requests in flight");
		} else if (paced) {
			pace_sleep(l, now);
		} else if (l->cq_ch) {
			/* Up to the window's next edge; the drain's end is its own. */
			cq_sleep(l, now,
				 phase == PHASE_WARM	  ? t0
				 : phase == PHASE_MEASURE ? t1
				 : phase == PHASE_DRAIN	  ? drain_until
							  : UINT64_MAX);
		}
		for (int i = 0; i < n; i++) {
			uint32_t q = (uint32_t)(wc[i].wr_id >> 32);
			uint64_t cnt = wc[i].wr_id & 0xffffffffu;
			bool counted =
				phase == PHASE_MEASURE || (phase == PHASE_DRAIN && p->duration_ns);

			if (wc[i].status != IBV_WC_SUCCESS) {
				if (wc[i].status != IBV_WC_WR_FLUSH_ERR || !l->res.status)
					link_failed_wc(l, &wc[i], now);
				continue;
			}
			/* bidir send: one of the peer's messages (a receive's wr_id is its QP). */
			if (wc[i].opcode & IBV_WC_RECV) {
				take_recv(l, &wc[i],
					  counted && now >= l->res.window_start_ns && now < t1);
				continue;
			}
			if (q >= l->nqps)
				continue;
			l->qps[q].completed += cnt;
			if (phase == PHASE_DRAIN)
				qp_alive[q] = true;
			if (l->qps[q].warm_tail) {
				uint64_t warm =
					cnt < l->qps[q].warm_tail ? cnt : l->qps[q].warm_tail;

				l->qps[q].warm_tail -= (uint32_t)warm;
				cnt -= warm;
			}
			if (counted) {
				if (now >= l->res.window_start_ns && now < t1) {
					credit(l, now, cnt, cnt * p->size);
					l->res.completions++;
				}
			}
		}
		if (flush_tail && n > 0)
			alive_after = tail_alive(l, qp_alive);
	}
	if (!l->res.window_end_ns)
		l->res.window_end_ns = now < t1 ? now : t1;
	/* Now, not at close: the peer hears of the end only once these have stopped. */
	if (alive_after)
		quiesce_qps(l);
	if (!l->res.status && !all_retired(l) && !l->quiesced) {
		if (stop_requested(l))
			link_failed(l, ETIMEDOUT,
				    "stopped with requests in flight: the run was cut short");
		else
			link_timed_out(l, "no completion for", l->drain_ns,
				       " while the last requests drained");
	}
	/*
	 * What was outstanding when the QPs went to ERR, unsignalled requests
	 * after a QP's last signalled one included (quiesce_qps counts nothing);
	 * 0 when every request had retired and nothing was flushed.
	 */
	if (flush_tail && !l->res.status) {
		l->res.tail_flushed = true;
		for (uint32_t q = 0; l->quiesced && q < l->nqps; q++)
			l->res.flushed_requests += l->qps[q].posted - l->qps[q].completed;
	}
	note_end(l, now, last);
}

/* Server side of send: keep every receive queue full and count what arrives. */
static void run_receiver(struct rdc_bench_link *l)
{
	struct ibv_wc wc[POLL_BATCH];

	l->res.window_start_ns = l->sync->start_ns;
	while (!stop_requested(l)) {
		int n = ibv_poll_cq(l->cq, POLL_BATCH, wc);

		if (n == 0 && l->cq_ch)
			cq_sleep(l, rdc_bench_now_ns(), UINT64_MAX);
		for (int i = 0; i < n; i++) {
			uint32_t q = (uint32_t)wc[i].wr_id;

			if (wc[i].status != IBV_WC_SUCCESS) {
				/* Flushed receives follow a failure: not failures of their own. */
				if (wc[i].status != IBV_WC_WR_FLUSH_ERR || !l->res.status)
					link_failed_wc(l, &wc[i], rdc_bench_now_ns());
				continue;
			}
			if (!(wc[i].opcode & IBV_WC_RECV) || q >= l->nqps)
				continue;
			l->res.msgs++;
			l->res.bytes += wc[i].byte_len;
			if (post_recv(l, q))
				link_failed(l, EIO, "cannot post a receive");
		}
	}
	l->res.window_end_ns = rdc_bench_now_ns();
}

/*
 * One signalled work request of the latency tests: @size bytes of our buffer,
 * at @remote_off in the peer's for a write or read; inline where the QP was
 * made for it (never for a read, which sends no data).
 */
static int lat_post(struct rdc_bench_link *l, enum ibv_wr_opcode opcode, uint64_t remote_off)
{
	struct ibv_sge sge = {
		.addr = (uint64_t)(uintptr_t)l->buf, .length = l->p.size, .lkey = l->mr->lkey};
	struct ibv_send_wr wr = {.sg_list = &sge,
				 .num_sge = 1,
				 .opcode = opcode,
				 .send_flags = IBV_SEND_SIGNALED},
			   *bad;
	int rc;

	if (l->use_inline && opcode != IBV_WR_RDMA_READ)
		wr.send_flags |= IBV_SEND_INLINE;
	if (opcode != IBV_WR_SEND) {
		wr.wr.rdma.remote_addr = l->remote_vaddr + remote_off;
		wr.wr.rdma.rkey = l->remote_rkey;
	}
	rc = ibv_post_send(l->qps[0].qp, &wr, &bad);
	return rc > 0 ? -rc : rc < 0 ? -EIO : 0;
}

/* Write @seq as the last byte of the peer's receive area (after its send area). */
static int lat_write(struct rdc_bench_link *l, uint8_t seq)
{
	l->buf[l->p.size - 1] = seq;
	return lat_post(l, IBV_WR_RDMA_WRITE, l->p.size);
}

/* lat-read: read @size bytes of the peer's buffer into ours. */
static int lat_read(struct rdc_bench_link *l)
{
	return lat_post(l, IBV_WR_RDMA_READ, 0);
}

/* lat-send: send @size bytes to the peer's posted receive. */
static int lat_send(struct rdc_bench_link *l)
{
	return lat_post(l, IBV_WR_SEND, 0);
}

/*
 * lat-send: wait until our send completed (unless *@sent) and, with
 * @need_recv, a message of the peer's is in *@recvs.  Every receive that
 * completes while we wait counts there and is posted again at once, for the
 * peer's next message: the server's wait for its own send's completion can
 * see the client's next message first (the ACK of our send comes after the
 * client got it and answered), and that message is then the next round's.
 * Errors as lat_wait's.
 */
static int lat_send_wait(struct rdc_bench_link *l, bool *sent, unsigned int *recvs, bool need_recv,
			 bool patient)
{
	uint64_t deadline = rdc_bench_now_ns() + l->answer_ns;
	struct ibv_wc wc;

	for (unsigned int spin = 0;; spin++) {
		int n = ibv_poll_cq(l->cq, 1, &wc);

		if (n < 0)
			return -EIO;
		if (n == 1) {
			if (wc.status != IBV_WC_SUCCESS) {
				link_failed_wc(l, &wc, rdc_bench_now_ns());
				return -EIO;
			}
			if (wc.opcode & IBV_WC_RECV) {
				int rc = post_recv(l, 0);

				if (rc)
					return rc > 0 ? -rc : -EIO;
				(*recvs)++;
			} else {
				*sent = true;
			}
		}
		if (*sent && (!need_recv || *recvs > 0))
			return 0;
		if ((spin & 1023) == 0) {
			if (stop_requested(l))
				return -ECANCELED;
			if (!patient && rdc_bench_now_ns() > deadline)
				return -ETIMEDOUT;
		}
	}
}

/*
 * Wait until the peer's byte @seq (unless negative) lands at the end of our
 * receive area and, unless *@sent, our own write completed.  -EIO on a
 * failed completion, -ETIMEDOUT when the peer stays silent (@patient: the
 * server, which waits for its client as long as the run lasts),
 * -ECANCELED when told to stop.
 */
static int lat_wait(struct rdc_bench_link *l, int seq, bool *sent, bool patient)
{
	volatile uint8_t *mark = l->buf + 2 * (size_t)l->p.size - 1;
	uint64_t deadline = rdc_bench_now_ns() + l->answer_ns;
	struct ibv_wc wc;

	for (unsigned int spin = 0;; spin++) {
		if (!*sent) {
			int n = ibv_poll_cq(l->cq, 1, &wc);

			if (n < 0)
				return -EIO;
			if (n == 1) {
				if (wc.status != IBV_WC_SUCCESS) {
					link_failed_wc(l, &wc, rdc_bench_now_ns());
					return -EIO;
				}
				*sent = true;
			}
		}
		if (*sent && (seq < 0 || *mark == (uint8_t)seq))
			return 0;
		if ((spin & 1023) == 0) {
			if (stop_requested(l))
				return -ECANCELED;
			if (!patient && rdc_bench_now_ns() > deadline)
				return -ETIMEDOUT;
		}
	}
}

static uint8_t lat_next(uint8_t seq)
{
	return seq == 255 ? 1 : seq + 1; /* never 0: the receive area starts zeroed */
}

static bool lat_keep(struct rdc_bench_link *l, uint64_t sample)
{
	struct rdc_bench_result *r = &l->res;

	if (r->nlat == r->cap_lat) {
		size_t cap = r->cap_lat ? r->cap_lat * 2 : 65536;
		uint64_t *more;

		if (cap > MAX_LAT_SAMPLES)
			cap = MAX_LAT_SAMPLES;
		if (cap == r->cap_lat)
			return false;
		more = realloc(r->lat_ns, cap * sizeof(*more));
		if (!more)
			return false;
		r->lat_ns = more;
		r->cap_lat = cap;
	}
	r->lat_ns[r->nlat++] = sample;
	return true;
}

static void lat_error(struct rdc_bench_link *l, int rc)
{
	if (rc == -ETIMEDOUT)
		link_timed_out(l, "the peer did not answer for", l->answer_ns, "");
	else if (rc != -ECANCELED)
		link_failed(l, -rc, "the ping-pong failed");
}

/*
 * One round trip of the client: lat writes a sequence byte into the peer's
 * receive area and waits for the peer to write it back into ours; lat-send
 * sends and waits for the peer's send; lat-read reads and waits for the
 * read's completion.
 */
static int lat_round(struct rdc_bench_link *l, uint8_t seq)
{
	unsigned int recvs = 0;
	bool sent = false;
	int rc;

	switch (l->p.test) {
	case RDC_BENCH_LAT_READ:
		rc = lat_read(l);
		return rc ? rc : lat_wait(l, -1, &sent, false);
	case RDC_BENCH_LAT_SEND:
		rc = lat_send(l);
		return rc ? rc : lat_send_wait(l, &sent, &recvs, true, false);
	default:
		rc = lat_write(l, seq);
		return rc ? rc : lat_wait(l, seq, &sent, false);
	}
}

/*
 * The client of the latency tests.  A sample is half the round trip for lat
 * and lat-send, the whole read for lat-read, as ib_write_lat, ib_send_lat
 * and ib_read_lat report them.
 */
static void run_ping(struct rdc_bench_link *l)
{
	const struct rdc_bench_params *p = &l->p;
	uint64_t t0 = l->sync->start_ns + p->warmup_ns;
	uint64_t t1 = p->duration_ns ? t0 + p->duration_ns : UINT64_MAX;
	uint64_t last = l->sync->start_ns, now;
	bool measuring = !p->warmup_ns;
	uint64_t halves = p->test == RDC_BENCH_LAT_READ ? 1 : 2;
	uint8_t seq = 0;

	l->res.window_start_ns = t0;
	/* Iteration mode knows its sample count: one allocation, no growth. */
	if (p->iters) {
		l->res.lat_ns = malloc(p->iters * sizeof(uint64_t));
		if (!l->res.lat_ns) {
			link_failed(l, ENOMEM, "cannot keep the latency samples");
			return;
		}
		l->res.cap_lat = p->iters;
	}
	for (;;) {
		uint64_t sent_at;
		int rc;

		now = rdc_bench_now_ns();
		if (!measuring && now >= t0) {
			measuring = true;
			l->res.window_start_ns = now;
		}
		if (measuring && (now >= t1 || (p->iters && l->res.msgs == p->iters)))
			break;
		if (stop_requested(l))
			break;
		seq = lat_next(seq);
		sent_at = rdc_bench_now_ns();
		rc = lat_round(l, seq);
		now = rdc_bench_now_ns();
		if (rc) {
			lat_error(l, rc);
			break;
		}
		note_activity(l, now, &last);
		if (!measuring)
			continue;
		if (!lat_keep(l, (now - sent_at) / halves)) {
			link_failed(l, ENOMEM,
				    "too many latency samples; use iters or a shorter run");
			break;
		}
		credit(l, now, 1, p->size);
	}
	l->res.window_end_ns = now < t1 ? now : t1;
	note_end(l, now, last);
}

/* The server of lat: answer every byte the client writes with the same byte. */
static void run_pong(struct rdc_bench_link *l)
{
	uint8_t expect = 1;

	l->res.window_start_ns = l->sync->start_ns;
	for (;;) {
		bool sent = true;
		int rc = lat_wait(l, expect, &sent, true);

		if (!rc) {
			sent = false;
			rc = lat_write(l, expect);
			if (!rc)
				rc = lat_wait(l, -1, &sent, false);
		}
		if (rc) {
			lat_error(l, rc);
			break;
		}
		l->res.msgs++;
		l->res.bytes += l->p.size;
		expect = lat_next(expect);
	}
	l->res.window_end_ns = rdc_bench_now_ns();
}

/* The server of lat-send: answer every message with one of the same size. */
static void run_pong_send(struct rdc_bench_link *l)
{
	unsigned int recvs = 0; /* the client's messages not answered yet */

	l->res.window_start_ns = l->sync->start_ns;
	for (;;) {
		bool sent = true;
		int rc = lat_send_wait(l, &sent, &recvs, true, true);

		if (!rc) {
			recvs--;
			sent = false;
			rc = lat_send(l);
			if (!rc)
				rc = lat_send_wait(l, &sent, &recvs, false, false);
		}
		if (rc) {
			lat_error(l, rc);
			break;
		}
		l->res.msgs++;
		l->res.bytes += l->p.size;
	}
	l->res.window_end_ns = rdc_bench_now_ns();
}

static void *link_thread(void *arg)
{
	struct rdc_bench_link *l = arg;
	struct timespec ts = {.tv_sec = (time_t)(l->sync->start_ns / 1000000000ull),
			      .tv_nsec = (long)(l->sync->start_ns % 1000000000ull)};
	uint64_t cpu0;

	pin_to_node(l->ep.numa_node);
	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
		;
	cpu0 = thread_cpu_ns();
	l->bucket_base_ns = l->sync->start_ns + l->p.warmup_ns;
	/* With bidir the server is a requester too, over the same QPs. */
	if (l->server && !l->p.bidir && l->p.test == RDC_BENCH_SEND)
		run_receiver(l);
	else if (l->server && !l->p.bidir)
		l->p.test == RDC_BENCH_LAT_SEND ? run_pong_send(l) : run_pong(l);
	else
		rdc_bench_test_is_lat(l->p.test) ? run_ping(l) : run_bw(l);
	l->res.cpu_ns = thread_cpu_ns() - cpu0;
	__atomic_store_n(&l->res.sent, true, __ATOMIC_RELEASE);
	if (l->p.bidir && l->p.test == RDC_BENCH_SEND)
		serve_recvs(l);
	__atomic_store_n(&l->res.finished, true, __ATOMIC_RELEASE);
	return NULL;
}

static bool link_has_work(const struct rdc_bench_link *l)
{
	/* The target of write, read and lat-read is the NIC alone (unless bidir). */
	return !l->server || l->p.bidir || l->p.test == RDC_BENCH_SEND ||
	       l->p.test == RDC_BENCH_LAT || l->p.test == RDC_BENCH_LAT_SEND;
}

int rdc_bench_links_start(struct rdc_bench_link **links, size_t n, struct rdc_bench_sync *sync,
			  struct rdc_err *err)
{
	for (size_t i = 0; i < n; i++) {
		struct rdc_bench_link *l = links[i];
		int rc;

		l->sync = sync;
		memset(&l->res, 0, sizeof(l->res));
		l->res.buffer_page_bytes = l->page_bytes;
		l->res.cq_wait = l->cq_wait;
		if (!l->server && !rdc_bench_test_is_lat(l->p.test)) {
			uint64_t span = l->p.duration_ns
						? l->p.duration_ns
						: (uint64_t)RDC_BENCH_MAX_SECONDS * 1000000000ull;
			size_t k = (size_t)((span + l->p.interval_ns - 1) / l->p.interval_ns);

			l->res.nintervals =
				k < RDC_BENCH_MAX_INTERVALS ? k : RDC_BENCH_MAX_INTERVALS;
			l->res.interval_bytes = calloc(l->res.nintervals, sizeof(uint64_t));
			if (!l->res.interval_bytes) {
				rdc_bench_links_stop(sync);
				rdc_bench_links_join(links, i);
				return rdc_err_set(err, ENOMEM, "out of memory");
			}
		}
		if (!link_has_work(l)) {
			l->res.sent = l->res.finished = true;
			continue;
		}
		rc = pthread_create(&l->thread, NULL, link_thread, l);
		if (rc) {
			rdc_bench_links_stop(sync);
			rdc_bench_links_join(links, i);
			return rdc_err_set(err, rc, "cannot start the thread of %s", l->ep.device);
		}
		l->has_thread = true;
	}
	return 0;
}

void rdc_bench_links_stop(struct rdc_bench_sync *sync)
{
	__atomic_store_n(&sync->stop, 1, __ATOMIC_RELAXED);
}

void rdc_bench_links_join(struct rdc_bench_link **links, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (links[i]->has_thread) {
			pthread_join(links[i]->thread, NULL);
			links[i]->has_thread = false;
		}
}
