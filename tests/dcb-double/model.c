// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * model.c - what the kernel and an mlx5 NIC answer to one dcbnl request.
 *
 * The request path mirrors net/core/rtnetlink.c (rtnetlink_rcv_msg),
 * net/dcb/dcbnl.c (dcb_doit, dcbnl_ieee_get/set/del, dcbnl_getdcbx/setdcbx)
 * and drivers/net/ethernet/mellanox/mlx5/core/en_dcbnl.c (the dcbnl_rtnl_ops).
 * Comments name the function whose behaviour each step copies.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <linux/rtnetlink.h>

#include "dd.h"

extern int (*dd_close_hook)(int);

/* ---- configuration from the environment ---------------------------------- */

bool dd_dev_listed(const char *name)
{
	const char *p = getenv("DCB_DOUBLE_DEVS");
	size_t n = strlen(name);

	if (!p || !n)
		return false;
	while (*p) {
		const char *e;

		while (*p == ',' || *p == ' ')
			p++;
		e = p;
		while (*e && *e != ',' && *e != ' ')
			e++;
		if ((size_t)(e - p) == n && !memcmp(p, name, n))
			return true;
		p = e;
	}
	return false;
}

/*
 * DCB_DOUBLE_KERNEL=6.1 answers like Debian 12's kernel: DCB_ATTR_IEEE_MAX is
 * DCB_ATTR_DCB_BUFFER (no APP trust or rewrite tables) and dcbnl_ieee_set()
 * does not refuse bandwidth on non-ETS TCs.  The default is a current kernel.
 */
static bool kernel_61(void)
{
	const char *k = getenv("DCB_DOUBLE_KERNEL");

	return k && !strcmp(k, "6.1");
}

/* netlink_net_capable(skb, CAP_NET_ADMIN), read from our own credentials */
static bool capable_net_admin(void)
{
	char line[256];
	bool cap = false;
	FILE *f = fopen("/proc/self/status", "re");

	if (!f)
		return geteuid() == 0;
	while (fgets(line, sizeof(line), f)) {
		if (!strncmp(line, "CapEff:", 7)) {
			unsigned long long eff = strtoull(line + 7, NULL, 16);

			cap = eff & (1ULL << 12); /* CAP_NET_ADMIN */
			break;
		}
	}
	fclose(f);
	return cap;
}

/* ---- attributes ------------------------------------------------------------ */

static bool attr_ok(const struct nlattr *a, long rem)
{
	return rem >= (long)sizeof(*a) && a->nla_len >= sizeof(*a) && (long)a->nla_len <= rem;
}

#define ATTR_TYPE(a) ((a)->nla_type & NLA_TYPE_MASK)
#define ATTR_DATA(a) ((const uint8_t *)(a) + NLA_HDRLEN)
#define ATTR_LEN(a) ((size_t)(a)->nla_len - NLA_HDRLEN)

enum pol {
	P_NONE,	   /* no policy entry: anything goes */
	P_NUL_STR, /* NLA_NUL_STRING, .len = IFNAMSIZ - 1 */
	P_U8,	   /* NLA_U8: at least one byte when parsing liberally */
	P_FLAG,	   /* NLA_FLAG: no payload */
	P_NESTED,  /* NLA_NESTED: empty, or at least a header */
	P_MINLEN,  /* NLA_UNSPEC with .len: at least that many bytes */
};

struct policy {
	enum pol type;
	size_t len;
};

/*
 * __nla_parse() with NL_VALIDATE_LIBERAL, as the _deprecated parsers dcbnl uses:
 * unknown types and trailing bytes are ignored, a later duplicate wins, and an
 * attribute that breaks its policy fails the whole parse (validate_nla()).
 */
static int parse_attrs(const uint8_t *p, long len, const struct nlattr **tb, int max,
		       const struct policy *pol)
{
	const struct nlattr *a = (const void *)p;
	long rem = len;

	for (int i = 0; i <= max; i++)
		tb[i] = NULL;
	for (; attr_ok(a, rem); rem -= NLA_ALIGN(a->nla_len),
				a = (const void *)((const uint8_t *)a + NLA_ALIGN(a->nla_len))) {
		int type = ATTR_TYPE(a);
		size_t alen = ATTR_LEN(a);

		if (type == 0 || type > max)
			continue;
		switch (pol[type].type) {
		case P_NUL_STR: {
			size_t minlen = alen < pol[type].len + 1 ? alen : pol[type].len + 1;

			if (!minlen || !memchr(ATTR_DATA(a), '\0', minlen))
				return -EINVAL;
			break;
		}
		case P_U8:
			if (alen < 1)
				return -ERANGE;
			break;
		case P_FLAG:
			if (alen > 0)
				return -EINVAL;
			break;
		case P_NESTED:
			if (alen && alen < NLA_HDRLEN)
				return -ERANGE;
			break;
		case P_MINLEN:
			if (alen < pol[type].len)
				return -ERANGE;
			break;
		case P_NONE:
			break;
		}
		tb[type] = a;
	}
	return 0;
}

/* dcbnl_rtnl_policy */
static const struct policy top_policy[DCB_ATTR_MAX + 1] = {
	[DCB_ATTR_IFNAME] = {P_NUL_STR, DD_IFNAMSIZ - 1},
	[DCB_ATTR_STATE] = {P_U8, 0},
	[DCB_ATTR_PFC_CFG] = {P_NESTED, 0},
	[DCB_ATTR_PG_CFG] = {P_NESTED, 0},
	[DCB_ATTR_SET_ALL] = {P_U8, 0},
	[DCB_ATTR_PERM_HWADDR] = {P_FLAG, 0},
	[DCB_ATTR_CAP] = {P_NESTED, 0},
	[DCB_ATTR_PFC_STATE] = {P_U8, 0},
	[DCB_ATTR_BCN] = {P_NESTED, 0},
	[DCB_ATTR_APP] = {P_NESTED, 0},
	[DCB_ATTR_IEEE] = {P_NESTED, 0},
	[DCB_ATTR_DCBX] = {P_U8, 0},
	[DCB_ATTR_FEATCFG] = {P_NESTED, 0},
};

