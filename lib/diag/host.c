// SPDX-License-Identifier: GPL-2.0-or-later
/* host.c - diag checks of the machine around the ports: firmware, drivers, PCIe, NUMA, VFs */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "diag/diag.h"

#define IB_CLASS "/sys/class/infiniband"
#define NET_CLASS "/sys/class/net"
#define PCI_DEVICES "/sys/bus/pci/devices"

/* ---- helpers ----------------------------------------------------------- */

/* Whether an earlier port (index < @i) belongs to the same RDMA device. */
static bool host_device_seen(const struct rdc_diag_host *h, size_t i)
{
	for (size_t j = 0; j < i; j++)
		if (!strcmp(h->ports[j].port.device, h->ports[i].port.device))
			return true;
	return false;
}

/* Whether an earlier port sits on the same PCI function (ports of one device, or LAG). */
static bool host_pci_seen(const struct rdc_diag_host *h, size_t i)
{
	for (size_t j = 0; j < i; j++)
		if (h->ports[j].port.has_pci &&
		    !strcmp(h->ports[j].port.pci.address, h->ports[i].port.pci.address))
			return true;
	return false;
}

/* Whether an earlier port has the same netdev. */
static bool host_netdev_seen(const struct rdc_diag_host *h, size_t i)
{
	const char *nd = rdc_diag_netdev(&h->ports[i]);

	for (size_t j = 0; nd && j < i; j++)
		if (rdc_diag_netdev(&h->ports[j]) && !strcmp(rdc_diag_netdev(&h->ports[j]), nd))
			return true;
	return false;
}

/*
 * One counter as evidence: over the window (its total now, delta, window_s)
 * with two samples, its total since the counter's reset with one.
 */
static void host_counter_evidence(struct rdc_finding *f, const struct rdc_diag_port *p,
				  enum rdc_diag_set set, const char *name)
{
	char src[RDC_DIAG_SOURCE_LEN];
	uint64_t now, d;

	if (rdc_diag_counter(p, set, name, &now))
		return;
	rdc_diag_counter_source(p, set, name, src, sizeof(src));
	if (!rdc_diag_delta(p, set, name, &d))
		rdc_ev_window(f, name, src, d, rdc_diag_window_s(p), now);
	else
		rdc_ev_counter(f, name, src, now);
}

/*
 * A PCIe link's speed (GT/s) or width as evidence, named as port show's pcie
 * object names it: null where sysfs gave none.
 */
static void host_pcie_evidence(struct rdc_finding *f, const char *name, const char *addr,
			       const char *file, double v, bool real)
{
	char src[RDC_DIAG_SOURCE_LEN];

	snprintf(src, sizeof(src), PCI_DEVICES "/%s/%s", addr, file);
	if (v <= 0)
		rdc_ev_unknown(f, name, src, "not read");
	else if (real)
		rdc_ev_real(f, name, src, v);
	else
		rdc_ev_int(f, name, src, (int64_t)v);
}

/* ---- host.fw-mismatch (#25) -------------------------------------------- */

/*
 * Firmware is compared per adapter model (hca_type, "MT4125"): ConnectX
 * generations have their own version lines (16.x, 20.x, 22.x), so only
 * adapters of one model are expected to run one version.  One entry per
 * RDMA device: its ports share the firmware.
 */
