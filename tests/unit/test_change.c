// SPDX-License-Identifier: GPL-2.0-or-later
/* test_change.c - the change engine with fake plans: order, rollback newest first, the stop flag */
#include <errno.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "base/change.h"
#include "cmd.h"
#include "write.h"

/* A fake plan: what it does when applied or reverted, and a journal of the calls. */
struct fake {
	const char *name;
	bool empty;
	int apply_rc;			/* returned by apply */
	int revert_rc;			/* returned by revert */
	int raise;			/* apply sets *stop to this (a signal arriving meanwhile) */
	volatile sig_atomic_t *stop_at; /* where apply saw the stop flag */
};

static char journal[256];

static void note(const char *what, const char *name)
{
	size_t len = strlen(journal);

	snprintf(journal + len, sizeof(journal) - len, "%s%s %s", len ? ", " : "", what, name);
}

static bool fake_empty(const void *p)
{
	return ((const struct fake *)p)->empty;
}

static int fake_apply(void *p, volatile sig_atomic_t *stop, struct rdc_err *err)
{
	struct fake *f = p;

	note("apply", f->name);
	f->stop_at = stop;
	if (f->raise && stop)
		*stop = f->raise;
	if (f->apply_rc)
		return rdc_err_set(err, -f->apply_rc, "%s refused", f->name);
	return 0;
}

static int fake_revert(void *p, struct rdc_err *err)
{
	struct fake *f = p;

	note("revert", f->name);
	if (f->revert_rc)
		return rdc_err_set(err, -f->revert_rc, "%s stuck", f->name);
	return 0;
}

static const char *fake_name(const void *p)
{
	return ((const struct fake *)p)->name;
}

static const struct rdc_change_ops fake_ops = {
	.empty = fake_empty, .apply = fake_apply, .revert = fake_revert, .name = fake_name};

static int commit(struct fake *f, size_t n, volatile sig_atomic_t *stop,
		  struct rdc_change_result *res, struct rdc_err *err)
{
	struct rdc_change changes[8];

	for (size_t i = 0; i < n; i++) {
		changes[i].ops = &fake_ops;
		changes[i].plan = &f[i];
	}
	journal[0] = '\0';
	return rdc_change_commit(changes, n, stop, res, err);
}

static void test_all_applied(void **state)
{
	struct fake f[] = {{.name = "a"}, {.name = "b", .empty = true}, {.name = "c"}};
	struct rdc_change_result res;
	struct rdc_err err = {0};
	volatile sig_atomic_t stop = 0;
	struct rdc_change changes[3] = {{&fake_ops, &f[0]}, {&fake_ops, &f[1]}, {&fake_ops, &f[2]}};

	(void)state;
	assert_int_equal(commit(f, 3, &stop, &res, &err), 0);
	/* An empty plan is neither applied nor reverted. */
	assert_string_equal(journal, "apply a, apply c");
	assert_int_equal(res.applied, 3);
	assert_int_equal(res.stopped, 0);
	assert_int_equal(res.undo_rc, 0);
	assert_ptr_equal(f[0].stop_at, &stop);
	assert_true(rdc_change_any(changes, 3));
	assert_false(rdc_change_any(&changes[1], 1));
}

/* The third fails (and has undone itself): the second and first go back, newest first. */
static void test_failure_rolls_back_newest_first(void **state)
{
	struct fake f[] = {
		{.name = "a"}, {.name = "b"}, {.name = "c", .apply_rc = -EIO}, {.name = "d"}};
	struct rdc_change_result res;
	struct rdc_err err = {0};

	(void)state;
	assert_int_equal(commit(f, 4, NULL, &res, &err), -EIO);
	assert_string_equal(journal, "apply a, apply b, apply c, revert b, revert a");
	assert_string_equal(err.msg, "c refused");
	assert_int_equal(res.applied, 0);
	assert_int_equal(res.undo_rc, 0);
}

/* Every revert is tried; the first that fails is kept, and each is said in the error. */
static void test_failed_reverts_kept(void **state)
{
	struct fake f[] = {{.name = "a", .revert_rc = -EBUSY},
			   {.name = "b", .revert_rc = -EPERM},
			   {.name = "c", .apply_rc = -EINVAL}};
	struct rdc_change_result res;
	struct rdc_err err = {0};

	(void)state;
	assert_int_equal(commit(f, 3, NULL, &res, &err), -EINVAL);
	assert_string_equal(journal, "apply a, apply b, apply c, revert b, revert a");
	assert_int_equal(res.undo_rc, -EPERM);
	assert_string_equal(res.undo.msg, "b stuck");
	assert_non_null(strstr(err.msg, "c refused"));
	assert_non_null(strstr(err.detail, "restoring 'b' failed too: b stuck"));
	assert_non_null(strstr(err.detail, "restoring 'a' failed too: a stuck"));
}