/* dcbnl_ieee_policy */
static const struct policy ieee_policy[DD_ATTR_IEEE_MAX_NEW + 1] = {
	[DCB_ATTR_IEEE_ETS] = {P_MINLEN, sizeof(struct ieee_ets)},
	[DCB_ATTR_IEEE_PFC] = {P_MINLEN, sizeof(struct ieee_pfc)},
	[DCB_ATTR_IEEE_APP_TABLE] = {P_NESTED, 0},
	[DCB_ATTR_IEEE_MAXRATE] = {P_MINLEN, sizeof(struct ieee_maxrate)},
	[DCB_ATTR_IEEE_QCN] = {P_MINLEN, sizeof(struct ieee_qcn)},
	[DCB_ATTR_IEEE_QCN_STATS] = {P_MINLEN, sizeof(struct ieee_qcn_stats)},
	[DCB_ATTR_DCB_BUFFER] = {P_MINLEN, sizeof(struct dcbnl_buffer)},
	[DD_ATTR_DCB_APP_TRUST_TABLE] = {P_NESTED, 0},
};

/* reply_funcs[].type: which commands are SETs (need CAP_NET_ADMIN, answer RTM_SETDCB) */
static bool cmd_is_set(unsigned int cmd)
{
	switch (cmd) {
	case DCB_CMD_SSTATE:
	case DCB_CMD_PGTX_SCFG:
	case DCB_CMD_PGRX_SCFG:
	case DCB_CMD_PFC_SCFG:
	case DCB_CMD_SET_ALL:
	case DCB_CMD_SNUMTCS:
	case DCB_CMD_PFC_SSTATE:
	case DCB_CMD_BCN_SCFG:
	case DCB_CMD_SAPP:
	case DCB_CMD_IEEE_SET:
	case DCB_CMD_SDCBX:
	case DCB_CMD_SFEATCFG:
	case DCB_CMD_IEEE_DEL:
		return true;
	default:
		return false;
	}
}

bool dd_is_ours(const struct nlmsghdr *nlh, size_t len, char ifname[DD_IFNAMSIZ])
{
	const struct nlattr *tb[DCB_ATTR_MAX + 1];
	const struct dcbmsg *dcb;
	size_t plen;
	bool set_kind;

	if (len < NLMSG_HDRLEN || nlh->nlmsg_len < NLMSG_HDRLEN || nlh->nlmsg_len > len)
		return false;
	/* netlink_rcv_skb(): non-requests are only acked */
	if (!(nlh->nlmsg_flags & NLM_F_REQUEST))
		return false;
	if (nlh->nlmsg_type != RTM_GETDCB && nlh->nlmsg_type != RTM_SETDCB)
		return false;
	plen = nlh->nlmsg_len - NLMSG_HDRLEN;
	/* rtnetlink_rcv_msg(): "All the messages must have at least 1 byte length",
	 * SET kinds need CAP_NET_ADMIN, and dcbnl has no dumpit */
	if (plen < 1)
		return false;
	set_kind = nlh->nlmsg_type == RTM_SETDCB;
	if (set_kind && !capable_net_admin())
		return false;
	if (!set_kind && (nlh->nlmsg_flags & NLM_F_DUMP))
		return false;
	/* dcb_doit(): nlmsg_parse_deprecated() against dcbnl_rtnl_policy */
	if (plen < sizeof(*dcb))
		return false;
	dcb = NLMSG_DATA(nlh);
	if (parse_attrs((const uint8_t *)dcb + NLMSG_ALIGN(sizeof(*dcb)),
			(long)plen - (long)NLMSG_ALIGN(sizeof(*dcb)), tb, DCB_ATTR_MAX, top_policy))
		return false;
	if (dcb->cmd == DCB_CMD_UNDEFINED || dcb->cmd > DCB_CMD_MAX)
		return false;
	/* dcb_doit() checks again by command: a SET command sent as RTM_GETDCB */
	if (cmd_is_set(dcb->cmd) && !set_kind && !capable_net_admin())
		return false;
	if (!tb[DCB_ATTR_IFNAME])
		return false;
	/* the policy guaranteed a NUL within the first IFNAMSIZ bytes */
	snprintf(ifname, DD_IFNAMSIZ, "%s", (const char *)ATTR_DATA(tb[DCB_ATTR_IFNAME]));
	return dd_dev_listed(ifname);
}

/* ---- building replies ------------------------------------------------------- */

void dd_buf_free(struct dd_buf *b)
{
	free(b->p);
	b->p = NULL;
	b->len = b->cap = 0;
}

/* Reserve NLMSG/NLA-aligned, zeroed room; returns its offset. */
static size_t buf_reserve(struct dd_buf *b, size_t n)
{
	size_t off = b->len, need = NLA_ALIGN(n);

	if (b->oom)
		return 0;
	if (b->len + need > b->cap) {
		size_t ncap = (b->cap ? b->cap * 2 : 512) + need;
		uint8_t *np = realloc(b->p, ncap);

		if (!np) {
			b->oom = true;
			return 0;
		}
		b->p = np;
		b->cap = ncap;
	}
	if (need) {
		memset(b->p + off, 0, need);
		b->len += need;
	}
	return off;
}

static void put_attr(struct dd_buf *b, uint16_t type, const void *data, size_t n)
{
	size_t off = buf_reserve(b, NLA_HDRLEN + n);
	struct nlattr a = {.nla_len = (uint16_t)(NLA_HDRLEN + n), .nla_type = type};

	if (b->oom)
		return;
	memcpy(b->p + off, &a, sizeof(a));
	if (n)
		memcpy(b->p + off + NLA_HDRLEN, data, n);
}

