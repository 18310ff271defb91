// SPDX-License-Identifier: GPL-2.0-or-later
/* ibdev.c - RDMA devices and ports from /sys/class/infiniband */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "host/ibdev.h"
#include "host/resolve.h"
#include "host/sysval.h"
#include "seam/fs.h"

#define IB_CLASS "/sys/class/infiniband"

/* Port states as `rdma link` names them (IB spec PortState numbers). */
static const char *const port_state_names[] = {
	"NOP", "DOWN", "INIT", "ARMED", "ACTIVE", "ACTIVE_DEFER",
};

/* Physical states (IB spec PortPhysicalState numbers); the kernel prints CamelCase. */
static const char *const phys_state_names[] = {
	"NOP",
	"SLEEP",
	"POLLING",
	"DISABLED",
	"PORT_CONFIGURATION_TRAINING",
	"LINK_UP",
	"LINK_ERROR_RECOVERY",
	"PHY_TEST",
};

/*
 * "N: Text" as core/sysfs.c prints state and phys_state.  The number is what
 * we trust; the text only names values our table does not know.
 */
static int state_parse(const char *text, const char *const *names, size_t nnames, int *state,
		       char *name, size_t size)
{
	const char *colon = strchr(text, ':');
	char num[16];
	uint64_t v;

	if (!colon || colon == text || (size_t)(colon - text) >= sizeof(num) || colon[1] != ' ' ||
	    !colon[2])
		return -EINVAL;
	memcpy(num, text, (size_t)(colon - text));
	num[colon - text] = '\0';
	if (rdc_parse_u64(num, 10, &v) || v > 255)
		return -EINVAL;
	*state = (int)v;
	if (v < nnames) {
		rdc_strlcpy(name, names[v], size);
	} else {
		size_t i;

		for (i = 0; colon[2 + i] && i + 1 < size; i++)
			name[i] = colon[2 + i] == ' ' ? '_'
						      : (char)toupper((unsigned char)colon[2 + i]);
		name[i] = '\0';
	}
	return 0;
}

int rdc_port_state_parse(const char *text, int *state, char *name, size_t size)
{
	return state_parse(text, port_state_names, RDC_ARRAY_SIZE(port_state_names), state, name,
			   size);
}

int rdc_port_phys_state_parse(const char *text, int *state, char *name, size_t size)
{
	return state_parse(text, phys_state_names, RDC_ARRAY_SIZE(phys_state_names), state, name,
			   size);
}

int rdc_port_rate_parse(const char *text, double *gbps, char *lanes, size_t size)
{
	const char *open, *close;
	char *end;
	double v;

	v = strtod(text, &end);
	if (end == text || v < 0 || strncmp(end, " Gb/sec", 7))
		return -EINVAL;
	*gbps = v;
	lanes[0] = '\0';
	open = strchr(end, '(');
	close = open ? strchr(open, ')') : NULL;
	if (open && close && (size_t)(close - open - 1) < size) {
		memcpy(lanes, open + 1, (size_t)(close - open - 1));
		lanes[close - open - 1] = '\0';
	}
	return 0;
}

int rdc_roce_active_mtu(int64_t netdev_mtu, int overhead)
{
	int64_t room = netdev_mtu - overhead;

	for (int mtu = 4096; mtu >= 256; mtu /= 2)
		if (room >= mtu)
			return mtu;
	return 0;
}

int rdc_devport_parse(const char *text, char *dev, size_t devsize, unsigned int *port)
{
	const char *slash = strchr(text, '/');
	size_t len = slash ? (size_t)(slash - text) : strlen(text);
	uint32_t p = 0;

	if (len == 0 || len >= devsize || (slash && strchr(slash + 1, '/')))
		return -EINVAL;
	if (slash && rdc_parse_u32_range(slash + 1, 1, 255, &p))
		return -EINVAL;
	memcpy(dev, text, len);
	dev[len] = '\0';
	if (!strcmp(dev, ".") || !strcmp(dev, ".."))
		return -EINVAL;
	*port = p;
	return 0;
}

bool rdc_ibdev_exists(const char *name)
{
	/* A name with '/' or ".." would walk out of the class directory. */
	if (!*name || strchr(name, '/') || !strcmp(name, ".") || !strcmp(name, ".."))
		return false;
	return rdc_fs_exists(IB_CLASS "/%s", name);
}

