// SPDX-License-Identifier: GPL-2.0-or-later
/* test_plan_load.c - plans loaded back from an undo journal: a flag byte other than 0/1 is refused */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "bond/plan.h"
#include "dcb/plan.h"
#include "host/link.h"

/* The byte of the bool at @field set to 2: a value no compiler ever stores in one. */
static void poison(void *field)
{
	const unsigned char two = 2;

	memcpy(field, &two, 1);
}

/* @ops->load on @blob as @name: 0 (the plan is freed) or the -errno. */
static int load(const struct rdc_change_ops *ops, const void *blob, const char *name)
{
	struct rdc_err err = {0};
	void *plan = NULL;
	int rc = ops->load(blob, name, &plan, &err);

	if (!rc) {
		assert_non_null(plan);
		free(plan);
	} else {
		assert_null(plan);
		assert_int_equal(err.code, -rc);
		assert_non_null(strstr(err.msg, "flag"));
	}
	return rc;
}

static struct rdc_link_plan *link_plan(void)
{
	struct rdc_link_plan *p = calloc(1, sizeof(*p));

	assert_non_null(p);
	strcpy(p->before.name, "eth0");
	strcpy(p->after.name, "eth0");
	p->change.mtu = -1;
	p->change.admin_up = -1;
	return p;
}

static void test_link_flags(void **state)
{
	struct rdc_link_plan *p = link_plan();

	(void)state;
	assert_int_equal(load(&rdc_link_change_ops, p, "eth0"), 0);
	poison(&p->before.admin_up);
	assert_int_equal(load(&rdc_link_change_ops, p, "eth0"), -EINVAL);
	free(p);
	p = link_plan();
	poison(&p->changed);
	assert_int_equal(load(&rdc_link_change_ops, p, "eth0"), -EINVAL);
	free(p);
}

static void test_dcb_flags(void **state)
{
	struct rdc_dcb_plan *p = calloc(1, sizeof(*p));
	const size_t flags[] = {
		offsetof(struct rdc_dcb_plan, before.supported),
		offsetof(struct rdc_dcb_plan, before.have_pfc),
		offsetof(struct rdc_dcb_plan, after.buffer_invalid),
		offsetof(struct rdc_dcb_plan, pfc),
		offsetof(struct rdc_dcb_plan, buffer),
	};

	(void)state;
	assert_non_null(p);
	assert_int_equal(load(&rdc_dcb_change_ops, p, "eth0"), 0);
	for (size_t i = 0; i < sizeof(flags) / sizeof(flags[0]); i++) {
		memset(p, 0, sizeof(*p));
		poison((unsigned char *)p + flags[i]);
		assert_int_equal(load(&rdc_dcb_change_ops, p, "eth0"), -EINVAL);
	}
	free(p);
}

static struct rdc_bond_plan *bond_plan(void)
{
	struct rdc_bond_plan *p = calloc(1, sizeof(*p));

	assert_non_null(p);
	strcpy(p->name, "bond0");
	p->nsteps = 1;
	p->steps[0].op = RDC_BOND_OP_OPTS;
	p->steps[0].opts.miimon_given = true;
	p->steps[0].opts.miimon_ms = 100;
	p->before.nmembers = 1;
	strcpy(p->before.members[0].name, "eth0");
	return p;
}

static void test_bond_flags(void **state)
{
	struct rdc_bond_plan *p = bond_plan();
	const size_t flags[] = {
		offsetof(struct rdc_bond_plan, existed),
		offsetof(struct rdc_bond_plan, deleted),
		offsetof(struct rdc_bond_plan, addr6_unread),
		offsetof(struct rdc_bond_plan, want_opts.primary_given),
		offsetof(struct rdc_bond_plan, steps[0].opts.miimon_given),
		offsetof(struct rdc_bond_plan, steps[0].undo_opts.mode_given),
		offsetof(struct rdc_bond_plan, before.admin_up),
		offsetof(struct rdc_bond_plan, before.members[0].carrier),
		offsetof(struct rdc_bond_plan, after.rdma_soft),
	};

	(void)state;
	assert_int_equal(load(&rdc_bond_change_ops, p, "bond0"), 0);
	free(p);
	for (size_t i = 0; i < sizeof(flags) / sizeof(flags[0]); i++) {
		p = bond_plan();
		poison((unsigned char *)p + flags[i]);
		assert_int_equal(load(&rdc_bond_change_ops, p, "bond0"), -EINVAL);
		free(p);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_link_flags),
		cmocka_unit_test(test_dcb_flags),
		cmocka_unit_test(test_bond_flags),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