static void put_u8(struct dd_buf *b, uint16_t type, uint8_t v)
{
	put_attr(b, type, &v, 1);
}

static size_t nest_start(struct dd_buf *b, uint16_t type)
{
	size_t off = buf_reserve(b, NLA_HDRLEN);
	struct nlattr a = {.nla_len = NLA_HDRLEN, .nla_type = type};

	if (!b->oom)
		memcpy(b->p + off, &a, sizeof(a));
	return off;
}

static void nest_end(struct dd_buf *b, size_t off)
{
	uint16_t len = (uint16_t)(b->len - off);

	if (!b->oom)
		memcpy(b->p + off + offsetof(struct nlattr, nla_len), &len, sizeof(len));
}

static struct dd_dgram *to_dgram(struct dd_buf *b)
{
	struct dd_dgram *d;

	if (b->oom || !b->p || b->len < NLMSG_HDRLEN)
		return NULL;
	/* nlmsg_end(): the length covers everything put, padding included */
	((struct nlmsghdr *)b->p)->nlmsg_len = (uint32_t)b->len;
	d = malloc(sizeof(*d) + b->len);
	if (!d)
		return NULL;
	d->next = NULL;
	d->len = b->len;
	memcpy(d->data, b->p, b->len);
	return d;
}

/* dcbnl_newmsg(): the reply copies the request's seq and flags */
static void reply_start(struct dd_buf *b, uint16_t type, uint8_t cmd, const struct nlmsghdr *req,
			uint32_t portid)
{
	struct nlmsghdr h = {.nlmsg_type = type,
			     .nlmsg_flags = req->nlmsg_flags,
			     .nlmsg_seq = req->nlmsg_seq,
			     .nlmsg_pid = portid};
	struct dcbmsg dcb = {.dcb_family = AF_UNSPEC, .cmd = cmd};
	size_t off = buf_reserve(b, NLMSG_HDRLEN);

	if (!b->oom)
		memcpy(b->p + off, &h, sizeof(h));
	off = buf_reserve(b, sizeof(dcb));
	if (!b->oom)
		memcpy(b->p + off, &dcb, sizeof(dcb));
}

/*
 * netlink_ack(): NLMSG_ERROR with the request's header, or all of the request
 * when @err is set and NETLINK_CAP_ACK is off.  The double never adds extended
 * ack TLVs: the dcbnl paths it answers pass no extack either.
 */
static struct dd_dgram *make_ack(const struct nlmsghdr *req, int err, uint32_t portid, bool cap_ack)
{
	struct nlmsghdr h = {
		.nlmsg_type = NLMSG_ERROR, .nlmsg_seq = req->nlmsg_seq, .nlmsg_pid = portid};
	size_t payload = sizeof(struct nlmsgerr), copy = sizeof(*req);
	struct dd_buf b = {0};
	struct dd_dgram *d;
	size_t off;

	if (err && !cap_ack) {
		payload += req->nlmsg_len - NLMSG_HDRLEN;
		copy = req->nlmsg_len;
	} else {
		h.nlmsg_flags = NLM_F_CAPPED;
	}
	off = buf_reserve(&b, NLMSG_HDRLEN + payload);
	if (!b.oom && b.p) {
		memcpy(b.p + off, &h, sizeof(h));
		memcpy(b.p + off + NLMSG_HDRLEN, &err, sizeof(err));
		memcpy(b.p + off + NLMSG_HDRLEN + offsetof(struct nlmsgerr, msg), req, copy);
	}
	d = to_dgram(&b);
	dd_buf_free(&b);
	return d;
}

/* ---- request log and fault injection --------------------------------------- */

static const char *cmd_name(unsigned int cmd, char *tmp, size_t n)
{
	switch (cmd) {
	case DCB_CMD_IEEE_GET:
		return "GET";
	case DCB_CMD_IEEE_SET:
		return "SET";
	case DCB_CMD_IEEE_DEL:
		return "DEL";
	case DCB_CMD_GDCBX:
		return "GDCBX";
	case DCB_CMD_SDCBX:
		return "SDCBX";
	default:
		snprintf(tmp, n, "CMD%u", cmd);
		return tmp;
	}
}

/* One line per answered request: "KIND IFNAME HEX", seq and pid zeroed so two
 * programs' requests for the same change compare equal. */
static void log_request(const struct nlmsghdr *nlh, const char *ifname)
{
	const char *path = getenv("DCB_DOUBLE_LOG");
	const uint8_t *p = (const uint8_t *)nlh;
	const struct dcbmsg *dcb = NLMSG_DATA(nlh);
	static const char hex[] = "0123456789abcdef";
	char tmp[16];
	const char *what;
	size_t n = 0, cap;
	char *line;
	int fd;

	if (!path || !*path)
		return;
	what = cmd_name(dcb->cmd, tmp, sizeof(tmp));
	cap = strlen(what) + strlen(ifname) + 2 * (size_t)nlh->nlmsg_len + 4;
	line = malloc(cap);
	if (!line)
		return;
	n = (size_t)snprintf(line, cap, "%s %s ", what, ifname);
	for (size_t i = 0; i < nlh->nlmsg_len; i++) {
		uint8_t c = p[i];

		if (i >= offsetof(struct nlmsghdr, nlmsg_seq) && i < sizeof(struct nlmsghdr))
			c = 0;
		line[n++] = hex[c >> 4];
		line[n++] = hex[c & 15];
	}
	line[n++] = '\n';
	fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
	if (fd >= 0) {
		/* one write(): lines from concurrent processes do not interleave */
		if (write(fd, line, n) != (ssize_t)n)
			fprintf(stderr, "dcb-double: short write to %s\n", path);
		dd_close_hook(fd);
	}
	free(line);
}