int rdc_ibdev_names(struct rdc_names *names, struct rdc_err *err)
{
	int rc = rdc_fs_list(names, err, IB_CLASS);

	/* No RDMA driver loaded: the class directory does not exist.  That is "none". */
	if (rc == -ENOENT) {
		rdc_err_clear(err);
		return 0;
	}
	return rc;
}

/* A device-wide string; a bit in tmpl->bad when it exists but cannot be read. */
static void read_dev_str(struct rdc_port *tmpl, char *out, size_t size, unsigned int bad,
			 const char *file)
{
	if (rdc_sysval_str(&tmpl->issues, out, size, IB_CLASS "/%s/%s", tmpl->device, file) < 0)
		tmpl->bad |= bad;
}

/* The value after "N: " in node_type ("1: CA" -> "CA"). */
static void read_node_type(struct rdc_port *tmpl)
{
	char buf[64];
	const char *p;

	read_dev_str(tmpl, buf, sizeof(buf), RDC_PORT_BAD_NODE_TYPE, "node_type");
	p = strstr(buf, ": ");
	rdc_strlcpy(tmpl->node_type, p ? p + 2 : buf, sizeof(tmpl->node_type));
}

/*
 * Where @dev's bus device is read (@path) and its name (@addr).  sysfs names
 * a device's directory by its bus address and the "device" link leads to it,
 * so a link whose target ends in a PCI address is entered as it is
 * ("/sys/class/infiniband/mlx5_0/device", its files then opened from the
 * directory's fd under a root): one readlinkat() and one open, not a walk to
 * where it leads.  Anything else (an auxiliary device "mlx5_core.sf.2", a
 * directory where a link should be) is resolved to its real path, whose
 * last component names it.  @addr holds a name (NAME_MAX + 1 bytes): one too
 * long for a PCI address is rdc_pci_read()'s to refuse, quietly, as before.
 * 0 or -errno (-ENOENT: no bus device).
 */
static int device_path(char *path, size_t size, char *addr, size_t addr_size, const char *dev)
{
	int rc = rdc_fs_link_name(addr, addr_size, IB_CLASS "/%s/device", dev);
	const char *base;

	if (rc == -ENOENT)
		return rc;
	if (!rc && rdc_pci_address_valid(addr)) {
		if (snprintf(path, size, IB_CLASS "/%s/device", dev) >= (int)size)
			return -ENAMETOOLONG;
		return rdc_fs_is_dir("%s", path);
	}
	rc = rdc_fs_resolve(path, size, IB_CLASS "/%s/device", dev);
	if (rc)
		return rc;
	base = strrchr(path, '/');
	return rdc_strlcpy(addr, base ? base + 1 : path, addr_size) ? -ENAMETOOLONG : 0;
}

static void read_device(struct rdc_port *tmpl, const char *dev)
{
	char path[4096], addr[NAME_MAX + 1];
	int rc;

	memset(tmpl, 0, sizeof(*tmpl));
	rdc_strlcpy(tmpl->device, dev, sizeof(tmpl->device));
	rdc_fs_expect_dir(IB_CLASS "/%s", dev);
	read_dev_str(tmpl, tmpl->node_guid, sizeof(tmpl->node_guid), RDC_PORT_BAD_NODE_GUID,
		     "node_guid");
	read_dev_str(tmpl, tmpl->sys_image_guid, sizeof(tmpl->sys_image_guid),
		     RDC_PORT_BAD_SYS_IMAGE_GUID, "sys_image_guid");
	read_dev_str(tmpl, tmpl->fw_ver, sizeof(tmpl->fw_ver), RDC_PORT_BAD_FW_VER, "fw_ver");
	read_dev_str(tmpl, tmpl->board_id, sizeof(tmpl->board_id), RDC_PORT_BAD_BOARD_ID,
		     "board_id");
	read_dev_str(tmpl, tmpl->hca_type, sizeof(tmpl->hca_type), RDC_PORT_BAD_HCA_TYPE,
		     "hca_type");
	read_node_type(tmpl);

	rc = device_path(path, sizeof(path), addr, sizeof(addr), dev);
	if (!rc && !rdc_pci_read(path, addr, &tmpl->pci, NULL)) {
		tmpl->has_pci = true;
		rdc_strlcpy(tmpl->driver, tmpl->pci.driver, sizeof(tmpl->driver));
	} else if (rc && rc != -ENOENT) {
		/* A device link that exists and leads nowhere: its PCI facts are unknown, not absent. */
		rdc_issues_addf(&tmpl->issues, -rc, "cannot resolve '" IB_CLASS "/%s/device'", dev);
	} else if (rdc_fs_exists(IB_CLASS "/%s/parent", dev)) {
		/* Software devices sit on a netdev named in "parent" (and since 5.11 have no bus device). */
		rdc_strlcpy(tmpl->driver, !strcmp(tmpl->node_type, "RNIC") ? "siw" : "rdma_rxe",
			    sizeof(tmpl->driver));
	}
}