static void check_fw_mismatch(const struct rdc_diag_host *h, const struct rdc_diag_check *c,
			      struct rdc_diag_result *r)
{
	for (size_t i = 0; i < h->nports; i++) {
		const struct rdc_port *lead = &h->ports[i].port;
		char *versions = NULL, src[RDC_DIAG_SOURCE_LEN];
		size_t ndev = 0, nver = 0;
		bool leader = true;
		struct rdc_finding *f;

		if (host_device_seen(h, i))
			continue;
		if (!lead->fw_ver[0]) {
			/* A software device (rxe, siw) has no firmware: nothing to compare. */
			if (lead->has_pci)
				rdc_diag_skip(r, c, &h->ports[i], "%s/%s/fw_ver could not be read",
					      IB_CLASS, lead->device);
			continue;
		}
		if (!lead->hca_type[0]) {
			rdc_diag_skip(r, c, &h->ports[i],
				      "%s has no hca_type: its model is unknown, so its firmware "
				      "is compared with no other",
				      lead->device);
			continue;
		}
		/* The group's first device reports it; the others were counted there. */
		for (size_t j = 0; j < i && leader; j++)
			if (h->ports[j].port.fw_ver[0] &&
			    !strcmp(h->ports[j].port.hca_type, lead->hca_type))
				leader = false;
		if (!leader)
			continue;

		for (size_t j = i; j < h->nports; j++) {
			const struct rdc_port *q = &h->ports[j].port;
			bool seen_ver = false;

			if (host_device_seen(h, j) || !q->fw_ver[0] ||
			    strcmp(q->hca_type, lead->hca_type))
				continue;
			ndev++;
			for (size_t k = i; k < j && !seen_ver; k++)
				if (!host_device_seen(h, k) &&
				    !strcmp(h->ports[k].port.hca_type, lead->hca_type) &&
				    !strcmp(h->ports[k].port.fw_ver, q->fw_ver))
					seen_ver = true;
			if (!seen_ver)
				nver++;
		}
		if (nver < 2)
			continue;

		for (size_t j = i; j < h->nports; j++) {
			const struct rdc_port *q = &h->ports[j].port;

			if (host_device_seen(h, j) || !q->fw_ver[0] ||
			    strcmp(q->hca_type, lead->hca_type))
				continue;
			rdc_diag_cat(&versions, "%s%s %s", versions ? ", " : "", q->device,
				     q->fw_ver);
		}
		f = rdc_diag_add(r, c, NULL, RDC_SEV_WARN,
				 "%zu %s adapters run %zu firmware versions: %s", ndev,
				 lead->hca_type, nver, rdc_diag_str(versions));
		free(versions);
		/*
		 * Each device's fw_ver (the device in the detail), the model they
		 * share, then the boards: what is left out when there are many
		 * devices is the least needed.
		 */
		for (size_t j = i; j < h->nports; j++) {
			const struct rdc_port *q = &h->ports[j].port;

			if (host_device_seen(h, j) || !q->fw_ver[0] ||
			    strcmp(q->hca_type, lead->hca_type))
				continue;
			snprintf(src, sizeof(src), IB_CLASS "/%s/fw_ver", q->device);
			rdc_ev_detail(rdc_ev_text(f, "fw_ver", src, "%s", q->fw_ver), "%s",
				      q->device);
		}
		snprintf(src, sizeof(src), IB_CLASS "/%s/hca_type", lead->device);
		rdc_ev_text(f, "hca_type", src, "%s", lead->hca_type);
		for (size_t j = i; j < h->nports; j++) {
			const struct rdc_port *q = &h->ports[j].port;

			if (host_device_seen(h, j) || !q->fw_ver[0] ||
			    strcmp(q->hca_type, lead->hca_type))
				continue;
			snprintf(src, sizeof(src), IB_CLASS "/%s/board_id", q->device);
			if (q->board_id[0])
				rdc_ev_detail(rdc_ev_text(f, "board_id", src, "%s", q->board_id),
					      "%s", q->device);
			else
				rdc_ev_detail(rdc_ev_unknown(f, "board_id", src, "not read"), "%s",
					      q->device);
		}
		rdc_finding_why(f,
				"adapters of one model with different firmware behave differently "
				"(congestion control defaults, RoCE LAG, fixed bugs): one port "
				"misbehaves where its twin does not, and a mix is rarely intended");
		rdc_finding_fix(
			f, "bring them to one version with the vendor's tool (mlx5: 'mlxfwmanager "
			   "--query' lists them, 'mlxfwmanager -u' updates them), then reset the "
			   "adapters (mlxfwreset) or reboot");
	}
}