/*
 * DCB_DOUBLE_FAIL=KIND[:N]: the Nth SET that reaches the driver op of KIND
 * (pfc, ets, maxrate, buffer, app-add, app-del, dcbx) fails with -EIO.  The
 * count lives in the state file, so it spans processes; it restarts whenever
 * the variable's value changes.
 */
static bool fault(struct dd_state *st, const char *kind)
{
	const char *spec = getenv("DCB_DOUBLE_FAIL");
	char want[32];
	unsigned long nth = 1;
	const char *colon;
	size_t klen;

	if (!spec || !*spec || strlen(spec) >= sizeof(st->fail_spec) || !dd_fail_spec_ok(spec))
		return false;
	colon = strchr(spec, ':');
	klen = colon ? (size_t)(colon - spec) : strlen(spec);
	if (klen >= sizeof(want))
		return false;
	memcpy(want, spec, klen);
	want[klen] = '\0';
	if (colon) {
		char *end;

		nth = strtoul(colon + 1, &end, 10);
		if (*end || !nth)
			return false;
	}
	if (strcmp(want, kind))
		return false;
	if (strcmp(st->fail_spec, spec)) {
		snprintf(st->fail_spec, sizeof(st->fail_spec), "%s", spec);
		st->fail_seen = 0;
	}
	st->fail_seen++;
	return st->fail_seen == nth;
}

/* ---- the mlx5 driver ops ----------------------------------------------------- */

/* mlx5e_dbcnl_validate_ets(), plus a TSA check of the double's own: mlx5 has no
 * case for CBS or undefined TSAs and would program an uninitialised TC group. */
static int mlx5_validate_ets(const struct ieee_ets *ets)
{
	bool have_ets_tc = false;
	int bw_sum = 0;

	for (int i = 0; i < IEEE_8021QAZ_MAX_TCS; i++)
		if (ets->prio_tc[i] >= 8) /* MLX5E_MAX_PRIORITY */
			return -EINVAL;
	for (int i = 0; i < IEEE_8021QAZ_MAX_TCS; i++) {
		if (ets->tc_tsa[i] != IEEE_8021QAZ_TSA_STRICT &&
		    ets->tc_tsa[i] != IEEE_8021QAZ_TSA_ETS &&
		    ets->tc_tsa[i] != IEEE_8021QAZ_TSA_VENDOR)
			return -EINVAL;
		if (ets->tc_tsa[i] == IEEE_8021QAZ_TSA_ETS) {
			have_ets_tc = true;
			bw_sum += ets->tc_tx_bw[i];
		}
	}
	if (have_ets_tc && bw_sum != 100)
		return -EINVAL;
	return 0;
}

/* mlx5e_dcbnl_ieee_setets() -> mlx5e_dcbnl_ieee_setets_core(): build_tc_group()
 * and build_tc_tx_bw() turn the TSAs into firmware groups and weights. */
static int mlx5_setets(struct dd_dev *d, const struct ieee_ets *ets)
{
	bool any_ets = false, ets_zero_bw = false;
	int strict_group, num_zero = 0, last_zero = -1, zero_bw = 0;
	int err = mlx5_validate_ets(ets);

	if (err)
		return err;
	for (int i = 0; i <= DD_MLX5_MAX_TC; i++)
		if (ets->tc_tsa[i] == IEEE_8021QAZ_TSA_ETS) {
			any_ets = true;
			if (!ets->tc_tx_bw[i])
				ets_zero_bw = true;
		}
	/* strict groups rank above the ETS group(s) */
	strict_group = DD_MLX5_LOWEST_GROUP + any_ets + ets_zero_bw;
	for (int i = 0; i <= DD_MLX5_MAX_TC; i++) {
		switch (ets->tc_tsa[i]) {
		case IEEE_8021QAZ_TSA_VENDOR:
			d->tc_group[i] = DD_MLX5_VENDOR_GROUP;
			break;
		case IEEE_8021QAZ_TSA_STRICT:
			d->tc_group[i] = (uint8_t)strict_group++;
			break;
		case IEEE_8021QAZ_TSA_ETS:
			d->tc_group[i] =
				DD_MLX5_LOWEST_GROUP + (ets->tc_tx_bw[i] && ets_zero_bw ? 1 : 0);
			if (!ets->tc_tx_bw[i]) {
				num_zero++;
				last_zero = i;
			}
			break;
		}
	}
	if (num_zero)
		zero_bw = DD_MLX5_MAX_BW / num_zero;
	for (int i = 0; i <= DD_MLX5_MAX_TC; i++)
		d->tc_bw[i] = ets->tc_tsa[i] == IEEE_8021QAZ_TSA_ETS
				      ? (ets->tc_tx_bw[i] ? ets->tc_tx_bw[i] : (uint8_t)zero_bw)
				      : DD_MLX5_MAX_BW;
	if (last_zero >= 0)
		d->tc_bw[last_zero] += DD_MLX5_MAX_BW % num_zero;
	memcpy(d->prio_tc, ets->prio_tc, 8);
	memcpy(d->tc_tsa, ets->tc_tsa, 8);
	return 0;
}

/* mlx5e_dcbnl_ieee_setmaxrate(): 100 Mbit/s units up to 25.5 Gbit/s, then
 * Gbit/s units up to 255 Gbit/s (8-bit max_bw_value); 0 is "no limit". */
static int mlx5_setmaxrate(struct dd_dev *d, const struct ieee_maxrate *m)
{
	uint64_t out[8] = {0};

	for (int i = 0; i <= DD_MLX5_MAX_TC; i++) {
		uint64_t rate = m->tc_maxrate[i], v;

		if (!rate)
			continue;
		if (rate <= 255 * DD_MLX5_100MB_KBPS) {
			v = rate / DD_MLX5_100MB_KBPS;
			out[i] = (v ? v : 1) * DD_MLX5_100MB_KBPS;
		} else if (rate <= 255 * DD_MLX5_1GB_KBPS) {
			out[i] = rate / DD_MLX5_1GB_KBPS * DD_MLX5_1GB_KBPS;
		} else {
			return -EINVAL;
		}
	}
	memcpy(d->maxrate, out, sizeof(out));
	return 0;
}

