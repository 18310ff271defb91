// SPDX-License-Identifier: GPL-2.0-or-later
/* procfs.c - the text of /proc/net/bonding/<bond> into a bond record */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "base/util.h"
#include "bond/bond.h"
#include "bond/procfs.h"

/*
 * The file as bond_procfs.c prints it (kernel >= 5.15; older ones lack some
 * lines, which is fine):
 *
 *   Ethernet Channel Bonding Driver: v6.8.0-51-generic     first line, always
 *   Bonding Mode: fault-tolerance (active-backup) (fail_over_mac active)
 *   Transmit Hash Policy: layer3+4 (1)          xor, 802.3ad (and tlb)
 *   Primary Slave: eth0 (primary_reselect always) | None
 *   Currently Active Slave: eth1 | None         active-backup, tlb, alb
 *   MII Status: up                              the bond's carrier
 *   MII Polling Interval (ms): 100
 *   Up Delay (ms): 200                          ms, a multiple of miimon
 *   ARP Polling Interval (ms): 1000             only with ARP monitoring
 *   802.3ad info
 *   LACP rate: fast
 *   Min links: 0
 *   Aggregator selection policy (ad_select): stable
 *   Active Aggregator Info:                     root only (CAP_NET_ADMIN)
 *   	Aggregator ID: 1
 *   	Number of ports: 2 / Actor Key: 29 / Partner Key: 1001
 *   	Partner Mac Address: 44:38:39:ff:00:01
 *
 *   Slave Interface: eth0                       one section per member
 *   MII Status: up | going down | down | going back
 *   Speed: 100000 Mbps | Unknown                "-1 Mbps" before 3.x fixed it
 *   Duplex: full | half | Unknown
 *   Link Failure Count: 3
 *   Permanent HW addr: b8:ce:f6:1a:2b:3c        %*phC: 20 bytes on IPoIB
 *   Aggregator ID: 1 | N/A                      802.3ad
 *   details actor lacp pdu:                     802.3ad, root only
 *       port state: 63                          RDC_LACP_* bits
 *   details partner lacp pdu:
 *       port state: 63
 *
 * Every line is "Key: value" (or a key alone); the same key means different
 * things in the bond's lines and a member's ("MII Status", "Aggregator ID"),
 * so the section decides, not the indentation, which copy-paste may lose.
 */

#define PROCFS_HEADER "Ethernet Channel Bonding Driver:"
/* Longest value we read: "fault-tolerance (active-backup) (fail_over_mac follow)" is 54. */
#define PROCFS_VAL_MAX 80

struct procfs_ctx {
	struct rdc_bond *b;
	struct rdc_bond_member *m; /* the section's member; NULL in the bond's lines */
	int64_t *port_state;	   /* where "port state: N" goes: actor's, partner's or NULL */
	size_t line;		   /* 1-based, for messages */
	const char *key;	   /* the line's key, for messages */
	struct rdc_err *err;
};

struct procfs_key;
/* @obj is the bond (bond keys) or the section's member (member keys). */
typedef int (*procfs_parse_fn)(struct procfs_ctx *c, const struct procfs_key *k, void *obj,
			       const char *val);

struct procfs_key {
	const char *key;
	procfs_parse_fn parse;
	size_t off;   /* the int64_t field, for procfs_num and friends */
	uint64_t max; /* largest value the kernel's field can hold */
};

/* Bonding Mode: the index is the mode (bond_mode_name()). */
static const char *const procfs_mode_names[] = {
	[RDC_BOND_BALANCE_RR] = "load balancing (round-robin)",
	[RDC_BOND_ACTIVE_BACKUP] = "fault-tolerance (active-backup)",
	[RDC_BOND_BALANCE_XOR] = "load balancing (xor)",
	[RDC_BOND_BROADCAST] = "fault-tolerance (broadcast)",
	[RDC_BOND_8023AD] = "IEEE 802.3ad Dynamic link aggregation",
	[RDC_BOND_BALANCE_TLB] = "transmit load balancing",
	[RDC_BOND_BALANCE_ALB] = "adaptive load balancing",
};

