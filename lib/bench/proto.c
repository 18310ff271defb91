// SPDX-License-Identifier: GPL-2.0-or-later
/* proto.c - encoder and bounded decoder of the bench control messages */
#include <errno.h>
#include <string.h>

#include "base/util.h"
#include "bench/proto.h"

static const char *const msg_names[] = {
	[RDC_BENCH_MSG_HELLO] = "HELLO", [RDC_BENCH_MSG_PORTS] = "PORTS",
	[RDC_BENCH_MSG_SETUP] = "SETUP", [RDC_BENCH_MSG_SETUP_OK] = "SETUP_OK",
	[RDC_BENCH_MSG_START] = "START", [RDC_BENCH_MSG_STARTED] = "STARTED",
	[RDC_BENCH_MSG_DONE] = "DONE",	 [RDC_BENCH_MSG_RESULT] = "RESULT",
	[RDC_BENCH_MSG_ERROR] = "ERROR",
};

const char *rdc_bench_msg_name(unsigned int type)
{
	if (type < RDC_ARRAY_SIZE(msg_names) && msg_names[type])
		return msg_names[type];
	return "unknown";
}

/* ---- writer: stops writing at the end of the buffer and remembers it overflowed ---- */

struct wcur {
	uint8_t *p;
	size_t len, cap;
	bool overflow;
};

static void w_bytes(struct wcur *w, const void *data, size_t n)
{
	if (w->overflow || n > w->cap - w->len) {
		w->overflow = true;
		return;
	}
	memcpy(w->p + w->len, data, n);
	w->len += n;
}

static void w_u8(struct wcur *w, uint8_t v)
{
	w_bytes(w, &v, 1);
}

static void w_u16(struct wcur *w, uint16_t v)
{
	uint8_t b[2] = {v >> 8, v & 0xff};

	w_bytes(w, b, 2);
}

static void w_u32(struct wcur *w, uint32_t v)
{
	uint8_t b[4] = {v >> 24, (v >> 16) & 0xff, (v >> 8) & 0xff, v & 0xff};

	w_bytes(w, b, 4);
}

static void w_u64(struct wcur *w, uint64_t v)
{
	w_u32(w, v >> 32);
	w_u32(w, v & 0xffffffffu);
}

/* A string: u16 length, the bytes, no NUL. */
static void w_str(struct wcur *w, const char *s)
{
	size_t n = strnlen(s, 0xffff);

	w_u16(w, n);
	w_bytes(w, s, n);
}

/* ---- reader: every read is bounds-checked; the first failure sticks ---- */

struct rcur {
	const uint8_t *p;
	size_t len, off;
	const char *bad; /* what did not decode, for the error message */
};

static bool r_take(struct rcur *r, void *out, size_t n, const char *what)
{
	if (r->bad)
		return false;
	if (n > r->len - r->off) {
		r->bad = what;
		return false;
	}
	memcpy(out, r->p + r->off, n);
	r->off += n;
	return true;
}

static uint8_t r_u8(struct rcur *r, const char *what)
{
	uint8_t v = 0;

	r_take(r, &v, 1, what);
	return v;
}

static uint16_t r_u16(struct rcur *r, const char *what)
{
	uint8_t b[2] = {0};

	r_take(r, b, 2, what);
	return (uint16_t)(b[0] << 8 | b[1]);
}

static uint32_t r_u32(struct rcur *r, const char *what)
{
	uint8_t b[4] = {0};

	r_take(r, b, 4, what);
	return (uint32_t)b[0] << 24 | (uint32_t)b[1] << 16 | (uint32_t)b[2] << 8 | b[3];
}

static uint64_t r_u64(struct rcur *r, const char *what)
{
	uint64_t hi = r_u32(r, what);

	return hi << 32 | r_u32(r, what);
}

/* A string into @out (NUL-terminated); too long for @size or holding a NUL fails. */
static void r_str(struct rcur *r, char *out, size_t size, const char *what)
{
	uint16_t n = r_u16(r, what);

	out[0] = '\0';
	if (r->bad)
		return;
	if (n >= size || n > r->len - r->off || memchr(r->p + r->off, '\0', n)) {
		r->bad = what;
		return;
	}
	memcpy(out, r->p + r->off, n);
	out[n] = '\0';
	r->off += n;
	/* The peer's text ends up on a terminal: no control characters. */
	for (char *c = out; *c; c++)
		if ((unsigned char)*c < 0x20 || *c == 0x7f)
			*c = '?';
}

/* A count that must not exceed @max. */
static uint32_t r_count(struct rcur *r, uint32_t max, const char *what)
{
	uint32_t n = r_u32(r, what);

	if (!r->bad && n > max) {
		r->bad = what;
		return 0;
	}
	return n;
}