/* mlx5e_dcbnl_ieee_setpfc(): pfc_en goes to PFCC; delay is taken as the cable
 * length in metres, and only when it is 1..MLX5E_MAX_CABLE_LENGTH-1.  mbc and
 * pfc_cap are not writable. */
static int mlx5_setpfc(struct dd_dev *d, const struct ieee_pfc *pfc)
{
	d->pfc_en = pfc->pfc_en;
	if (pfc->delay && pfc->delay < DD_MLX5_MAX_CABLE_LEN)
		d->cable_len = pfc->delay;
	return 0;
}

/* mlx5e_dcbnl_setbuffer() -> mlx5e_port_manual_buffer_config(): nothing to do
 * when nothing changed; a lossless buffer (one a PFC priority maps to) may not
 * be sized 0; the sizes may not exceed the port buffer; firmware keeps sizes in
 * 128-byte cells. */
static int mlx5_setbuffer(struct dd_dev *d, const struct dcbnl_buffer *b)
{
	bool p2b = memcmp(d->prio2buffer, b->prio2buffer, 8) != 0, size = false;
	uint64_t total = 0;

	for (int i = 0; i < DCBX_MAX_BUFFERS; i++)
		if (b->buffer_size[i] != d->buffer_size[i])
			size = true;
	if (!p2b && !size)
		return 0;
	if (size) {
		for (int i = 0; i < DCBX_MAX_BUFFERS; i++) {
			bool lossless = false;

			for (int p = 0; p < 8; p++)
				if ((d->pfc_en & (1u << p)) && b->prio2buffer[p] == i)
					lossless = true;
			if (lossless && !b->buffer_size[i])
				return -EINVAL;
			total += b->buffer_size[i];
		}
		if (total > d->buffer_total)
			return -EINVAL;
		for (int i = 0; i < DCBX_MAX_BUFFERS; i++)
			d->buffer_size[i] = b->buffer_size[i] / DD_MLX5_CELL * DD_MLX5_CELL;
	}
	memcpy(d->prio2buffer, b->prio2buffer, 8);
	return 0;
}

/* dcb_app_lookup() on this netdev's entries; prio -1 matches any */
static int app_find(const struct dd_app *t, int n, const struct dd_app *a, int prio)
{
	for (int i = 0; i < n; i++)
		if (t[i].selector == a->selector && t[i].protocol == a->protocol &&
		    (prio < 0 || t[i].priority == prio))
			return i;
	return -1;
}

static void app_remove(struct dd_app *t, int *n, int i)
{
	memmove(&t[i], &t[i + 1], sizeof(*t) * (size_t)(*n - i - 1));
	(*n)--;
}

/* dcb_app_add(): list_add(), so the newest entry comes first */
static int app_insert(struct dd_app *t, int *n, int max, const struct dd_app *a)
{
	if (*n >= max)
		return -ENOMEM;
	memmove(&t[1], &t[0], sizeof(*t) * (size_t)*n);
	t[0] = *a;
	(*n)++;
	return 0;
}

/*
 * mlx5e_dcbnl_ieee_setapp(): DSCP only; the first entry switches the port to
 * DSCP trust; a DSCP keeps one priority (the old entry is replaced), and adding
 * an entry that already exists deletes and re-adds it, so it succeeds.
 * A priority above 7 is refused here; mlx5 passes it on to firmware.
 */
static int mlx5_setapp(struct dd_dev *d, const struct dd_app *app)
{
	struct dd_app old;
	bool is_new;
	int i;

	if (app->selector != IEEE_8021QAZ_APP_SEL_DSCP || app->protocol >= DD_MLX5_MAX_DSCP)
		return -EINVAL;
	if (app->priority >= 8)
		return -EINVAL;
	old = (struct dd_app){.selector = IEEE_8021QAZ_APP_SEL_DSCP,
			      .protocol = app->protocol,
			      .priority = d->dscp2prio[app->protocol]};
	if (!d->napps)
		d->trust_dscp = true; /* mlx5e_set_trust_state(MLX5_QPTS_TRUST_DSCP) */
	d->dscp2prio[app->protocol] = app->priority;
	i = app_find(d->apps, d->napps, &old, old.priority);
	is_new = i < 0;
	if (!is_new)
		app_remove(d->apps, &d->napps, i);
	/* dcb_ieee_setapp() */
	if (app_find(d->apps, d->napps, app, app->priority) >= 0)
		return -EEXIST;
	return app_insert(d->apps, &d->napps, DD_MAX_APPS, app);
}

/* mlx5e_dcbnl_ieee_delapp(): the entry must match the firmware map; the map
 * goes back to priority 0, and the last entry switches trust back to PCP. */
static int mlx5_delapp(struct dd_dev *d, const struct dd_app *app)
{
	int i;

	if (app->selector != IEEE_8021QAZ_APP_SEL_DSCP || app->protocol >= DD_MLX5_MAX_DSCP)
		return -EINVAL;
	if (!d->napps)
		return -ENOENT;
	if (app->priority != d->dscp2prio[app->protocol])
		return -ENOENT;
	i = app_find(d->apps, d->napps, app, app->priority);
	if (i < 0)
		return -ENOENT;
	app_remove(d->apps, &d->napps, i);
	d->dscp2prio[app->protocol] = 0;
	if (!d->napps)
		d->trust_dscp = false; /* mlx5e_set_trust_state(MLX5_QPTS_TRUST_PCP) */
	return 0;
}