/* ---- host.driver-mismatch (#26) ---------------------------------------- */

static void check_modules_present(const struct rdc_diag_host *h, const struct rdc_diag_check *c,
				  struct rdc_diag_result *r)
{
	const struct rdc_host_facts *hf = &h->facts;
	char src[RDC_DIAG_SOURCE_LEN];
	struct rdc_finding *f;

	if (hf->modules_present < 0) {
		rdc_diag_skip(r, c, NULL, "%s",
			      hf->kernel_release[0]
				      ? "whether /lib/modules/RELEASE exists is unknown"
				      : "/proc/sys/kernel/osrelease could not be read");
		return;
	}
	if (hf->modules_present)
		return;
	snprintf(src, sizeof(src), "/lib/modules/%s", hf->kernel_release);
	f = rdc_diag_add(r, c, NULL, RDC_SEV_WARN,
			 "/lib/modules/%s is missing: the running kernel's modules were removed",
			 hf->kernel_release);
	rdc_ev_text(f, "osrelease", "/proc/sys/kernel/osrelease", "%s", hf->kernel_release);
	rdc_ev_detail(rdc_ev_bool(f, "modules_present", src, false), "no such directory");
	rdc_finding_why(f, "a package upgrade replaced the running kernel: a reboot is pending, "
			   "and no module that is not loaded yet can load (rdma_rxe, rdma_ucm, "
			   "bonding, a driver after a reset). Inside a container without "
			   "/lib/modules this is expected: run diag on the host");
	rdc_finding_fix(f,
			"reboot into the installed kernel; until then reinstall the running one's "
			"modules (Debian: 'apt-get install --reinstall linux-image-%s')",
			hf->kernel_release);
}

/* Netdevs of one driver reporting different versions: a module replaced under a running one. */
static void check_driver_versions(const struct rdc_diag_host *h, const struct rdc_diag_check *c,
				  struct rdc_diag_result *r)
{
	for (size_t i = 0; i < h->nports; i++) {
		const struct rdc_netif *a = &h->ports[i].netif;
		char *versions = NULL, src[RDC_DIAG_SOURCE_LEN];
		size_t nver = 0;
		bool leader = true;
		struct rdc_finding *f;

		if (!rdc_diag_netdev(&h->ports[i]) || host_netdev_seen(h, i) || !a->have_drvinfo ||
		    !a->driver[0] || !a->driver_version[0])
			continue;
		for (size_t j = 0; j < i && leader; j++)
			if (rdc_diag_netdev(&h->ports[j]) && h->ports[j].netif.have_drvinfo &&
			    h->ports[j].netif.driver_version[0] &&
			    !strcmp(h->ports[j].netif.driver, a->driver))
				leader = false;
		if (!leader)
			continue;
		for (size_t j = i; j < h->nports; j++) {
			const struct rdc_netif *b = &h->ports[j].netif;
			bool seen = false;

			if (!b->have_drvinfo || strcmp(b->driver, a->driver) ||
			    !b->driver_version[0])
				continue;
			for (size_t k = i; k < j && !seen; k++)
				seen = h->ports[k].netif.have_drvinfo &&
				       !strcmp(h->ports[k].netif.driver, a->driver) &&
				       !strcmp(h->ports[k].netif.driver_version, b->driver_version);
			if (!seen) {
				nver++;
				rdc_diag_cat(&versions, "%s%s", versions ? ", " : "",
					     b->driver_version);
			}
		}
		if (nver < 2) {
			free(versions);
			continue;
		}
		f = rdc_diag_add(r, c, NULL, RDC_SEV_WARN, "driver %s reports %zu versions: %s",
				 a->driver, nver, rdc_diag_str(versions));
		free(versions);
		snprintf(src, sizeof(src), "ETHTOOL_GDRVINFO %s", a->name);
		rdc_ev_text(f, "driver", src, "%s", a->driver);
		for (size_t j = i; j < h->nports; j++) {
			const struct rdc_netif *b = &h->ports[j].netif;

			if (!b->have_drvinfo || strcmp(b->driver, a->driver) ||
			    !b->driver_version[0] || host_netdev_seen(h, j))
				continue;
			snprintf(src, sizeof(src), "ETHTOOL_GDRVINFO %s", b->name);
			rdc_ev_detail(
				rdc_ev_text(f, "driver_version", src, "%s", b->driver_version),
				"%s", b->name);
		}
		rdc_finding_why(f,
				"one loaded module has one version: different ones mean a second "
				"copy of the driver (an out-of-tree package beside the inbox one) "
				"or a half-finished upgrade; the ports behave differently");
		rdc_finding_fix(
			f,
			"see which file each comes from ('modinfo %s', and 'ethtool -i' of each "
			"netdev in the evidence), remove or finish the other package, and reload "
			"the driver or reboot",
			a->driver);
	}
}