/* A value for a message: printable ASCII only, bounded (the text is untrusted). */
static void procfs_shown(char *out, size_t size, const char *val)
{
	size_t i;

	for (i = 0; val[i] && i + 1 < size; i++)
		out[i] = val[i] >= 0x20 && val[i] < 0x7f ? val[i] : '?';
	out[i] = '\0';
}

static int procfs_bad(struct procfs_ctx *c, int rc, const char *val)
{
	char shown[40];

	procfs_shown(shown, sizeof(shown), val);
	if (rc == -ERANGE)
		return rdc_err_set(c->err, ERANGE, "line %zu: '%s' out of range: '%s'", c->line,
				   c->key, shown);
	return rdc_err_set(c->err, EINVAL, "line %zu: bad '%s': '%s'", c->line, c->key, shown);
}

/* A decimal number up to @max (the kernel's field width), strict: no sign, no junk. */
static int procfs_u64(struct procfs_ctx *c, const char *val, uint64_t max, int64_t *out)
{
	uint64_t v;
	int rc = rdc_parse_u64(val, 10, &v);

	if (!rc && v > max)
		rc = -ERANGE;
	if (rc)
		return procfs_bad(c, rc, val);
	*out = (int64_t)v;
	return 0;
}

static int procfs_num(struct procfs_ctx *c, const struct procfs_key *k, void *obj, const char *val)
{
	int64_t v = 0;
	int rc = procfs_u64(c, val, k->max, &v);

	if (!rc)
		memcpy((char *)obj + k->off, &v, sizeof(v));
	return rc;
}

/* A member's "Aggregator ID: N/A": in no aggregator (yet), which is unknown to the model. */
static int procfs_num_or_na(struct procfs_ctx *c, const struct procfs_key *k, void *obj,
			    const char *val)
{
	return strcmp(val, "N/A") ? procfs_num(c, k, obj, val) : 0;
}

/* dev_valid_name(): 1..15 bytes, not "." or "..", no '/', ':' or white space. */
static bool procfs_ifname_ok(const char *s, size_t len)
{
	if (len == 0 || len >= IF_NAMESIZE)
		return false;
	if ((len == 1 && s[0] == '.') || (len == 2 && s[0] == '.' && s[1] == '.'))
		return false;
	for (size_t i = 0; i < len; i++)
		if (s[i] == '/' || s[i] == ':' || s[i] == ' ' || s[i] == '\t')
			return false;
	return true;
}

/* "eth0 (primary_reselect always)", "eth0" or "None" (""): the name ends at the first space. */
static int procfs_ifname(struct procfs_ctx *c, const char *val, char *dst)
{
	size_t len = strcspn(val, " ");

	if (len == 4 && !strncmp(val, "None", 4)) {
		dst[0] = '\0';
		return 0;
	}
	if (!procfs_ifname_ok(val, len))
		return procfs_bad(c, -EINVAL, val);
	memcpy(dst, val, len);
	dst[len] = '\0';
	return 0;
}

static int procfs_primary(struct procfs_ctx *c, const struct procfs_key *k, void *obj,
			  const char *val)
{
	return procfs_ifname(c, val, c->b->primary);
}

static int procfs_active(struct procfs_ctx *c, const struct procfs_key *k, void *obj,
			 const char *val)
{
	return procfs_ifname(c, val, c->b->active_member);
}

/*
 * Colon-separated hex bytes, as %pM and %*phC print them.  Returns the
 * number of bytes, or -EINVAL.
 */
static int procfs_hwaddr_len(const char *s)
{
	static const char hex[] = "0123456789abcdefABCDEF";
	size_t len = strlen(s);

	if (len < 2 || (len + 1) % 3)
		return -EINVAL;
	for (size_t i = 0; i < len; i++) {
		bool colon = i % 3 == 2;

		if (colon ? s[i] != ':' : !strchr(hex, s[i]))
			return -EINVAL;
	}
	return (int)((len + 1) / 3);
}

/* Only an Ethernet address fits the record: an IPoIB bond's 20 bytes are left unknown. */
static int procfs_hwaddr(struct procfs_ctx *c, const char *val, char *dst, size_t size)
{
	int n = procfs_hwaddr_len(val);

	if (n < 0)
		return procfs_bad(c, -EINVAL, val);
	if (n == 6 && strlen(val) < size)
		memcpy(dst, val, strlen(val) + 1);
	return 0;
}

