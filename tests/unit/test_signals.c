// SPDX-License-Identifier: GPL-2.0-or-later
/* test_signals.c - SIGINT/SIGTERM/SIGHUP deferred around a write: recorded, not fatal, restored */
#define _GNU_SOURCE
#include <errno.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "cmd.h"
#include "signals.h"

static volatile sig_atomic_t outer_seen;

static void outer_cb(int sig)
{
	outer_seen = sig;
}

/* A handler of the caller's before begin, to see that end puts it back. */
static void install_outer(int sig)
{
	struct sigaction sa = {.sa_handler = outer_cb};

	sigemptyset(&sa.sa_mask);
	assert_int_equal(sigaction(sig, &sa, NULL), 0);
}

static void test_deferred_and_reported(void **state)
{
	static const int sigs[] = {SIGTERM, SIGINT, SIGHUP};

	(void)state;
	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++) {
		install_outer(sigs[i]);
		outer_seen = 0;
		rdc_sig_defer_begin();
		assert_int_equal(rdc_sig_pending(), 0);
		assert_int_equal(*rdc_sig_flag(), 0);
		/* Would have killed us, or run the caller's handler: only recorded. */
		assert_int_equal(raise(sigs[i]), 0);
		assert_int_equal(rdc_sig_pending(), sigs[i]);
		assert_int_equal(*rdc_sig_flag(), sigs[i]);
		assert_int_equal(outer_seen, 0);
		assert_int_equal(rdc_sig_defer_end(), sigs[i]);
		/* The caller's handler is back. */
		assert_int_equal(raise(sigs[i]), 0);
		assert_int_equal(outer_seen, sigs[i]);
		signal(sigs[i], SIG_DFL);
	}
}

static void test_first_signal_wins_and_none_is_zero(void **state)
{
	(void)state;
	install_outer(SIGTERM);
	install_outer(SIGINT);
	rdc_sig_defer_begin();
	raise(SIGINT);
	raise(SIGTERM);
	assert_int_equal(rdc_sig_defer_end(), SIGINT);
	/* A section without a signal reports 0, and a new one starts clean. */
	rdc_sig_defer_begin();
	assert_int_equal(rdc_sig_pending(), 0);
	assert_int_equal(rdc_sig_defer_end(), 0);
	signal(SIGTERM, SIG_DFL);
	signal(SIGINT, SIG_DFL);
}

static void test_ignored_stays_ignored(void **state)
{
	struct sigaction now;

	(void)state;
	signal(SIGINT, SIG_IGN);
	rdc_sig_defer_begin();
	assert_int_equal(sigaction(SIGINT, NULL, &now), 0);
	assert_true(now.sa_handler == SIG_IGN);
	raise(SIGINT);
	assert_int_equal(rdc_sig_defer_end(), 0);
	signal(SIGINT, SIG_DFL);
}

/*
 * SA_RESTART: a read() (a netlink recv() in rdmactl) under way when the
 * signal comes finishes with its data instead of failing with EINTR, which
 * would lose the kernel's answer to a request it may have carried out.
 */
static void test_blocking_call_is_restarted(void **state)
{
	int fd[2];
	char c = 0;
	pid_t child;
	ssize_t n;
	int status;

	(void)state;
	assert_int_equal(pipe(fd), 0);
	rdc_sig_defer_begin();
	child = fork();
	assert_true(child >= 0);
	if (child == 0) {
		struct timespec ms50 = {0, 50 * 1000 * 1000};

		nanosleep(&ms50, NULL);
		kill(getppid(), SIGTERM);
		nanosleep(&ms50, NULL);
		_exit(write(fd[1], "x", 1) == 1 ? 0 : 1);
	}
	n = read(fd[0], &c, 1);
	assert_int_equal(n, 1);
	assert_int_equal(c, 'x');
	assert_int_equal(rdc_sig_defer_end(), SIGTERM);
	assert_int_equal(waitpid(child, &status, 0), child);
	assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	close(fd[0]);
	close(fd[1]);
	signal(SIGTERM, SIG_DFL);
}

/* The exit status: 128 + the signal when restored; 1 when restoring failed. */
static void test_report(void **state)
{
	struct rdc_ctx ctx = {.prog = "rdmactl", .verb = "pfc"};
	struct rdc_err undo = {0};
	char buf[24];

	(void)state;
	assert_int_equal(rdc_sig_report(&ctx, SIGTERM, NULL), 128 + SIGTERM);
	assert_int_equal(rdc_sig_report(&ctx, SIGINT, NULL), 130);
	rdc_err_set(&undo, EIO, "cannot restore 'eth9'");
	assert_int_equal(rdc_sig_report(&ctx, SIGTERM, &undo), RDC_EXIT_FAIL);
	assert_string_equal(rdc_sig_name(SIGHUP, buf, sizeof(buf)), "SIGHUP");
	assert_string_equal(rdc_sig_name(SIGUSR1, buf, sizeof(buf)), "signal 10");
}

/* In a child: report @sig (restored, or not when @undo_failed), then end as main() does. */
static int child_ends(int sig, bool undo_failed)
{
	struct rdc_ctx ctx = {.prog = "rdmactl", .verb = "pfc"};
	struct rdc_err undo = {0};
	int status;
	pid_t pid = fork();

	assert_true(pid >= 0);
	if (pid == 0) {
		rdc_err_set(&undo, EIO, "cannot restore 'eth9'");
		rdc_sig_report(&ctx, sig, undo_failed ? &undo : NULL);
		rdc_sig_die_if_interrupted();
		_exit(7);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	return status;
}

/* Restored: the process dies by the signal itself, so a calling shell stops its script too. */
static void test_dies_by_the_signal(void **state)
{
	int status;

	(void)state;
	status = child_ends(SIGINT, false);
	assert_true(WIFSIGNALED(status) && WTERMSIG(status) == SIGINT);
	status = child_ends(SIGTERM, false);
	assert_true(WIFSIGNALED(status) && WTERMSIG(status) == SIGTERM);
	/* Restoring failed: an error, exit status 1 from main(), no death by signal. */
	status = child_ends(SIGTERM, true);
	assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 7);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_deferred_and_reported),
		cmocka_unit_test(test_first_signal_wins_and_none_is_zero),
		cmocka_unit_test(test_ignored_stays_ignored),
		cmocka_unit_test(test_blocking_call_is_restarted),
		cmocka_unit_test(test_report),
		cmocka_unit_test(test_dies_by_the_signal),
	};

	return cmocka_run_group_tests_name("signals", tests, NULL, NULL);
}