static void check_driver_mismatch(const struct rdc_diag_host *h, const struct rdc_diag_check *c,
				  struct rdc_diag_result *r)
{
	check_modules_present(h, c, r);
	check_driver_versions(h, c, r);
}

/* ---- host.pcie-degraded (#27) ------------------------------------------ */

/* Usable Gb/s of a PCIe link: 8b/10b below 8 GT/s, 128b/130b from there on. */
static double host_pcie_gbps(double gts, int64_t width)
{
	return gts * (gts < 8.0 ? 0.8 : 128.0 / 130.0) * (double)width;
}

/* mlx5's PCIe health counters: bad signal on the link, and the host not taking data fast enough. */
static const char *const pcie_counters[] = {
	"rx_pci_signal_integrity",	  "tx_pci_signal_integrity",
	"outbound_pci_buffer_overflow",	  "outbound_pci_stalled_rd_events",
	"outbound_pci_stalled_wr_events",
};

/* The PCI function's link against its capability; true when it could be judged. */
static bool check_pcie_link(const struct rdc_diag_port *p, const struct rdc_diag_check *c,
			    struct rdc_diag_result *r)
{
	const struct rdc_pci *pci = &p->port.pci;
	bool slow, narrow;
	char src[RDC_DIAG_SOURCE_LEN];
	struct rdc_finding *f;

	if (!p->port.has_pci || !pci->has_link || pci->cur_speed_gts <= 0 || pci->cur_width <= 0)
		return false;
	slow = pci->max_speed_gts > 0 && pci->cur_speed_gts < pci->max_speed_gts;
	narrow = pci->max_width > 0 && pci->cur_width < pci->max_width;
	if (!slow && !narrow)
		return true;

	f = rdc_diag_add(r, c, p, RDC_SEV_FAIL,
			 "PCIe %s runs at %.1f GT/s x%" PRId64 ", below its %.1f GT/s x%" PRId64,
			 pci->address, pci->cur_speed_gts, pci->cur_width,
			 pci->max_speed_gts > 0 ? pci->max_speed_gts : pci->cur_speed_gts,
			 pci->max_width > 0 ? pci->max_width : pci->cur_width);
	host_pcie_evidence(f, "current_speed_gts", pci->address, "current_link_speed",
			   pci->cur_speed_gts, true);
	host_pcie_evidence(f, "max_speed_gts", pci->address, "max_link_speed", pci->max_speed_gts,
			   true);
	host_pcie_evidence(f, "current_width", pci->address, "current_link_width",
			   (double)pci->cur_width, false);
	host_pcie_evidence(f, "max_width", pci->address, "max_link_width", (double)pci->max_width,
			   false);
	if (p->port.rate_gbps > 0) {
		snprintf(src, sizeof(src), IB_CLASS "/%s/ports/%u/rate", p->port.device,
			 p->port.port);
		rdc_ev_real(f, "port_rate_gbps", src, p->port.rate_gbps);
	}
	rdc_finding_why(
		f,
		"the adapter trained its PCIe link below what it can do: about %.0f Gb/s each way "
		"instead of %.0f, for a port of %g Gb/s; RDMA throughput is capped there and the "
		"NIC's buffers fill (pauses, drops)",
		host_pcie_gbps(pci->cur_speed_gts, pci->cur_width),
		host_pcie_gbps(pci->max_speed_gts > 0 ? pci->max_speed_gts : pci->cur_speed_gts,
			       pci->max_width > 0 ? pci->max_width : pci->cur_width),
		p->port.rate_gbps);
	rdc_finding_fix(f,
			"move or reseat the adapter in a slot wired for x%" PRId64
			" at its full generation (the board's manual; 'lspci -vv -s %s' shows "
			"LnkCap and LnkSta), and check the BIOS's PCIe speed and bifurcation",
			pci->max_width > 0 ? pci->max_width : pci->cur_width, pci->address);
	return true;
}