static int procfs_partner_mac(struct procfs_ctx *c, const struct procfs_key *k, void *obj,
			      const char *val)
{
	if (procfs_hwaddr_len(val) != 6)
		return procfs_bad(c, -EINVAL, val);
	return procfs_hwaddr(c, val, c->b->ad_partner_mac, sizeof(c->b->ad_partner_mac));
}

static int procfs_perm_hwaddr(struct procfs_ctx *c, const struct procfs_key *k, void *obj,
			      const char *val)
{
	return procfs_hwaddr(c, val, c->m->perm_hwaddr, sizeof(c->m->perm_hwaddr));
}

/* The mode's name, possibly followed by " (fail_over_mac active|follow)" in active-backup. */
static int procfs_mode(struct procfs_ctx *c, const struct procfs_key *k, void *obj, const char *val)
{
	for (size_t i = 0; i < RDC_ARRAY_SIZE(procfs_mode_names); i++) {
		size_t n = strlen(procfs_mode_names[i]);

		if (!strncmp(val, procfs_mode_names[i], n) &&
		    (val[n] == '\0' || !strncmp(val + n, " (", 2))) {
			c->b->mode = (int)i;
			return 0;
		}
	}
	return 0; /* a mode this model does not know: stays unknown */
}

/* The first word of @val (a name never has spaces) through @parse, unknown names skipped. */
static void procfs_word(const char *val, int (*parse)(const char *, int *), int *dst)
{
	char word[PROCFS_VAL_MAX];
	size_t len = strcspn(val, " ");
	int v;

	memcpy(word, val, len);
	word[len] = '\0';
	if (!parse(word, &v))
		*dst = v;
}

/* "layer3+4 (1)": the number in brackets repeats the name's value. */
static int procfs_hash(struct procfs_ctx *c, const struct procfs_key *k, void *obj, const char *val)
{
	procfs_word(val, rdc_bond_hash_parse, &c->b->xmit_hash_policy);
	return 0;
}

static int procfs_lacp_rate(struct procfs_ctx *c, const struct procfs_key *k, void *obj,
			    const char *val)
{
	procfs_word(val, rdc_bond_lacp_rate_parse, &c->b->lacp_rate);
	return 0;
}

static int procfs_ad_select(struct procfs_ctx *c, const struct procfs_key *k, void *obj,
			    const char *val)
{
	procfs_word(val, rdc_bond_ad_select_parse, &c->b->ad_select);
	return 0;
}

/* The bond's "MII Status" is netif_carrier_ok(bond) printed as up/down. */
static int procfs_bond_mii(struct procfs_ctx *c, const struct procfs_key *k, void *obj,
			   const char *val)
{
	if (!strcmp(val, "up"))
		c->b->carrier = true;
	else if (!strcmp(val, "down"))
		c->b->carrier = false;
	return 0;
}

static int procfs_member_mii(struct procfs_ctx *c, const struct procfs_key *k, void *obj,
			     const char *val)
{
	const char *name;

	for (int v = 0; (name = rdc_bond_mii_status_name(v)); v++) {
		if (!strcmp(val, name)) {
			c->m->mii_status = v;
			break;
		}
	}
	return 0;
}

/* "100000 Mbps"; "Unknown" (SPEED_UNKNOWN) without a link, "-1 Mbps" on old kernels. */
static int procfs_speed(struct procfs_ctx *c, const struct procfs_key *k, void *obj,
			const char *val)
{
	static const char unit[] = " Mbps";
	char num[PROCFS_VAL_MAX];
	size_t len = strlen(val);

	if (!strcmp(val, "Unknown") || !strcmp(val, "-1 Mbps")) {
		c->m->speed_mbps = RDC_BOND_UNKNOWN;
		return 0;
	}
	if (len <= strlen(unit) || strcmp(val + len - strlen(unit), unit))
		return procfs_bad(c, -EINVAL, val);
	len -= strlen(unit);
	memcpy(num, val, len);
	num[len] = '\0';
	return procfs_u64(c, num, INT32_MAX, &c->m->speed_mbps);
}