/* dcb_rewr_lookup(): selector, priority and protocol */
static int rewr_find(const struct dd_dev *d, const struct dd_app *a)
{
	for (int i = 0; i < d->nrewr; i++)
		if (d->rewr[i].selector == a->selector && d->rewr[i].priority == a->priority &&
		    d->rewr[i].protocol == a->protocol)
			return i;
	return -1;
}

/* dcb_setrewr() / dcb_delrewr(): mlx5 has no rewrite ops, the core list is used */
static int core_setrewr(struct dd_dev *d, const struct dd_app *a)
{
	if (rewr_find(d, a) >= 0)
		return -EEXIST;
	return app_insert(d->rewr, &d->nrewr, DD_MAX_REWR, a);
}

static int core_delrewr(struct dd_dev *d, const struct dd_app *a)
{
	int i = rewr_find(d, a);

	if (i < 0)
		return -ENOENT;
	app_remove(d->rewr, &d->nrewr, i);
	return 0;
}

/* dcbnl_app_attr_type_get() */
static int app_attr_type(uint8_t selector)
{
	if (selector >= IEEE_8021QAZ_APP_SEL_ETHERTYPE && selector <= IEEE_8021QAZ_APP_SEL_DSCP)
		return DCB_ATTR_IEEE_APP;
	if (selector == DD_APP_SEL_PCP)
		return DD_ATTR_DCB_APP;
	return DCB_ATTR_IEEE_APP_UNSPEC;
}

/* dcbnl_app_table_setdel(): entries of other types are skipped; each is
 * applied in turn and the first error stops the walk (earlier ones stay). */
static int app_table_setdel(struct dd_dev *d, const struct nlattr *table,
			    int (*op)(struct dd_dev *, const struct dd_app *))
{
	const struct nlattr *a = (const void *)ATTR_DATA(table);
	long rem = (long)ATTR_LEN(table);

	for (; attr_ok(a, rem); rem -= NLA_ALIGN(a->nla_len),
				a = (const void *)((const uint8_t *)a + NLA_ALIGN(a->nla_len))) {
		int type = ATTR_TYPE(a);
		struct dcb_app raw;
		struct dd_app app;
		int err;

		if (type != DCB_ATTR_IEEE_APP && type != DD_ATTR_DCB_APP)
			continue;
		if (ATTR_LEN(a) < sizeof(raw))
			return -ERANGE;
		memcpy(&raw, ATTR_DATA(a), sizeof(raw));
		if (app_attr_type(raw.selector) != type)
			return -EINVAL;
		app = (struct dd_app){.selector = raw.selector,
				      .priority = raw.priority,
				      .protocol = raw.protocol};
		err = op(d, &app);
		if (err)
			return err;
	}
	return 0;
}

/* mlx5e_dcbnl_setdcbx(): 0 means success, 1 failure */
static uint8_t mlx5_setdcbx(struct dd_dev *d, uint8_t mode)
{
	if (mode & DCB_CAP_DCBX_LLD_MANAGED)
		return 1;
	if (!mode) {
		/* back to firmware-controlled (AUTO) DCBX */
		if (d->dcbx_host) {
			d->dcbx_host = false;
			d->dcbx_cap &= (uint8_t)~DCB_CAP_DCBX_HOST;
		}
		return 0;
	}
	if (!(mode & DCB_CAP_DCBX_HOST))
		return 1;
	d->dcbx_host = true; /* mlx5e_dcbnl_switch_to_host_mode() */
	d->dcbx_cap = mode;
	return 0;
}

/* ---- dcbnl commands ------------------------------------------------------------ */

struct req {
	const struct nlmsghdr *nlh;
	const struct nlattr *tb[DCB_ATTR_MAX + 1];
	struct dd_state *st;
	struct dd_dev *dev;
};

/* dcbnl_ieee_fill() with mlx5's ops: ETS, MAXRATE, PFC, BUFFER, the APP
 * table, (current kernels) the rewrite table, then DCBX outside the nest.
 * mlx5 has no QCN, APP-trust or peer ops, so those never appear. */
static int cmd_ieee_get(struct req *r, struct dd_buf *b)
{
	const struct dd_dev *d = r->dev;
	struct ieee_ets ets;
	struct ieee_maxrate maxrate;
	struct ieee_pfc pfc;
	struct dcbnl_buffer buffer;
	size_t ieee, app;

	put_attr(b, DCB_ATTR_IFNAME, d->name, strlen(d->name) + 1);
	ieee = nest_start(b, DCB_ATTR_IEEE);
	dd_getets(d, &ets);
	put_attr(b, DCB_ATTR_IEEE_ETS, &ets, sizeof(ets));
	memcpy(maxrate.tc_maxrate, d->maxrate, sizeof(maxrate.tc_maxrate));
	put_attr(b, DCB_ATTR_IEEE_MAXRATE, &maxrate, sizeof(maxrate));
	dd_getpfc(d, &pfc);
	put_attr(b, DCB_ATTR_IEEE_PFC, &pfc, sizeof(pfc));
	memset(&buffer, 0, sizeof(buffer));
	memcpy(buffer.prio2buffer, d->prio2buffer, 8);
	memcpy(buffer.buffer_size, d->buffer_size, sizeof(buffer.buffer_size));
	buffer.total_size = d->buffer_total;
	put_attr(b, DCB_ATTR_DCB_BUFFER, &buffer, sizeof(buffer));
	app = nest_start(b, DCB_ATTR_IEEE_APP_TABLE);
	for (int i = 0; i < d->napps; i++) {
		struct dcb_app a = {.selector = d->apps[i].selector,
				    .priority = d->apps[i].priority,
				    .protocol = d->apps[i].protocol};

		put_attr(b, (uint16_t)app_attr_type(a.selector), &a, sizeof(a));
	}
	nest_end(b, app);
	if (!kernel_61()) {
		/* nla_nest_start(), unlike the others: NLA_F_NESTED is set */
		size_t rewr = nest_start(b, NLA_F_NESTED | DD_ATTR_DCB_REWR_TABLE);

		for (int i = 0; i < d->nrewr; i++) {
			struct dcb_app a = {.selector = d->rewr[i].selector,
					    .priority = d->rewr[i].priority,
					    .protocol = d->rewr[i].protocol};

			put_attr(b, (uint16_t)app_attr_type(a.selector), &a, sizeof(a));
		}
		nest_end(b, rewr);
	}
	nest_end(b, ieee);
	put_u8(b, DCB_ATTR_DCBX, d->dcbx_cap);
	return 0;
}