/* ---- the messages ---- */

static void w_params(struct wcur *w, const struct rdc_bench_params *p)
{
	w_u8(w, p->test);
	w_u32(w, p->size);
	w_u32(w, p->qps);
	w_u32(w, p->tx_depth);
	w_u64(w, p->duration_ns);
	w_u64(w, p->iters);
	w_u64(w, p->warmup_ns);
	w_u64(w, p->interval_ns);
	w_u8(w, p->traffic_class);
	w_u32(w, p->mtu);
	w_u8(w, p->qp_timeout);
	w_u8(w, p->retry_cnt);
	w_u8(w, p->rnr_retry);
	w_u32(w, p->cq_mod);
	w_u32(w, p->post_list);
	w_u32(w, p->inline_size);
	w_u64(w, p->rate_limit_bps);
	w_u8(w, p->hugepages);
	w_u8(w, p->bidir);
	w_u8(w, p->rdma_cm);
	w_u8(w, p->cq_wait);
}

static void r_params(struct rcur *r, struct rdc_bench_params *p)
{
	uint8_t test = r_u8(r, "test"), hugepages, bidir;

	if (!r->bad && test > RDC_BENCH_TEST_LAST)
		r->bad = "test";
	p->test = test;
	p->size = r_u32(r, "size");
	p->qps = r_u32(r, "qps");
	p->tx_depth = r_u32(r, "tx depth");
	p->duration_ns = r_u64(r, "duration");
	p->iters = r_u64(r, "iters");
	p->warmup_ns = r_u64(r, "warmup");
	p->interval_ns = r_u64(r, "interval");
	p->traffic_class = r_u8(r, "traffic class");
	p->mtu = r_u32(r, "mtu");
	p->qp_timeout = r_u8(r, "qp timeout");
	p->retry_cnt = r_u8(r, "retry count");
	p->rnr_retry = r_u8(r, "rnr retry");
	p->cq_mod = r_u32(r, "cq-mod");
	p->post_list = r_u32(r, "post-list");
	p->inline_size = r_u32(r, "inline");
	p->rate_limit_bps = r_u64(r, "rate-limit");
	hugepages = r_u8(r, "hugepages");
	if (!r->bad && hugepages > 1)
		r->bad = "hugepages";
	p->hugepages = hugepages == 1;
	bidir = r_u8(r, "bidir");
	if (!r->bad && bidir > 1)
		r->bad = "bidir";
	p->bidir = bidir;
	p->rdma_cm = r_u8(r, "rdma-cm");
	p->cq_wait = r_u8(r, "cq-wait");
}

static void w_endpoint(struct wcur *w, const struct rdc_bench_endpoint *e)
{
	w_str(w, e->device);
	w_u32(w, e->port);
	w_str(w, e->netdev);
	w_u32(w, e->gid_index);
	w_bytes(w, e->gid, 16);
	w_u32(w, e->ipv4);
	w_u8(w, e->prefix_len);
	w_u32(w, e->active_mtu);
	w_u32(w, e->rate_mbps);
	w_u8(w, e->active);
	w_u32(w, (uint32_t)e->numa_node);
}

static void r_endpoint(struct rcur *r, struct rdc_bench_endpoint *e)
{
	uint8_t active;

	r_str(r, e->device, sizeof(e->device), "device name");
	e->port = r_u32(r, "port");
	r_str(r, e->netdev, sizeof(e->netdev), "netdev name");
	e->gid_index = r_u32(r, "gid index");
	r_take(r, e->gid, 16, "gid");
	e->ipv4 = r_u32(r, "ip");
	e->prefix_len = r_u8(r, "prefix length");
	if (!r->bad && e->prefix_len > 32)
		r->bad = "prefix length";
	e->active_mtu = r_u32(r, "active mtu");
	e->rate_mbps = r_u32(r, "rate");
	active = r_u8(r, "active");
	if (!r->bad && active > 1)
		r->bad = "active";
	e->active = active;
	e->numa_node = (int32_t)r_u32(r, "numa node");
}

static void w_link(struct wcur *w, const struct rdc_bench_link_wire *l)
{
	w_u32(w, l->endpoint);
	w_bytes(w, l->gid, 16);
	w_u32(w, l->gid_index);
	w_u32(w, l->mtu);
	w_u32(w, l->rd_atom);
	w_u32(w, l->rkey);
	w_u64(w, l->vaddr);
	w_u64(w, l->length);
	w_u32(w, l->nqps);
	for (uint32_t q = 0; q < l->nqps && q < RDC_BENCH_MAX_QPS; q++) {
		w_u32(w, l->qps[q].qpn);
		w_u32(w, l->qps[q].psn);
	}
}