/* The port's PCIe error counters; true when it has any. */
static bool check_pcie_counters(const struct rdc_diag_port *p, const struct rdc_diag_check *c,
				struct rdc_diag_result *r)
{
	bool hit[RDC_ARRAY_SIZE(pcie_counters)] = {false};
	bool have = false, any = false;
	char *list = NULL;
	struct rdc_finding *f;

	for (size_t k = 0; k < RDC_ARRAY_SIZE(pcie_counters); k++) {
		uint64_t v;
		int rc = p->nsamples >= 2
				 ? rdc_diag_delta(p, RDC_DIAG_NETDEV, pcie_counters[k], &v)
				 : rdc_diag_counter(p, RDC_DIAG_NETDEV, pcie_counters[k], &v);

		if (rc)
			continue;
		have = true;
		if (!v)
			continue;
		any = hit[k] = true;
		rdc_diag_cat(&list, "%s%s %s%" PRIu64, list ? ", " : "", pcie_counters[k],
			     p->nsamples >= 2 ? "+" : "", v);
	}
	if (!any)
		return have;
	if (p->nsamples >= 2)
		f = rdc_diag_add(r, c, p, RDC_SEV_WARN,
				 "PCIe errors or stalls in the last %.1f s: %s",
				 rdc_diag_window_s(p), rdc_diag_str(list));
	else
		f = rdc_diag_add(r, c, p, RDC_SEV_WARN,
				 "PCIe errors or stalls since the counters were reset: %s",
				 rdc_diag_str(list));
	free(list);
	rdc_diag_counted(f, p);
	for (size_t k = 0; k < RDC_ARRAY_SIZE(pcie_counters); k++)
		if (hit[k])
			host_counter_evidence(f, p, RDC_DIAG_NETDEV, pcie_counters[k]);
	rdc_finding_why(
		f, "signal integrity errors mean a marginal PCIe link (retrained, replayed TLPs); "
		   "stalls and buffer overflows mean the host did not take or give data fast "
		   "enough (memory, IOMMU, power saving): both cost RDMA throughput and latency");
	rdc_finding_fix(f, "for signal errors reseat the adapter or try another slot and update "
			   "the BIOS and firmware; for stalls check 'lspci -vv' (MaxPayload, "
			   "MaxReadReq), the IOMMU mode (iommu=pt) and CPU power states");
	return true;
}

static void check_pcie(const struct rdc_diag_host *h, const struct rdc_diag_check *c,
		       struct rdc_diag_result *r)
{
	for (size_t i = 0; i < h->nports; i++) {
		const struct rdc_diag_port *p = &h->ports[i];
		bool link = false, counters;

		/* The RDMA port itself: once, not per RoCE LAG member. */
		if (!rdc_diag_port_rdma(p))
			continue;

		if (p->port.has_pci && !host_pci_seen(h, i))
			link = check_pcie_link(p, c, r);
		else if (p->port.has_pci)
			link = true; /* judged with the earlier port on the same function */
		counters = check_pcie_counters(p, c, r);
		if (link || counters)
			continue;
		if (!p->port.has_pci)
			rdc_diag_skip(r, c, p, "no PCI function (a software device)");
		else
			rdc_diag_skip(r, c, p,
				      "%s has no PCIe link speed or width (a virtual function, or "
				      "conventional PCI) and no PCIe counters",
				      p->port.pci.address);
	}
}