/*
 * The netdev of GID 0, the default GID the kernel adds for the port's netdev:
 * the bond under RoCE LAG, and also a bond the uplink is a member of without
 * LAG (roce_gid_mgmt lists an upper's GIDs under its lower's port).  False
 * when there is none (InfiniBand, an older kernel) or it cannot be read.
 */
static bool gid0_netdev(struct rdc_port *p, char *out, size_t size)
{
	int rc = rdc_fs_read(out, size, NULL, IB_CLASS "/%s/ports/%u/gid_attrs/ndevs/0", p->device,
			     p->port);

	if (rc > 0)
		return true;
	out[0] = '\0';
	/*
	 * EINVAL: the kernel's "no netdev" (InfiniBand); ENOENT: an older kernel.
	 * Anything else is a file that is there and unreadable: no guess then.
	 */
	if (rc < 0 && rc != -EINVAL && rc != -ENOENT)
		rdc_issues_addf(&p->issues, -rc,
				"cannot read '" IB_CLASS "/%s/ports/%u/gid_attrs/ndevs/0'",
				p->device, p->port);
	return false;
}

/*
 * The port's own netdev.  Software devices name it in "parent" (rxe on a
 * bond names the bond), asked of every device: before Linux 5.11 rxe and siw
 * sat below their netdev's PCI function, "device" link and all.  A PCI
 * function lists its uplink under device/net;
 * a function with several ports (or an IPoIB child) tells them apart by
 * dev_port (port - 1).  Without either, GID 0's netdev is all there is.
 */
static bool own_netdev(struct rdc_port *p, char *out, size_t size)
{
	struct rdc_names nets;
	bool found = false;
	int64_t dev_port;

	if (rdc_fs_read(out, size, NULL, IB_CLASS "/%s/parent", p->device) > 0)
		return true;
	if (!rdc_fs_list(&nets, NULL, IB_CLASS "/%s/device/net", p->device)) {
		for (size_t i = 0; i < nets.count && !found; i++) {
			if (!rdc_fs_read_i64(&dev_port, NULL, IB_CLASS "/%s/device/net/%s/dev_port",
					     p->device, nets.names[i]) &&
			    dev_port != (int64_t)p->port - 1)
				continue;
			found = !rdc_strlcpy(out, nets.names[i], size);
		}
		rdc_names_free(&nets);
	}
	if (!found && p->gid0_netdev[0])
		found = !rdc_strlcpy(out, p->gid0_netdev, size);
	return found;
}

/* A port file; a bit in p->bad when it exists but cannot be read. */
static int read_port_str(struct rdc_port *p, char *out, size_t size, unsigned int bad,
			 const char *file)
{
	int rc = rdc_sysval_str(&p->issues, out, size, IB_CLASS "/%s/ports/%u/%s", p->device,
				p->port, file);

	if (rc < 0)
		p->bad |= bad;
	return rc;
}

/* Record that a port file reads @text, which is not @what. */
static void port_bad(struct rdc_port *p, unsigned int bad, const char *file, const char *text,
		     const char *what)
{
	char path[512];

	snprintf(path, sizeof(path), IB_CLASS "/%s/ports/%u/%s", p->device, p->port, file);
	rdc_sysval_bad(&p->issues, path, text, what);
	p->bad |= bad;
}