static int procfs_duplex(struct procfs_ctx *c, const struct procfs_key *k, void *obj,
			 const char *val)
{
	if (!strcmp(val, "full") || !strcmp(val, "half"))
		memcpy(c->m->duplex, val, 5); /* both 4 letters and the NUL */
	else if (!strcmp(val, "Unknown"))
		c->m->duplex[0] = '\0';
	return 0;
}

/* "details actor lacp pdu:" and "details partner lacp pdu:" say whose "port state" follows. */
static int procfs_lacp_block(struct procfs_ctx *c, const struct procfs_key *k, void *obj,
			     const char *val)
{
	c->port_state = (int64_t *)(void *)((char *)c->m + k->off);
	return 0;
}

static int procfs_port_state(struct procfs_ctx *c, const struct procfs_key *k, void *obj,
			     const char *val)
{
	if (!c->port_state)
		return 0; /* not in a details block: not ours */
	return procfs_u64(c, val, k->max, c->port_state);
}

#define BOND_OFF(field) offsetof(struct rdc_bond, field)
#define MEMBER_OFF(field) offsetof(struct rdc_bond_member, field)

/* The bond's lines, "Active Aggregator Info" included; max is the kernel field's range. */
static const struct procfs_key procfs_bond_keys[] = {
	{"Bonding Mode", procfs_mode, 0, 0},
	{"Transmit Hash Policy", procfs_hash, 0, 0},
	{"Primary Slave", procfs_primary, 0, 0},
	{"Currently Active Slave", procfs_active, 0, 0},
	{"MII Status", procfs_bond_mii, 0, 0},
	{"MII Polling Interval (ms)", procfs_num, BOND_OFF(miimon_ms), INT32_MAX},
	{"Up Delay (ms)", procfs_num, BOND_OFF(updelay_ms), INT32_MAX},
	{"Down Delay (ms)", procfs_num, BOND_OFF(downdelay_ms), INT32_MAX},
	{"ARP Polling Interval (ms)", procfs_num, BOND_OFF(arp_interval_ms), INT32_MAX},
	{"LACP rate", procfs_lacp_rate, 0, 0},
	{"Min links", procfs_num, BOND_OFF(min_links), INT32_MAX},
	{"Aggregator selection policy (ad_select)", procfs_ad_select, 0, 0},
	{"Aggregator ID", procfs_num, BOND_OFF(ad_aggregator_id), UINT16_MAX},
	{"Number of ports", procfs_num, BOND_OFF(ad_num_ports), UINT16_MAX},
	{"Actor Key", procfs_num, BOND_OFF(ad_actor_key), UINT16_MAX},
	{"Partner Key", procfs_num, BOND_OFF(ad_partner_key), UINT16_MAX},
	{"Partner Mac Address", procfs_partner_mac, 0, 0},
};

/* A member's lines; the LACPDU blocks' other lines (system, key, priority, number) are skipped. */
static const struct procfs_key procfs_member_keys[] = {
	{"MII Status", procfs_member_mii, 0, 0},
	{"Speed", procfs_speed, 0, 0},
	{"Duplex", procfs_duplex, 0, 0},
	{"Link Failure Count", procfs_num, MEMBER_OFF(link_failure_count), UINT32_MAX},
	{"Permanent HW addr", procfs_perm_hwaddr, 0, 0},
	{"Aggregator ID", procfs_num_or_na, MEMBER_OFF(aggregator_id), UINT16_MAX},
	{"details actor lacp pdu", procfs_lacp_block, MEMBER_OFF(actor_port_state), 0},
	{"details partner lacp pdu", procfs_lacp_block, MEMBER_OFF(partner_port_state), 0},
	{"port state", procfs_port_state, 0, UINT8_MAX}, /* actor_oper_port_state is a u8 */
};

