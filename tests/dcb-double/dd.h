/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * dd.h - the dcbnl test double: a simulated mlx5 NIC behind RTM_GETDCB/RTM_SETDCB.
 *
 * Three parts share this header:
 *   state.c  the persistent NIC state (a text file, flock'ed) and its defaults;
 *   model.c  the kernel (net/dcb/dcbnl.c) and driver (mlx5 en_dcbnl.c) semantics:
 *            one request message in, the reply datagrams out;
 *   shim.c   the LD_PRELOAD socket wrappers that route requests to model.c.
 * ctl.c (dcb-double-ctl) and probe.c (dcb-double-probe) are test tools.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <linux/dcbnl.h>
#include <linux/netlink.h>

/*
 * uapi values newer than Debian 12's <linux/dcbnl.h> (6.1).  Own names, so a
 * newer header that has them as enumerators cannot clash.
 */
#define DD_ATTR_DCB_APP 2	       /* enum ieee_attrs_app: PCP (selector 255) entries */
#define DD_APP_SEL_PCP 255	       /* DCB_APP_SEL_PCP */
#define DD_ATTR_DCB_APP_TRUST_TABLE 11 /* enum ieee_attrs, v6.2 */
#define DD_ATTR_DCB_REWR_TABLE 12      /* enum ieee_attrs, v6.5 */
#define DD_ATTR_IEEE_MAX_NEW 12	       /* DCB_ATTR_IEEE_MAX of current kernels */
#define DD_ATTR_IEEE_MAX_61 10	       /* ... and of 6.1 */

#define DD_MAX_DEVS 16
#define DD_MAX_APPS 64	/* mlx5 keeps one entry per DSCP value (0..63) */
#define DD_MAX_REWR 128 /* the core rewrite list has no limit; the double has one */
#define DD_IFNAMSIZ 16

/* mlx5 constants the model mirrors (en.h, en/port_buffer.h, en_dcbnl.c) */
#define DD_MLX5_MAX_TC 7	     /* mlx5_max_tc() on a PF: 8 TCs */
#define DD_MLX5_MAX_BW 100	     /* MLX5E_MAX_BW_ALLOC */
#define DD_MLX5_VENDOR_GROUP 7	     /* MLX5E_VENDOR_TC_GROUP_NUM */
#define DD_MLX5_LOWEST_GROUP 0	     /* MLX5E_LOWEST_PRIO_GROUP */
#define DD_MLX5_MAX_DSCP 64	     /* MLX5E_MAX_DSCP */
#define DD_MLX5_CABLE_LEN 7	     /* MLX5E_DEFAULT_CABLE_LEN, metres */
#define DD_MLX5_MAX_CABLE_LEN 1000   /* MLX5E_MAX_CABLE_LENGTH */
#define DD_MLX5_CELL 128	     /* port buffer cell size: 1 << MLX5E_BUFFER_CELL_SHIFT */
#define DD_MLX5_100MB_KBPS 100000ULL /* MLX5E_100MB_TO_KB */
#define DD_MLX5_1GB_KBPS 1000000ULL  /* MLX5E_1GB_TO_KB */
#define DD_PORT_BUFFER 262016u	     /* total_size the double reports (2047 cells) */

/* Fixed PFC frame counts reported for a priority with PFC on (see README). */
#define DD_PFC_REQUESTS 1234
#define DD_PFC_INDICATIONS 987

struct dd_app {
	uint8_t selector;
	uint8_t priority;
	uint16_t protocol;
};

/* One simulated netdev.  Fields mirror where mlx5 keeps each value. */
struct dd_dev {
	char name[DD_IFNAMSIZ];
	/* priv->dcbx.cap and priv->dcbx.mode (true: HOST, false: firmware AUTO) */
	uint8_t dcbx_cap;
	bool dcbx_host;
	/* PFC: the port's pfc_en and priv->dcbx.cable_len (reported as pfc.delay) */
	uint8_t pfc_en;
	uint16_t cable_len;
	/* ETS as firmware holds it (QPTS/QETCR): prio->tc, tc->group, tc->bw ... */
	uint8_t prio_tc[8];
	uint8_t tc_group[8];
	uint8_t tc_bw[8];
	/* ... and priv->dcbx.tc_tsa, the TSA the driver remembers */
	uint8_t tc_tsa[8];
	/* QETCR rate limits, kept as the kbit/s value mlx5 reports back */
	uint64_t maxrate[8];
	/* PBMC/PPTB port buffers */
	uint8_t prio2buffer[8];
	uint32_t buffer_size[8];
	uint32_t buffer_total;
	/* QPTS trust state and QPDPM dscp->prio map */
	bool trust_dscp;
	uint8_t dscp2prio[64];
	/* the kernel's dcb_app_list entries for this netdev, newest first */
	int napps;
	struct dd_app apps[DD_MAX_APPS];
	/* the kernel's dcb_rewr_list entries (mlx5 has no rewr ops: core list) */
	int nrewr;
	struct dd_app rewr[DD_MAX_REWR];
	/* explicit PFC counters (dcb-double-ctl counters); else derived from pfc_en */
	bool have_counters;
	uint64_t requests[8];
	uint64_t indications[8];
};

struct dd_state {
	int ndevs;
	struct dd_dev devs[DD_MAX_DEVS];
	/* fault injection: the DCB_DOUBLE_FAIL value being counted, and how many
	 * SETs touching its kind were seen since that value first appeared */
	char fail_spec[64];
	unsigned int fail_seen;
};

/* state.c */
void dd_dev_defaults(struct dd_dev *d, const char *name);
bool dd_name_ok(const char *name);
/* a DCB_DOUBLE_FAIL value's characters: [a-z0-9:-], or "-" for none */
bool dd_fail_spec_ok(const char *spec);
struct dd_dev *dd_state_find(struct dd_state *st, const char *name);
/* find, or add with defaults; NULL when the table is full */
struct dd_dev *dd_state_get(struct dd_state *st, const char *name);
int dd_state_parse(struct dd_state *st, const char *text, char *why, size_t whylen);
/* text form; returns a malloc'ed string or NULL */
char *dd_state_format(const struct dd_state *st);
/* the state file named by $DCB_DOUBLE_STATE, or the per-user default */
const char *dd_state_path(void);
/*
 * Open and lock (flock LOCK_EX) the state file, creating it when absent, and
 * parse it.  dd_state_close() writes it back when @write is set, then unlocks.
 * Errors return -errno with a message in @why.
 */
struct dd_locked {
	int fd;
	char *orig;
};
int dd_state_open(const char *path, struct dd_state *st, struct dd_locked *lk, char *why,
		  size_t whylen);
int dd_state_close(struct dd_locked *lk, const struct dd_state *st, bool write);
/* the reported ieee_ets, computed like mlx5e_dcbnl_ieee_getets() */
void dd_getets(const struct dd_dev *d, struct ieee_ets *ets);
void dd_getpfc(const struct dd_dev *d, struct ieee_pfc *pfc);
void dd_state_json(FILE *f, const struct dd_state *st, const char *only);
const char *dd_tsa_name(uint8_t tsa);

/* model.c */
/* Is @name listed in $DCB_DOUBLE_DEVS? */
bool dd_dev_listed(const char *name);

/* A growable byte buffer for building reply datagrams. */
struct dd_buf {
	uint8_t *p;
	size_t len, cap;
	bool oom;
};
void dd_buf_free(struct dd_buf *b);

/* A reply datagram list the shim queues on the socket. */
struct dd_dgram {
	struct dd_dgram *next;
	size_t len;
	uint8_t data[];
};

/*
 * Classify one netlink message the way rtnetlink_rcv_msg() and dcb_doit() would
 * before they look the device up.  Returns true when the message is a dcbnl
 * request for a device listed in $DCB_DOUBLE_DEVS and every check the kernel
 * makes before __dev_get_by_name() passed: only then the double answers it.
 * Anything else goes to the kernel, which then gives its own answer.
 */
bool dd_is_ours(const struct nlmsghdr *nlh, size_t len, char ifname[DD_IFNAMSIZ]);

/*
 * Answer one request: returns the datagrams to queue (reply and/or ack or
 * error), in order.  @portid is the socket's netlink port id, @cap_ack whether
 * NETLINK_CAP_ACK is on.  Never fails: internal errors become netlink errors.
 */
struct dd_dgram *dd_answer(const struct nlmsghdr *nlh, const char *ifname, uint32_t portid,
			   bool cap_ack);
void dd_dgram_free_list(struct dd_dgram *d);

/* DCB_DOUBLE_KILL: count one changing request carried out; SIGKILL at the Nth (model.c). */
void dd_crash_after_change(void);
