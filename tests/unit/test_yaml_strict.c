// SPDX-License-Identifier: GPL-2.0-or-later
/* test_yaml_strict.c - both YAML loaders refuse what YAML allows and a desired state must not */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "temp_file.h"

#include "base/config.h"
#include "bond/netplan.h"

typedef int (*loader_fn)(const char *path, struct rdc_cfg *cfg, struct rdc_err *err);

static int load(loader_fn fn, const char *text, struct rdc_cfg *cfg, struct rdc_err *err)
{
	char path[] = "/tmp/rdmactl-test-strict-XXXXXX";
	int rc;

	temp_file_with(path, text);
	rc = fn(path, cfg, err);
	unlink(path);
	return rc;
}

struct strict_case {
	const char *text;
	const char *msg; /* NULL: loads */
};

static void run_cases(loader_fn fn, const struct strict_case *cases, size_t n)
{
	static struct rdc_cfg cfg;

	for (size_t i = 0; i < n; i++) {
		struct rdc_err err = {0};
		int rc = load(fn, cases[i].text, &cfg, &err);

		if (!cases[i].msg && rc)
			fail_msg("case %zu: refused: %s", i, err.msg);
		if (cases[i].msg && rc != -EINVAL)
			fail_msg("case %zu: loaded (rc %d), wanted '%s'", i, rc, cases[i].msg);
		if (cases[i].msg && !strstr(err.msg, cases[i].msg))
			fail_msg("case %zu: '%s' lacks '%s'", i, err.msg, cases[i].msg);
		rdc_cfg_free(&cfg);
	}
}

/* pfc apply -f: the device list. */
static void test_pfc_file(void **state)
{
	static const struct strict_case cases[] = {
		{"devices:\n  - dev: a\n    prio-pfc: 3:on\n  - dev: b\n    prio-pfc: 4:on\n",
		 NULL},
		/* YAML keeps the last of two keys; we refuse the second. */
		{"devices:\n  - dev: a\n    prio-pfc: 3:on\n    prio-pfc: 4:on\n",
		 "line 4: 'prio-pfc' given twice (first at line 3)"},
		{"devices:\n  - dev: a\n    dev: b\n",
		 "line 3: 'dev' given twice (first at line 2)"},
		/* A second list merged into the first. */
		{"devices:\n  - dev: a\ndevices:\n  - dev: b\n",
		 "line 3: 'devices' given twice (first at line 1)"},
		/* An option must not ride in on a file. */
		{"devices:\n  - dev: a\n    --dry-run:\n", "line 3: '--dry-run' is not a setting"},
		{"devices:\n  - dev: a\n    -f: other.yaml\n", "line 3: '-f' is not a setting"},
		{"devices:\n  - dev: a\n    Prio-pfc: 3:on\n",
		 "line 3: 'Prio-pfc' is not a setting"},
		{"devices:\n  - dev: a\n    prio pfc: 3:on\n",
		 "line 3: 'prio pfc' is not a setting"},
		{"devices:\n  - dev: a\n    \"\": 3\n", "line 3: '' is not a setting"},
		{"devices:\n  - dev: a\n---\ndevices:\n  - dev: b\n", "only one document"},
	};

	(void)state;
	run_cases(rdc_cfg_load, cases, sizeof(cases) / sizeof(cases[0]));
}

#define BOND0                                                                                      \
	"    bond0:\n      interfaces: [eth0, eth1]\n      parameters:\n        mode: 802.3ad\n"

/* bond apply -f: netplan's schema. */
static void test_netplan_file(void **state)
{
	static const struct strict_case cases[] = {
		{"network:\n  version: 2\n  bonds:\n" BOND0, NULL},
		{"network:\n  bonds:\n" BOND0 "        mode: active-backup\n",
		 "line 7: 'mode' given twice"},
		/* Passed-over sections are strict too. */
		{"network:\n  ethernets:\n    eth0: {mtu: 9000, mtu: 1500}\n  bonds:\n" BOND0,
		 "line 3: 'mtu' given twice"},
		{"network:\n  bonds:\n" BOND0 "  bonds:\n    bond1:\n      interfaces: [eth2]\n",
		 "line 7: 'bonds' given twice"},
		{"network:\n  bonds:\n" BOND0 "bonds:\n  bond1:\n    interfaces: [eth2]\n",
		 "line 7: 'bonds' beside 'network'"},
		{"network:\n  bonds:\n" BOND0 "---\nnetwork:\n  bonds:\n    bond1:\n"
		 "      interfaces: [eth2]\n",
		 "line 7: only one document"},
		{"x: &m [eth0, eth1]\nnetwork:\n  bonds:\n    bond0:\n      interfaces: *m\n",
		 "line 5: aliases are not allowed"},
		/* The same device twice. */
		{"network:\n  bonds:\n    bond0:\n      interfaces: [eth0, eth1, eth0]\n",
		 "line 4: interface 'eth0' given twice in 'bond0'"},
		{"network:\n  bonds:\n" BOND0 "    bond1:\n      interfaces:\n        - eth2\n"
		 "        - eth1\n",
		 "line 10: interface 'eth1' is in bond 'bond0' (line 3) too"},
		/* Names that are no interface's, or read as an option. */
		{"network:\n  bonds:\n    --dry-run:\n      interfaces: [eth0]\n",
		 "line 3: bond '--dry-run' is not an interface name"},
		{"network:\n  bonds:\n    bond0:\n      interfaces: [-f]\n",
		 "line 4: interface '-f' is not an interface name"},
		{"network:\n  bonds:\n    bond-with-a-long-name:\n      interfaces: [eth0]\n",
		 "is not an interface name"},
	};

	(void)state;
	run_cases(rdc_bond_netplan_load, cases, sizeof(cases) / sizeof(cases[0]));
}

/* A netplan key given twice is quoted whole, however long (the message was cut at 200 bytes). */
static void test_netplan_quotes_whole(void **state)
{
	static struct rdc_cfg cfg;
	struct rdc_err err = {0};
	char key[301], text[1024], want[512];

	(void)state;
	memset(key, 'k', sizeof(key) - 1);
	key[sizeof(key) - 1] = '\0';
	snprintf(text, sizeof(text),
		 "network:\n  ethernets:\n    eth0: {%s: 1, %s: 2}\n  bonds:\n" BOND0, key, key);
	assert_int_equal(load(rdc_bond_netplan_load, text, &cfg, &err), -EINVAL);
	snprintf(want, sizeof(want), "line 3: '%s' given twice", key);
	if (!strstr(err.msg, want))
		fail_msg("'%s' lacks '%s'", err.msg, want);
	rdc_cfg_free(&cfg);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pfc_file),
		cmocka_unit_test(test_netplan_file),
		cmocka_unit_test(test_netplan_quotes_whole),
	};

	return cmocka_run_group_tests_name("yaml_strict", tests, NULL, NULL);
}