/* "Slave Interface: NAME" opens NAME's section: the member netlink found, or a new one. */
static int procfs_member(struct procfs_ctx *c, const char *val)
{
	struct rdc_bond *b = c->b;
	size_t n = b->nmembers < RDC_BOND_MAX_MEMBERS ? b->nmembers : RDC_BOND_MAX_MEMBERS;
	size_t len = strlen(val);

	if (!procfs_ifname_ok(val, len))
		return procfs_bad(c, -EINVAL, val);
	c->port_state = NULL;
	for (size_t i = 0; i < n; i++) {
		if (!strcmp(b->members[i].name, val)) {
			c->m = &b->members[i];
			return 0;
		}
	}
	if (n >= RDC_BOND_MAX_MEMBERS) {
		char shown[IF_NAMESIZE];

		procfs_shown(shown, sizeof(shown), val);
		return rdc_err_set(c->err, E2BIG, "line %zu: more than %d members: '%s'", c->line,
				   RDC_BOND_MAX_MEMBERS, shown);
	}
	c->m = &b->members[n];
	rdc_bondnl_member_init(c->m);
	memcpy(c->m->name, val, len + 1);
	b->nmembers = n + 1;
	return 0;
}

static bool procfs_blank(char ch)
{
	return ch == ' ' || ch == '\t' || ch == '\r';
}

/* One line without its "\n": "Key: value", "Key:" or "Key". */
static int procfs_line(struct procfs_ctx *c, const char *s, size_t len)
{
	const struct procfs_key *keys = c->m ? procfs_member_keys : procfs_bond_keys;
	size_t nkeys = c->m ? RDC_ARRAY_SIZE(procfs_member_keys) : RDC_ARRAY_SIZE(procfs_bond_keys);
	const char *colon = memchr(s, ':', len);
	const char *end = s + len, *kend = colon ? colon : end, *v = colon ? colon + 1 : end;
	char val[PROCFS_VAL_MAX] = "";
	size_t klen, vlen;

	while (s < kend && procfs_blank(*s))
		s++;
	while (kend > s && procfs_blank(kend[-1]))
		kend--;
	while (v < end && procfs_blank(*v))
		v++;
	while (end > v && procfs_blank(end[-1]))
		end--;
	klen = (size_t)(kend - s);
	vlen = (size_t)(end - v);

	c->key = NULL;
	if (klen == strlen("Slave Interface") && !memcmp(s, "Slave Interface", klen))
		c->key = "Slave Interface";
	for (size_t i = 0; !c->key && i < nkeys; i++)
		if (klen == strlen(keys[i].key) && !memcmp(s, keys[i].key, klen))
			c->key = keys[i].key;
	if (!c->key)
		return 0; /* not a line we read: newer kernels add lines */

	/* From here on the value is ours: bounded, no control bytes (NUL included). */
	for (size_t i = 0; i < vlen; i++)
		if ((unsigned char)v[i] < 0x20 && v[i] != '\t')
			return rdc_err_set(c->err, EINVAL, "line %zu: control character in '%s'",
					   c->line, c->key);
	if (vlen >= sizeof(val))
		return rdc_err_set(c->err, EINVAL, "line %zu: '%s' value too long (%zu bytes)",
				   c->line, c->key, vlen);
	memcpy(val, v, vlen);
	val[vlen] = '\0';

	if (!strcmp(c->key, "Slave Interface"))
		return procfs_member(c, val);
	for (size_t i = 0; i < nkeys; i++)
		if (keys[i].key == c->key)
			return keys[i].parse(c, &keys[i], c->m ? (void *)c->m : (void *)c->b, val);
	return 0;
}

int rdc_bond_procfs_parse(const char *text, size_t len, struct rdc_bond *b, struct rdc_err *err)
{
	struct procfs_ctx c = {.b = b, .err = err};
	const char *p, *end;
	int rc;

	if (!text || len < strlen(PROCFS_HEADER) ||
	    memcmp(text, PROCFS_HEADER, strlen(PROCFS_HEADER)))
		return rdc_err_set(err, EINVAL,
				   "first line is not 'Ethernet Channel Bonding Driver: ...'");
	p = text;
	end = text + len;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);

		c.line++;
		if (c.line > 1) { /* the header's value is the driver version, not read */
			rc = procfs_line(&c, p, n);
			if (rc)
				return rc;
		}
		p += n + (nl ? 1 : 0);
	}
	return 0;
}