static void r_link(struct rcur *r, struct rdc_bench_link_wire *l)
{
	l->endpoint = r_count(r, RDC_BENCH_MAX_ENDPOINTS - 1, "link endpoint");
	r_take(r, l->gid, 16, "link gid");
	l->gid_index = r_u32(r, "link gid index");
	l->mtu = r_u32(r, "link mtu");
	l->rd_atom = r_u32(r, "link rd_atom");
	l->rkey = r_u32(r, "link rkey");
	l->vaddr = r_u64(r, "link vaddr");
	l->length = r_u64(r, "link length");
	l->nqps = r_count(r, RDC_BENCH_MAX_QPS, "qp count");
	for (uint32_t q = 0; q < l->nqps && !r->bad; q++) {
		l->qps[q].qpn = r_u32(r, "qpn");
		l->qps[q].psn = r_u32(r, "psn");
		if (!r->bad && (l->qps[q].qpn > 0xffffff || l->qps[q].psn > 0xffffff))
			r->bad = "qpn/psn (24 bits)";
	}
}

static bool msg_counts_ok(const struct rdc_bench_msg *m)
{
	switch (m->type) {
	case RDC_BENCH_MSG_PORTS:
		if (m->u.ports.count > RDC_BENCH_MAX_ENDPOINTS)
			return false;
		for (uint32_t i = 0; i < m->u.ports.count; i++)
			if (m->u.ports.eps[i].prefix_len > 32)
				return false;
		return true;
	case RDC_BENCH_MSG_SETUP:
	case RDC_BENCH_MSG_SETUP_OK:
		/* What the peer's decoder would refuse is refused here, before it is sent. */
		if (m->u.setup.nlinks > RDC_BENCH_MAX_LINKS)
			return false;
		for (uint32_t i = 0; i < m->u.setup.nlinks; i++) {
			const struct rdc_bench_link_wire *l = &m->u.setup.links[i];

			if (l->nqps > RDC_BENCH_MAX_QPS || l->endpoint >= RDC_BENCH_MAX_ENDPOINTS)
				return false;
			for (uint32_t q = 0; q < l->nqps; q++)
				if (l->qps[q].qpn > 0xffffff || l->qps[q].psn > 0xffffff)
					return false;
		}
		return m->type == RDC_BENCH_MSG_SETUP_OK ||
		       m->u.setup.params.test <= RDC_BENCH_TEST_LAST;
	case RDC_BENCH_MSG_DONE:
	case RDC_BENCH_MSG_RESULT:
		return m->u.count.nlinks <= RDC_BENCH_MAX_LINKS;
	default:
		return m->type >= RDC_BENCH_MSG_HELLO && m->type <= RDC_BENCH_MSG_MAX;
	}
}

long rdc_bench_msg_encode(const struct rdc_bench_msg *m, uint8_t *buf, size_t cap)
{
	struct wcur w = {.p = buf, .cap = cap};

	if (!msg_counts_ok(m))
		return -EINVAL;
	w_bytes(&w, RDC_BENCH_PROTO_MAGIC, 4);
	w_u16(&w, RDC_BENCH_PROTO_VERSION);
	w_u16(&w, m->type);
	w_u32(&w, 0); /* the length, filled in below */
	switch (m->type) {
	case RDC_BENCH_MSG_HELLO:
		w_str(&w, m->u.hello.software);
		break;
	case RDC_BENCH_MSG_PORTS:
		w_str(&w, m->u.ports.host);
		w_u32(&w, m->u.ports.count);
		for (uint32_t i = 0; i < m->u.ports.count; i++)
			w_endpoint(&w, &m->u.ports.eps[i]);
		break;
	case RDC_BENCH_MSG_SETUP:
		w_params(&w, &m->u.setup.params);
		/* fall through */
	case RDC_BENCH_MSG_SETUP_OK:
		w_u32(&w, m->u.setup.nlinks);
		for (uint32_t i = 0; i < m->u.setup.nlinks; i++)
			w_link(&w, &m->u.setup.links[i]);
		break;
	case RDC_BENCH_MSG_DONE:
	case RDC_BENCH_MSG_RESULT:
		w_u64(&w, m->u.count.window_ns);
		w_u32(&w, m->u.count.nlinks);
		for (uint32_t i = 0; i < m->u.count.nlinks; i++) {
			w_u64(&w, m->u.count.links[i].bytes);
			w_u64(&w, m->u.count.links[i].msgs);
			w_u32(&w, m->u.count.links[i].errors);
		}
		break;
	case RDC_BENCH_MSG_ERROR:
		w_u32(&w, (uint32_t)m->u.error.code);
		w_str(&w, m->u.error.text);
		break;
	default: /* START, STARTED: no payload */
		break;
	}
	if (w.overflow || w.len - RDC_BENCH_HDR_LEN > RDC_BENCH_MAX_FRAME)
		return -EMSGSIZE;
	{
		struct wcur len = {.p = buf + 8, .cap = 4};

		w_u32(&len, (uint32_t)(w.len - RDC_BENCH_HDR_LEN));
	}
	return (long)w.len;
}

