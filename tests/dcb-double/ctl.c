// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * dcb-double-ctl - look at and reset the dcbnl double's simulated NICs.
 * The state file is the one libdcbdouble.so uses ($DCB_DOUBLE_STATE).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "dd.h"

static void usage(FILE *f)
{
	fprintf(f, "usage: dcb-double-ctl [--state FILE] COMMAND\n"
		   "  show [DEV]        the state as JSON; devices named in $DCB_DOUBLE_DEVS\n"
		   "                    appear with their boot defaults until first touched\n"
		   "  reset [DEV...]    back to a NIC fresh from boot (all devices, or those\n"
		   "                    named), and restart the DCB_DOUBLE_FAIL count\n"
		   "  counters DEV PRIO REQUESTS INDICATIONS\n"
		   "                    fix one priority's PFC frame counters (then all are\n"
		   "                    reported as stored, PFC on or off)\n"
		   "  trust-dscp DEV    a port that came up in DSCP trust: 64 APP entries\n"
		   "                    dscp -> dscp >> 3, as mlx5e_dcbnl_init_app() adds\n"
		   "  path              the state file's name\n");
}

static int add_listed(struct dd_state *st)
{
	const char *p = getenv("DCB_DOUBLE_DEVS");
	char name[DD_IFNAMSIZ];

	while (p && *p) {
		size_t n;

		while (*p == ',' || *p == ' ')
			p++;
		n = strcspn(p, ", ");
		if (n && n < sizeof(name)) {
			memcpy(name, p, n);
			name[n] = '\0';
			if (!dd_state_get(st, name))
				fprintf(stderr, "dcb-double-ctl: cannot add %s\n", name);
		}
		p += n;
	}
	return 0;
}

static int parse_num(const char *s, unsigned long long max, unsigned long long *out)
{
	char *end;

	errno = 0;
	*out = strtoull(s, &end, 0);
	return errno || *end || !*s || *out > max ? -1 : 0;
}

int main(int argc, char **argv)
{
	static struct dd_state st;
	struct dd_locked lk;
	const char *path = NULL, *cmd;
	char why[256];
	int rc = 0;

	argv++;
	argc--;
	if (argc >= 2 && !strcmp(argv[0], "--state")) {
		path = argv[1];
		argv += 2;
		argc -= 2;
	}
	if (argc < 1 || !strcmp(argv[0], "-h") || !strcmp(argv[0], "--help")) {
		usage(argc < 1 ? stderr : stdout);
		return argc < 1 ? 2 : 0;
	}
	if (!path)
		path = dd_state_path();
	cmd = argv[0];
	if (!strcmp(cmd, "path")) {
		printf("%s\n", path);
		return 0;
	}
	if (strcmp(cmd, "show") && strcmp(cmd, "reset") && strcmp(cmd, "counters") &&
	    strcmp(cmd, "trust-dscp")) {
		fprintf(stderr, "dcb-double-ctl: unknown command '%s'\n", cmd);
		usage(stderr);
		return 2;
	}
	if (dd_state_open(path, &st, &lk, why, sizeof(why))) {
		fprintf(stderr, "dcb-double-ctl: %s\n", why);
		return 1;
	}
	if (!strcmp(cmd, "show")) {
		add_listed(&st);
		if (argc > 1 && !dd_state_get(&st, argv[1])) {
			fprintf(stderr, "dcb-double-ctl: bad device name '%s'\n", argv[1]);
			rc = 1;
		} else {
			dd_state_json(stdout, &st, argc > 1 ? argv[1] : NULL);
		}
	} else if (!strcmp(cmd, "reset")) {
		if (argc == 1) {
			memset(&st, 0, sizeof(st));
		} else {
			for (int i = 1; i < argc; i++) {
				struct dd_dev *d = dd_state_get(&st, argv[i]);

				if (!d) {
					fprintf(stderr, "dcb-double-ctl: bad device name '%s'\n",
						argv[i]);
					rc = 1;
					continue;
				}
				dd_dev_defaults(d, argv[i]);
			}
			st.fail_spec[0] = '\0';
			st.fail_seen = 0;
		}
	} else if (!strcmp(cmd, "counters")) {
		unsigned long long prio, req, ind;
		struct dd_dev *d = argc == 5 ? dd_state_get(&st, argv[1]) : NULL;

		if (!d || parse_num(argv[2], 7, &prio) || parse_num(argv[3], UINT64_MAX, &req) ||
		    parse_num(argv[4], UINT64_MAX, &ind)) {
			fprintf(stderr,
				"usage: dcb-double-ctl counters DEV PRIO REQUESTS INDICATIONS\n");
			rc = 2;
		} else {
			if (!d->have_counters) {
				struct ieee_pfc pfc;

				/* start from what is reported now */
				dd_getpfc(d, &pfc);
				memcpy(d->requests, pfc.requests, sizeof(d->requests));
				memcpy(d->indications, pfc.indications, sizeof(d->indications));
				d->have_counters = true;
			}
			d->requests[prio] = req;
			d->indications[prio] = ind;
		}
	} else { /* trust-dscp */
		struct dd_dev *d = argc == 2 ? dd_state_get(&st, argv[1]) : NULL;

		if (!d) {
			fprintf(stderr, "usage: dcb-double-ctl trust-dscp DEV\n");
			rc = 2;
		} else {
			/* mlx5e_dcbnl_dscp_app(INIT): dcb_ieee_setapp() for each DSCP in
			 * turn, so the list ends up newest (63) first */
			d->trust_dscp = true;
			d->napps = 0;
			for (int i = DD_MLX5_MAX_DSCP - 1; i >= 0; i--)
				d->apps[d->napps++] =
					(struct dd_app){.selector = IEEE_8021QAZ_APP_SEL_DSCP,
							.protocol = (uint16_t)i,
							.priority = d->dscp2prio[i]};
		}
	}
	if (dd_state_close(&lk, &st, rc == 0)) {
		fprintf(stderr, "dcb-double-ctl: cannot write %s\n", path);
		rc = 1;
	}
	return rc;
}