/* ---- host.numa-irqs (#28) ---------------------------------------------- */

static void check_numa_irqs(const struct rdc_diag_host *h, const struct rdc_diag_check *c,
			    struct rdc_diag_result *r)
{
	for (size_t i = 0; i < h->nports; i++) {
		const struct rdc_diag_port *p = &h->ports[i];
		const struct rdc_netif *n = &p->netif;
		const char *nd = rdc_diag_netdev(p);
		char src[RDC_DIAG_SOURCE_LEN];
		struct rdc_finding *f;

		/* The RDMA port itself: once, not per RoCE LAG member. */
		if (!rdc_diag_port_rdma(p))
			continue;

		if (!nd) {
			rdc_diag_skip(r, c, p, "the port has no netdev to read IRQs from");
			continue;
		}
		if (host_netdev_seen(h, i))
			continue;
		if (n->irqs_total < 0) {
			if (p->port.netdev.is_bond)
				rdc_diag_skip(r, c, p, "%s is a bond: the IRQs are its members'",
					      nd);
			else
				rdc_diag_skip(r, c, p, "%s/%s/device/msi_irqs could not be read",
					      NET_CLASS, nd);
			continue;
		}
		if (n->irqs_remote < 0 || !n->local_cpulist) {
			rdc_diag_skip(r, c, p, "%s/%s/device/local_cpulist could not be read",
				      NET_CLASS, nd);
			continue;
		}
		if (!n->irqs_remote)
			continue;

		f = rdc_diag_add(r, c, p, RDC_SEV_WARN,
				 "%d of %d IRQs of %s are served outside its NUMA node (CPUs %s)",
				 n->irqs_remote, n->irqs_total, nd, n->local_cpulist);
		snprintf(src, sizeof(src),
			 "/proc/irq/N/smp_affinity_list of " NET_CLASS "/%s/device/msi_irqs", nd);
		rdc_ev_detail(rdc_ev_int(f, "remote_irqs", src, n->irqs_remote),
			      "affine to no CPU of local_cpulist");
		snprintf(src, sizeof(src), NET_CLASS "/%s/device/msi_irqs", nd);
		rdc_ev_detail(rdc_ev_int(f, "irqs", src, n->irqs_total), "the device's MSI IRQs");
		snprintf(src, sizeof(src), NET_CLASS "/%s/device/local_cpulist", nd);
		rdc_ev_text(f, "local_cpulist", src, "%s", n->local_cpulist);
		if (p->port.has_pci && p->port.pci.numa_node >= 0) {
			snprintf(src, sizeof(src), PCI_DEVICES "/%s/numa_node",
				 p->port.pci.address);
			rdc_ev_int(f, "numa_node", src, p->port.pci.numa_node);
		}
		rdc_finding_why(f, "completions of those queues are handled on the other socket: "
				   "each interrupt and the data it touches cross the NUMA link, "
				   "which adds latency and lowers the message rate");
		rdc_finding_fix(f,
				"pin them to the local CPUs: 'set_irq_affinity_cpulist.sh %s %s' "
				"(mlnx-tools), or write %s to the smp_affinity_list in /proc/irq "
				"of each IRQ in the evidence; keep irqbalance from moving them "
				"back, and run RDMA jobs there too ('numactl --cpunodebind')",
				n->local_cpulist, nd, n->local_cpulist);
	}
}

/* ---- host.vf-limits (#31) ---------------------------------------------- */