int rdc_bench_hdr_decode(const uint8_t *hdr, uint16_t *version, uint16_t *type, uint32_t *len,
			 struct rdc_err *err)
{
	struct rcur r = {.p = hdr, .len = RDC_BENCH_HDR_LEN};
	uint8_t magic[4];

	r_take(&r, magic, 4, "magic");
	*version = r_u16(&r, "version");
	*type = r_u16(&r, "type");
	*len = r_u32(&r, "length");
	if (memcmp(magic, RDC_BENCH_PROTO_MAGIC, 4))
		return rdc_err_set(err, EPROTO, "not an rdmactl bench peer (bad magic)");
	if (*version != RDC_BENCH_PROTO_VERSION)
		return rdc_err_set(
			err, EPROTONOSUPPORT,
			"protocol version mismatch: peer speaks %u, this rdmactl speaks %u",
			*version, RDC_BENCH_PROTO_VERSION);
	if (*len > RDC_BENCH_MAX_FRAME)
		return rdc_err_set(err, EMSGSIZE, "message of %u bytes is over the limit of %u",
				   *len, RDC_BENCH_MAX_FRAME);
	return 0;
}

int rdc_bench_msg_decode(const uint8_t *buf, size_t len, struct rdc_bench_msg *m,
			 struct rdc_err *err)
{
	struct rcur r = {.p = buf, .len = len, .off = RDC_BENCH_HDR_LEN};
	uint32_t plen;
	int rc;

	memset(m, 0, sizeof(*m));
	if (len < RDC_BENCH_HDR_LEN)
		return rdc_err_set(err, EPROTO, "short message (%zu bytes)", len);
	rc = rdc_bench_hdr_decode(buf, &m->version, &m->type, &plen, err);
	if (rc)
		return rc;
	if (plen != len - RDC_BENCH_HDR_LEN)
		return rdc_err_set(err, EPROTO, "message length %u does not match its %zu bytes",
				   plen, len - RDC_BENCH_HDR_LEN);
	switch (m->type) {
	case RDC_BENCH_MSG_HELLO:
		r_str(&r, m->u.hello.software, sizeof(m->u.hello.software), "software name");
		break;
	case RDC_BENCH_MSG_PORTS:
		r_str(&r, m->u.ports.host, sizeof(m->u.ports.host), "host name");
		m->u.ports.count = r_count(&r, RDC_BENCH_MAX_ENDPOINTS, "endpoint count");
		for (uint32_t i = 0; i < m->u.ports.count && !r.bad; i++)
			r_endpoint(&r, &m->u.ports.eps[i]);
		break;
	case RDC_BENCH_MSG_SETUP:
		r_params(&r, &m->u.setup.params);
		/* fall through */
	case RDC_BENCH_MSG_SETUP_OK:
		m->u.setup.nlinks = r_count(&r, RDC_BENCH_MAX_LINKS, "link count");
		for (uint32_t i = 0; i < m->u.setup.nlinks && !r.bad; i++)
			r_link(&r, &m->u.setup.links[i]);
		break;
	case RDC_BENCH_MSG_DONE:
	case RDC_BENCH_MSG_RESULT:
		m->u.count.window_ns = r_u64(&r, "window");
		m->u.count.nlinks = r_count(&r, RDC_BENCH_MAX_LINKS, "link count");
		for (uint32_t i = 0; i < m->u.count.nlinks && !r.bad; i++) {
			m->u.count.links[i].bytes = r_u64(&r, "bytes");
			m->u.count.links[i].msgs = r_u64(&r, "messages");
			m->u.count.links[i].errors = r_u32(&r, "errors");
		}
		break;
	case RDC_BENCH_MSG_ERROR:
		m->u.error.code = (int32_t)r_u32(&r, "error code");
		r_str(&r, m->u.error.text, sizeof(m->u.error.text), "error text");
		break;
	case RDC_BENCH_MSG_START:
	case RDC_BENCH_MSG_STARTED:
		break;
	default:
		return rdc_err_set(err, EPROTO, "unknown message type %u", m->type);
	}
	if (r.bad)
		return rdc_err_set(err, EPROTO, "malformed %s message: bad %s",
				   rdc_bench_msg_name(m->type), r.bad);
	if (r.off != len)
		return rdc_err_set(err, EPROTO, "malformed %s message: %zu trailing bytes",
				   rdc_bench_msg_name(m->type), len - r.off);
	return 0;
}