static void read_lid(struct rdc_port *p, int64_t *lid, unsigned int bad, const char *file)
{
	char buf[64];
	uint64_t v;

	/* The kernel prints LIDs in hex ("0x1a"), as ibstat does. */
	if (read_port_str(p, buf, sizeof(buf), bad, file) <= 0)
		return;
	if (strncmp(buf, "0x", 2) || rdc_parse_u64(buf, 16, &v) || v > 0xffff)
		port_bad(p, bad, file, buf, "a LID");
	else
		*lid = (int64_t)v;
}

static void read_port(struct rdc_port *p)
{
	char buf[128], name[IF_NAMESIZE];

	p->state = p->phys_state = -1;
	p->lid = p->sm_lid = -1;
	rdc_strlcpy(p->state_name, "unknown", sizeof(p->state_name));
	rdc_strlcpy(p->phys_state_name, "unknown", sizeof(p->phys_state_name));
	read_port_str(p, p->link_layer, sizeof(p->link_layer), RDC_PORT_BAD_LINK_LAYER,
		      "link_layer");
	if (read_port_str(p, buf, sizeof(buf), RDC_PORT_BAD_STATE, "state") > 0 &&
	    rdc_port_state_parse(buf, &p->state, p->state_name, sizeof(p->state_name)))
		port_bad(p, RDC_PORT_BAD_STATE, "state", buf, "a port state");
	if (read_port_str(p, buf, sizeof(buf), RDC_PORT_BAD_PHYS_STATE, "phys_state") > 0 &&
	    rdc_port_phys_state_parse(buf, &p->phys_state, p->phys_state_name,
				      sizeof(p->phys_state_name)))
		port_bad(p, RDC_PORT_BAD_PHYS_STATE, "phys_state", buf, "a physical state");
	if (read_port_str(p, buf, sizeof(buf), RDC_PORT_BAD_RATE, "rate") > 0 &&
	    rdc_port_rate_parse(buf, &p->rate_gbps, p->rate_lanes, sizeof(p->rate_lanes)))
		port_bad(p, RDC_PORT_BAD_RATE, "rate", buf, "a rate");
	if (!strcmp(p->link_layer, "InfiniBand")) {
		read_lid(p, &p->lid, RDC_PORT_BAD_LID, "lid");
		read_lid(p, &p->sm_lid, RDC_PORT_BAD_SM_LID, "sm_lid");
	}
	gid0_netdev(p, p->gid0_netdev, sizeof(p->gid0_netdev));
	if (own_netdev(p, name, sizeof(name)) && !rdc_netdev_read(name, &p->netdev, NULL)) {
		p->has_netdev = true;
		/* rxe on a bond, or a bundle that names only GID 0's netdev. */
		p->roce_lag = p->netdev.is_bond;
		rdc_strlcpy(p->upper, p->netdev.master, sizeof(p->upper));
		if (!strcmp(p->link_layer, "Ethernet") && p->netdev.mtu > 0 &&
		    strcmp(p->driver, "siw")) {
			int overhead = !strcmp(p->driver, "rdma_rxe") ? 80 : 96;

			p->active_mtu = rdc_roce_active_mtu(p->netdev.mtu, overhead);
			p->active_mtu_limited = p->active_mtu < 4096;
			p->mtu_for_4096 = 4096 + overhead;
		}
	}
}

/* Whether some port's own netdev is @name. */
static bool is_port_netdev(const struct rdc_port_list *list, const char *name)
{
	for (size_t i = 0; i < list->count; i++)
		if (list->ports[i].has_netdev && !strcmp(list->ports[i].netdev.name, name))
			return true;
	return false;
}

/*
 * RoCE LAG: GID 0 is on the bond the port's uplink is a member of, and a
 * member of that bond has no RDMA port of its own (mlx5 unregisters the
 * second PF's device and serves both ports from one).  A bond whose members
 * each keep their RDMA port (active-backup across cards, balance-alb) is no
 * LAG: there the port's netdev stays its uplink and the bond its upper.
 * Then the port's netdev becomes the bond.  Needs the whole list.
 */