static int parse_ieee(struct req *r, const struct nlattr **ieee)
{
	const struct nlattr *nest = r->tb[DCB_ATTR_IEEE];

	if (!nest)
		return -EINVAL;
	return parse_attrs(ATTR_DATA(nest), (long)ATTR_LEN(nest), ieee,
			   kernel_61() ? DD_ATTR_IEEE_MAX_61 : DD_ATTR_IEEE_MAX_NEW, ieee_policy);
}

/*
 * dcbnl_ieee_set(): ETS, MAXRATE, (QCN: no mlx5 op), PFC, BUFFER, REWR, APP,
 * APP_TRUST, in that order; the first error stops it, what came before stays
 * applied, and the error goes back as the DCB_ATTR_IEEE status byte.
 */
static int cmd_ieee_set(struct req *r, struct dd_buf *b)
{
	const struct nlattr *ieee[DD_ATTR_IEEE_MAX_NEW + 1];
	struct dd_dev *d = r->dev;
	int err = parse_ieee(r, ieee);

	if (err)
		return err;
	if (ieee[DCB_ATTR_IEEE_ETS]) {
		struct ieee_ets ets;

		memcpy(&ets, ATTR_DATA(ieee[DCB_ATTR_IEEE_ETS]), sizeof(ets));
		/* "IEEE 802.1Qaz: BW allocation applies only to ETS TCs" */
		for (int i = 0; !kernel_61() && i < IEEE_8021QAZ_MAX_TCS; i++)
			if (ets.tc_tsa[i] != IEEE_8021QAZ_TSA_ETS && ets.tc_tx_bw[i])
				err = -EINVAL;
		if (!err)
			err = fault(r->st, "ets") ? -EIO : mlx5_setets(d, &ets);
		if (err)
			goto out;
	}
	if (ieee[DCB_ATTR_IEEE_MAXRATE]) {
		struct ieee_maxrate m;

		memcpy(&m, ATTR_DATA(ieee[DCB_ATTR_IEEE_MAXRATE]), sizeof(m));
		err = fault(r->st, "maxrate") ? -EIO : mlx5_setmaxrate(d, &m);
		if (err)
			goto out;
	}
	if (ieee[DCB_ATTR_IEEE_PFC]) {
		struct ieee_pfc pfc;

		memcpy(&pfc, ATTR_DATA(ieee[DCB_ATTR_IEEE_PFC]), sizeof(pfc));
		err = fault(r->st, "pfc") ? -EIO : mlx5_setpfc(d, &pfc);
		if (err)
			goto out;
	}
	if (ieee[DCB_ATTR_DCB_BUFFER]) {
		struct dcbnl_buffer buf;

		memcpy(&buf, ATTR_DATA(ieee[DCB_ATTR_DCB_BUFFER]), sizeof(buf));
		for (int p = 0; p < IEEE_8021Q_MAX_PRIORITIES; p++)
			if (buf.prio2buffer[p] >= DCBX_MAX_BUFFERS)
				err = -EINVAL;
		if (!err)
			err = fault(r->st, "buffer") ? -EIO : mlx5_setbuffer(d, &buf);
		if (err)
			goto out;
	}
	if (!kernel_61() && ieee[DD_ATTR_DCB_REWR_TABLE]) {
		err = app_table_setdel(d, ieee[DD_ATTR_DCB_REWR_TABLE], core_setrewr);
		if (err)
			goto out;
	}
	if (ieee[DCB_ATTR_IEEE_APP_TABLE]) {
		err = fault(r->st, "app-add")
			      ? -EIO
			      : app_table_setdel(d, ieee[DCB_ATTR_IEEE_APP_TABLE], mlx5_setapp);
		if (err)
			goto out;
	}
	if (!kernel_61() && ieee[DD_ATTR_DCB_APP_TRUST_TABLE])
		err = -EOPNOTSUPP; /* mlx5 has no dcbnl_setapptrust */
out:
	put_u8(b, DCB_ATTR_IEEE, (uint8_t)err);
	return 0;
}

/* dcbnl_ieee_del(): the APP table, then (current kernels) the rewrite table */
static int cmd_ieee_del(struct req *r, struct dd_buf *b)
{
	const struct nlattr *ieee[DD_ATTR_IEEE_MAX_NEW + 1];
	int err = parse_ieee(r, ieee);

	if (err)
		return err;
	if (ieee[DCB_ATTR_IEEE_APP_TABLE]) {
		err = fault(r->st, "app-del")
			      ? -EIO
			      : app_table_setdel(r->dev, ieee[DCB_ATTR_IEEE_APP_TABLE],
						 mlx5_delapp);
		if (err)
			goto out;
	}
	if (!kernel_61() && ieee[DD_ATTR_DCB_REWR_TABLE])
		err = app_table_setdel(r->dev, ieee[DD_ATTR_DCB_REWR_TABLE], core_delrewr);
out:
	put_u8(b, DCB_ATTR_IEEE, (uint8_t)err);
	return 0;
}

/* dcbnl_getdcbx() */
static int cmd_getdcbx(struct req *r, struct dd_buf *b)
{
	put_u8(b, DCB_ATTR_DCBX, r->dev->dcbx_cap);
	return 0;
}