/* A signal before the first plan: nothing is sent. */
static void test_stop_before(void **state)
{
	struct fake f[] = {{.name = "a"}, {.name = "b"}};
	struct rdc_change_result res;
	struct rdc_err err = {0};
	volatile sig_atomic_t stop = SIGTERM;

	(void)state;
	assert_int_equal(commit(f, 2, &stop, &res, &err), 0);
	assert_string_equal(journal, "");
	assert_int_equal(res.stopped, SIGTERM);
	assert_int_equal(res.applied, 0);
}

/* A signal while the second is applied: it completes, then it and the first go back. */
static void test_stop_during(void **state)
{
	struct fake f[] = {{.name = "a"}, {.name = "b", .raise = SIGINT}, {.name = "c"}};
	struct rdc_change_result res;
	struct rdc_err err = {0};
	volatile sig_atomic_t stop = 0;

	(void)state;
	assert_int_equal(commit(f, 3, &stop, &res, &err), 0);
	assert_string_equal(journal, "apply a, apply b, revert b, revert a");
	assert_int_equal(res.stopped, SIGINT);
	assert_int_equal(res.applied, 0);
}

/* A plan that stops between its own steps returns -EINTR, undone: the earlier ones go back. */
static void test_stop_inside_plan(void **state)
{
	struct fake f[] = {{.name = "a"}, {.name = "b", .raise = SIGHUP, .apply_rc = -EINTR}};
	struct rdc_change_result res;
	struct rdc_err err = {0};
	volatile sig_atomic_t stop = 0;

	(void)state;
	assert_int_equal(commit(f, 2, &stop, &res, &err), -EINTR);
	assert_string_equal(journal, "apply a, apply b, revert a");
	assert_int_equal(res.stopped, SIGHUP);
}

/* The verbs' door (cmd/write.c): nothing applied unless the gate is open and was asked. */
static void test_write_gate(void **state)
{
	static const struct {
		enum rdc_write_gate gate;
		bool asked;
	} shut[] = {
		{RDC_GATE_NONE, true},	  /* a read-only action */
		{RDC_GATE_DRY, true},	  /* --dry-run */
		{RDC_GATE_REFUSED, true}, /* --root, --replay */
		{RDC_GATE_OPEN, false},	  /* a write action that never asked */
	};
	struct fake f[] = {{.name = "a"}};
	struct rdc_change change = {&fake_ops, &f[0]};
	struct rdc_change_result res;
	volatile sig_atomic_t stop = 0;

	(void)state;
	for (size_t i = 0; i < sizeof(shut) / sizeof(shut[0]); i++) {
		struct rdc_ctx ctx = {.prog = "rdmactl",
				      .verb = "port",
				      .gate = shut[i].gate,
				      .gate_asked = shut[i].asked};
		struct rdc_err err = {0};

		journal[0] = '\0';
		assert_int_equal(rdc_write_commit(&ctx, &change, 1, &stop, &res, &err), -EPERM);
		assert_string_equal(journal, "");
		assert_non_null(strstr(err.msg, "gate did not let through"));
	}
	/* Open and asked (no locks held: a user's run, so no journal): it goes. */
	struct rdc_ctx ctx = {
		.prog = "rdmactl", .verb = "port", .gate = RDC_GATE_OPEN, .gate_asked = true};
	struct rdc_err err = {0};

	journal[0] = '\0';
	assert_int_equal(rdc_write_commit(&ctx, &change, 1, &stop, &res, &err), 0);
	assert_string_equal(journal, "apply a");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_all_applied),
		cmocka_unit_test(test_failure_rolls_back_newest_first),
		cmocka_unit_test(test_failed_reverts_kept),
		cmocka_unit_test(test_stop_before),
		cmocka_unit_test(test_stop_during),
		cmocka_unit_test(test_stop_inside_plan),
		cmocka_unit_test(test_write_gate),
	};

	return cmocka_run_group_tests_name("change", tests, NULL, NULL);
}