static void check_vf_limits(const struct rdc_diag_host *h, const struct rdc_diag_check *c,
			    struct rdc_diag_result *r)
{
	for (size_t i = 0; i < h->nports; i++) {
		const struct rdc_diag_port *p = &h->ports[i];
		const char *nd = rdc_diag_netdev(p);
		char src[RDC_DIAG_SOURCE_LEN];
		struct rdc_finding *f;

		/* The RDMA port itself: once, not per RoCE LAG member. */
		if (!rdc_diag_port_rdma(p))
			continue;

		if (!nd) {
			rdc_diag_skip(r, c, p, "the port has no netdev");
			continue;
		}
		if (p->netif.is_vf) {
			f = rdc_diag_add(r, c, p, RDC_SEV_INFO,
					 "%s is an SR-IOV virtual function: its QoS is set by the "
					 "physical function",
					 nd);
			snprintf(src, sizeof(src), NET_CLASS "/%s/device/physfn", nd);
			rdc_ev_detail(rdc_ev_bool(f, "is_vf", src, true), "device/physfn exists");
			rdc_finding_why(f,
					"a VF cannot change trust, the DSCP map, PFC or ETS "
					"(EOPNOTSUPP or EPERM): the PF's host sets them for all "
					"its VFs, so DCB findings here are about what the PF set");
			rdc_finding_fix(f,
					"configure DCB on the PF, on the hypervisor or through "
					"the SR-IOV network operator: 'rdmactl pfc apply' of the "
					"PF's netdev with profile roce-lossless, there");
		}
		/* An Ethernet port always has the MAC's default GID; none at all is a namespace. */
		if (rdc_diag_port_roce(p) && p->gid_rc == 0 && p->ngids == 0) {
			f = rdc_diag_add(
				r, c, p, RDC_SEV_INFO,
				"the GID table of %s/%u is empty: no RoCE address is visible",
				p->port.device, p->port.port);
			snprintf(src, sizeof(src), IB_CLASS "/%s/ports/%u/gids/", p->port.device,
				 p->port.port);
			rdc_ev_detail(rdc_ev_uint(f, "gids_in_use", src, 0), "every entry is zero");
			rdc_finding_why(f,
					"without a GID no RoCE connection can use the port; in a "
					"container or network namespace the table lists only the "
					"netdevs of that namespace, and with the RDMA subsystem in "
					"exclusive mode the device must be moved there");
			rdc_finding_fix(f,
					"'rdma system show' gives the netns mode; in exclusive "
					"mode move the device into the namespace ('rdma dev set %s "
					"netns' and its name); else "
					"give %s an address and bring it up",
					p->port.device, nd);
		}
	}
}

/* ---- the family --------------------------------------------------------- */

static const struct rdc_diag_check checks[] = {
	{"host.fw-mismatch", RDC_SEV_WARN, "firmware differs among adapters of one model",
	 "/sys/class/infiniband/DEV/{fw_ver,hca_type}", "more than one version per hca_type",
	 check_fw_mismatch},
	{"host.driver-mismatch", RDC_SEV_WARN,
	 "running kernel's modules missing (reboot pending), or one driver in two versions",
	 "/proc/sys/kernel/osrelease, /lib/modules/RELEASE, ETHTOOL_GDRVINFO",
	 "modules directory missing; more than one version per driver", check_driver_mismatch},
	{"host.pcie-degraded", RDC_SEV_FAIL, "PCIe link below its capability, or PCIe errors",
	 "current/max_link_speed, current/max_link_width, rx/tx_pci_signal_integrity, "
	 "outbound_pci_stalled_*_events",
	 "speed or width below max (fail); error or stall events (warn)", check_pcie},
	{"host.numa-irqs", RDC_SEV_WARN, "IRQs served outside the adapter's NUMA node",
	 "device/msi_irqs, /proc/irq/N/smp_affinity_list, device/local_cpulist",
	 "any IRQ with no CPU of local_cpulist", check_numa_irqs},
	{"host.vf-limits", RDC_SEV_INFO, "SR-IOV VF or namespace limits (explained, not judged)",
	 "device/physfn, the GID table", "a VF; an empty GID table on a RoCE port",
	 check_vf_limits},
};

const struct rdc_diag_family rdc_diag_family_host = {"host", checks, RDC_ARRAY_SIZE(checks)};