/* dcbnl_setdcbx(): the driver's return value is the reply */
static int cmd_setdcbx(struct req *r, struct dd_buf *b)
{
	uint8_t mode, ret;

	if (!r->tb[DCB_ATTR_DCBX])
		return -EINVAL;
	mode = *ATTR_DATA(r->tb[DCB_ATTR_DCBX]);
	ret = fault(r->st, "dcbx") ? (uint8_t)-EIO : mlx5_setdcbx(r->dev, mode);
	put_u8(b, DCB_ATTR_DCBX, ret);
	return 0;
}

/*
 * DCB_DOUBLE_DELAY_MS=MS: a slow firmware.  Every changing request is
 * applied at once but answered MS ms later (0-60000), so a test can signal
 * the program between a SET and its answer.  The wait resumes after a signal
 * handler ran, as a kernel that is still working on the request would.
 */
static void slow_answer(unsigned int cmd)
{
	const char *spec = getenv("DCB_DOUBLE_DELAY_MS");
	struct timespec left;
	unsigned long ms;
	char *end;

	if (!spec || !*spec || !cmd_is_set(cmd))
		return;
	errno = 0;
	ms = strtoul(spec, &end, 10);
	if (errno || *end || ms > 60000) {
		fprintf(stderr, "dcb-double: DCB_DOUBLE_DELAY_MS=%s is not 0-60000\n", spec);
		return;
	}
	left.tv_sec = (time_t)(ms / 1000);
	left.tv_nsec = (long)(ms % 1000) * 1000000L;
	while (nanosleep(&left, &left) && errno == EINTR)
		;
}

/*
 * DCB_DOUBLE_KILL=N: a crash.  The program is killed (SIGKILL) right after
 * its Nth changing request (1-1000) is carried out and before it is
 * answered, so a test can stop a writer at each of its steps: dcbnl SETs the
 * double answers, and the rtnetlink changes (links, addresses) the shim
 * passes to the kernel, which carries them out within the send.  Counted per
 * process.
 */
void dd_crash_after_change(void)
{
	const char *spec = getenv("DCB_DOUBLE_KILL");
	static unsigned long seen;
	unsigned long nth;
	char *end;

	if (!spec || !*spec)
		return;
	errno = 0;
	nth = strtoul(spec, &end, 10);
	if (errno || *end || !nth || nth > 1000) {
		fprintf(stderr, "dcb-double: DCB_DOUBLE_KILL=%s is not 1-1000\n", spec);
		return;
	}
	if (++seen == nth)
		raise(SIGKILL);
}

struct dd_dgram *dd_answer(const struct nlmsghdr *nlh, const char *ifname, uint32_t portid,
			   bool cap_ack)
{
	const struct dcbmsg *dcb = NLMSG_DATA(nlh);
	struct dd_state *st = NULL;
	struct dd_locked lk;
	struct dd_buf b = {0};
	struct dd_dgram *reply = NULL, *ack = NULL;
	struct req r = {.nlh = nlh};
	int (*fn)(struct req *, struct dd_buf *) = NULL;
	char why[256];
	int err;

	log_request(nlh, ifname);
	switch (dcb->cmd) {
	case DCB_CMD_IEEE_GET:
		fn = cmd_ieee_get;
		break;
	case DCB_CMD_IEEE_SET:
		fn = cmd_ieee_set;
		break;
	case DCB_CMD_IEEE_DEL:
		fn = cmd_ieee_del;
		break;
	case DCB_CMD_GDCBX:
		fn = cmd_getdcbx;
		break;
	case DCB_CMD_SDCBX:
		fn = cmd_setdcbx;
		break;
	default:
		/* CEE commands: mlx5 has them, the double does not model them */
		err = -EOPNOTSUPP;
		goto done;
	}
	/* dd_is_ours() accepted it, so this parse succeeds */
	parse_attrs((const uint8_t *)dcb + NLMSG_ALIGN(sizeof(*dcb)),
		    (long)(nlh->nlmsg_len - NLMSG_HDRLEN) - (long)NLMSG_ALIGN(sizeof(*dcb)), r.tb,
		    DCB_ATTR_MAX, top_policy);
	st = calloc(1, sizeof(*st));
	if (!st) {
		err = -ENOMEM;
		goto done;
	}
	err = dd_state_open(dd_state_path(), st, &lk, why, sizeof(why));
	if (err) {
		fprintf(stderr, "dcb-double: %s\n", why);
		err = -EIO;
		goto done;
	}
	r.st = st;
	r.dev = dd_state_get(st, ifname);
	if (!r.dev) {
		fprintf(stderr, "dcb-double: no room for %s in the state file\n", ifname);
		dd_state_close(&lk, NULL, false);
		err = -ENOMEM;
		goto done;
	}
	reply_start(&b, cmd_is_set(dcb->cmd) ? RTM_SETDCB : RTM_GETDCB, dcb->cmd, nlh, portid);
	err = fn(&r, &b);
	/* a new device's defaults are written on its first request */
	if (dd_state_close(&lk, st, true))
		fprintf(stderr, "dcb-double: cannot write %s\n", dd_state_path());
	if (!err) {
		reply = to_dgram(&b);
		if (!reply)
			err = -ENOMEM;
	}
	slow_answer(dcb->cmd);
	if (cmd_is_set(dcb->cmd))
		dd_crash_after_change();
done:
	dd_buf_free(&b);
	free(st);
	/* dcb_doit() returned 0: netlink_rcv_skb() acks only on NLM_F_ACK;
	 * an error is always reported */
	if (err || (nlh->nlmsg_flags & NLM_F_ACK))
		ack = make_ack(nlh, err, portid, cap_ack);
	if (reply) {
		reply->next = ack;
		return reply;
	}
	return ack;
}

void dd_dgram_free_list(struct dd_dgram *d)
{
	while (d) {
		struct dd_dgram *n = d->next;

		free(d);
		d = n;
	}
}