static void mark_roce_lag(struct rdc_port_list *list)
{
	bool *lag = calloc(list->count + 1, sizeof(*lag));

	/* Decide for every port first: a port made a LAG port must not change another's answer. */
	for (size_t i = 0; lag && i < list->count; i++) {
		const struct rdc_port *p = &list->ports[i];
		struct rdc_netdev bond = {0};

		if (!p->has_netdev || p->roce_lag || !p->gid0_netdev[0] ||
		    strcmp(p->netdev.master, p->gid0_netdev) ||
		    rdc_netdev_read(p->gid0_netdev, &bond, NULL) || !bond.is_bond) {
			rdc_netdev_free(&bond);
			continue;
		}
		for (unsigned int k = 0; k < bond.nslaves; k++)
			lag[i] |= !is_port_netdev(list, bond.slaves[k]);
		rdc_netdev_free(&bond);
	}
	for (size_t i = 0; lag && i < list->count; i++) {
		struct rdc_port *p = &list->ports[i];

		if (!lag[i])
			continue;
		rdc_netdev_free(&p->netdev);
		if (rdc_netdev_read(p->gid0_netdev, &p->netdev, NULL))
			continue;
		p->roce_lag = true;
		p->upper[0] = '\0';
	}
	free(lag);
}

int rdc_ports_read(struct rdc_port_list *list, struct rdc_err *err)
{
	struct rdc_names devs, ports;
	struct rdc_port tmpl, *grown;
	size_t cap = 0;
	int rc;

	memset(list, 0, sizeof(*list));
	rc = rdc_ibdev_names(&devs, err);
	if (rc)
		return rc;
	for (size_t d = 0; d < devs.count; d++) {
		struct rdc_err lerr = {0};

		read_device(&tmpl, devs.names[d]);
		/* Every RDMA device has ports/; one without is broken, not portless. */
		if (rdc_fs_list(&ports, &lerr, IB_CLASS "/%s/ports", devs.names[d])) {
			rdc_issues_add(&list->issues, &lerr);
			rdc_port_free(&tmpl);
			continue;
		}
		if (ports.count == 0)
			rdc_issues_addf(&list->issues, ENOENT, "'" IB_CLASS "/%s/ports' is empty",
					devs.names[d]);
		for (size_t i = 0; i < ports.count; i++) {
			uint32_t num;

			if (rdc_parse_u32_range(ports.names[i], 1, 255, &num)) {
				char shown[96];

				rdc_str_escape(shown, sizeof(shown), ports.names[i], false);
				rdc_issues_addf(&list->issues, EINVAL,
						"'" IB_CLASS
						"/%s/ports/%s' is not a port number 1-255",
						devs.names[d], shown);
				continue;
			}
			if (list->count == cap) {
				cap = cap ? cap * 2 : 8;
				grown = realloc(list->ports, cap * sizeof(*grown));
				if (!grown) {
					rdc_port_free(&tmpl);
					rdc_names_free(&ports);
					rdc_names_free(&devs);
					rdc_ports_free(list);
					return rdc_err_set(err, ENOMEM, "cannot read RDMA ports");
				}
				list->ports = grown;
			}
			rdc_port_copy(&list->ports[list->count], &tmpl);
			list->ports[list->count].port = num;
			read_port(&list->ports[list->count]);
			list->count++;
		}
		rdc_names_free(&ports);
		rdc_port_free(&tmpl);
	}
	rdc_names_free(&devs);
	mark_roce_lag(list);
	return 0;
}

void rdc_port_copy(struct rdc_port *to, const struct rdc_port *from)
{
	*to = *from;
	rdc_issues_copy(&to->issues, &from->issues);
	rdc_issues_copy(&to->pci.issues, &from->pci.issues);
	rdc_issues_copy(&to->netdev.issues, &from->netdev.issues);
}

void rdc_port_free(struct rdc_port *p)
{
	rdc_issues_free(&p->issues);
	rdc_pci_free(&p->pci);
	rdc_netdev_free(&p->netdev);
}

void rdc_ports_free(struct rdc_port_list *list)
{
	for (size_t i = 0; i < list->count; i++)
		rdc_port_free(&list->ports[i]);
	rdc_issues_free(&list->issues);
	free(list->ports);
	list->ports = NULL;
	list->count = 0;
}

int rdc_ports_filter(struct rdc_port_list *list, const char *name, struct rdc_err *err)
{
	return rdc_ports_resolve(list, name, NULL, err);
}
