/* SPDX-License-Identifier: GPL-2.0-or-later */
/* ibdev.h - the model of RDMA devices and ports, read from /sys/class/infiniband */
#pragma once

#include <net/if.h>
#include <stdbool.h>
#include <stdint.h>

#include "base/err.h"
#include "base/issues.h"
#include "base/names.h"
#include "host/netdev.h"
#include "host/pci.h"

#define RDC_IBDEV_NAME 64

/*
 * Which values of a port exist but could not be read or parsed (rdc_port.bad);
 * text prints "?" for them, JSON null.  A value the kernel does not offer is
 * just empty/-1 with no bit.
 */
enum rdc_port_bad {
	RDC_PORT_BAD_NODE_GUID = 1u << 0,
	RDC_PORT_BAD_SYS_IMAGE_GUID = 1u << 1,
	RDC_PORT_BAD_FW_VER = 1u << 2,
	RDC_PORT_BAD_BOARD_ID = 1u << 3,
	RDC_PORT_BAD_HCA_TYPE = 1u << 4,
	RDC_PORT_BAD_NODE_TYPE = 1u << 5,
	RDC_PORT_BAD_LINK_LAYER = 1u << 6,
	RDC_PORT_BAD_STATE = 1u << 7,
	RDC_PORT_BAD_PHYS_STATE = 1u << 8,
	RDC_PORT_BAD_RATE = 1u << 9,
	RDC_PORT_BAD_LID = 1u << 10,
	RDC_PORT_BAD_SM_LID = 1u << 11,
};

struct rdc_port {
	/* device-wide */
	char device[RDC_IBDEV_NAME];
	char node_guid[24];
	char sys_image_guid[24];
	char fw_ver[64];
	char board_id[64];
	char hca_type[64];
	char node_type[32]; /* "CA", "RNIC", ... */
	char driver[64];    /* "mlx5_core", "rdma_rxe", "siw" */
	bool has_pci;
	struct rdc_pci pci;

	/* the port */
	unsigned int port;
	char link_layer[16]; /* "Ethernet", "InfiniBand" */
	int state;	     /* IB port state number, -1 unknown (absent or unreadable) */
	char state_name[24]; /* "ACTIVE", "DOWN", ... as `rdma link` prints; "unknown" */
	int phys_state;
	char phys_state_name[32]; /* "LINK_UP", "POLLING", ... */
	double rate_gbps;	  /* 0 when unknown */
	char rate_lanes[24];	  /* "4X EDR" */
	int64_t lid;		  /* InfiniBand only, -1 otherwise */
	int64_t sm_lid;

	/*
	 * The port's own netdev: the PCI function's uplink (or a software
	 * device's parent), never a bond the uplink is only a member of.  Under
	 * RoCE LAG (one RDMA port over a bond's members, or rxe on a bond) it
	 * is the bond, and roce_lag is set: netdev.slaves are then the
	 * physical ports that carry the port's traffic.
	 */
	bool has_netdev;
	struct rdc_netdev netdev;
	bool roce_lag;
	/* The bond (team, bridge) the netdev is a member of, "" for none (VLANs are in `port gids`). */
	char upper[IF_NAMESIZE];
	/* The netdev of GID 0 (the kernel's default GID): how RoCE LAG is told apart. */
	char gid0_netdev[IF_NAMESIZE];
	int active_mtu;		 /* bytes, 0 when it cannot be derived */
	bool active_mtu_limited; /* the netdev MTU keeps the RDMA MTU below 4096 */
	int mtu_for_4096;	 /* netdev MTU that would give 4096 */

	/* What exists but could not be read: the device's and port's files (pci and netdev keep theirs). */
	unsigned int bad; /* enum rdc_port_bad bits */
	struct rdc_issues issues;
};

struct rdc_port_list {
	struct rdc_port *ports;
	size_t count;
	/* Devices whose ports could not be listed: reported, never silently left out. */
	struct rdc_issues issues;
};

/*
 * Read every port of every RDMA device.  A value that cannot be read is
 * recorded in its port's (or pci's, netdev's) issues; a device whose ports
 * cannot be listed in list->issues.
 */
int rdc_ports_read(struct rdc_port_list *list, struct rdc_err *err);
/* Free every port, the list's issues and the array. */
void rdc_ports_free(struct rdc_port_list *list);
/* Make @to a copy of @from that owns its own issues (theirs are heap lists). */
void rdc_port_copy(struct rdc_port *to, const struct rdc_port *from);
/* Free what @p holds (its, its PCI function's and its netdev's issues). */
void rdc_port_free(struct rdc_port *p);

/*
 * Keep only the ports a user named (in place): a device, DEV/PORT, a netdev
 * (the port's own, a slave of its bond, or an upper one: VLAN, macvlan,
 * bond) or an IP address; host/resolve.h says how, and what it returns.
 */
int rdc_ports_filter(struct rdc_port_list *list, const char *name, struct rdc_err *err);

/* Whether an RDMA device of that name exists. */
bool rdc_ibdev_exists(const char *name);
/* The names of all RDMA devices, for completion; free with rdc_names_free(). */
int rdc_ibdev_names(struct rdc_names *names, struct rdc_err *err);

/*
 * Split "DEV/PORT":
 *   "mlx5_0/1" -> dev "mlx5_0", port 1      "mlx5_0" -> dev "mlx5_0", port 0 (all)
 *   "mlx5_0/"  -> -EINVAL   "mlx5_0/0" -> -EINVAL   "/1" -> -EINVAL   "a/1/2" -> -EINVAL
 */
int rdc_devport_parse(const char *text, char *dev, size_t devsize, unsigned int *port);

/* "4: ACTIVE" -> 4 and "ACTIVE"; "5: LinkUp" -> 5 and "LINK_UP". -EINVAL when malformed. */
int rdc_port_state_parse(const char *text, int *state, char *name, size_t size);
int rdc_port_phys_state_parse(const char *text, int *state, char *name, size_t size);
/* "100 Gb/sec (4X EDR)" -> 100, "4X EDR"; "2.5 Gb/sec (1X SDR)" -> 2.5, "1X SDR". */
int rdc_port_rate_parse(const char *text, double *gbps, char *lanes, size_t size);
/*
 * The active MTU the kernel derives for RoCE from the netdev MTU: the largest
 * IB MTU (256..4096) that fits after the RoCE headers (@overhead bytes; 96 for
 * hardware RoCE as in iboe_get_mtu(), 80 for rxe).  0 when nothing fits.
 */
int rdc_roce_active_mtu(int64_t netdev_mtu, int overhead);
