// SPDX-License-Identifier: GPL-2.0-or-later
/* write.c - a verb's write: its undo journal, the commit, and --confirm's revert */
#define _GNU_SOURCE /* close_range() */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <syslog.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include "base/log.h"
#include "base/util.h"
#include "bond/plan.h"
#include "dcb/plan.h"
#include "host/link.h"
#include "host/system.h"
#include "signals.h"
#include "write.h"

#define WATCH_POLL_MS 250 /* how often the watcher and the terminal wait look again */
#define SETTLE_TRIES 30	  /* the watcher's tries while the locks are busy (each waits) */

const struct rdc_change_ops *const rdc_journal_kinds[] = {&rdc_link_change_ops, &rdc_dcb_change_ops,
							  &rdc_bond_change_ops, NULL};

/* "rdmactl port set eth0 mtu 9000": what the journal says made it. */
static void command_text(const struct rdc_ctx *ctx, char *buf, size_t size)
{
	size_t used = (size_t)snprintf(buf, size, "%s", ctx->prog);

	for (int i = 1; i < ctx->argc && used < size; i++)
		used += (size_t)snprintf(buf + used, size - used, " %s", ctx->argv[i]);
}

/* "12:00:31" in local time. */
static const char *clock_text(int64_t when, char *buf, size_t size)
{
	time_t t = (time_t)when;
	struct tm tm;

	if (!localtime_r(&t, &tm) || !strftime(buf, size, "%H:%M:%S", &tm))
		snprintf(buf, size, "%lld", (long long)when);
	return buf;
}

/* ---- settling a journal: restore (undo, the deadline) or drop (confirm) ---- */

int rdc_journal_settle(const char *path, bool restore, struct rdc_journal *j, struct rdc_err *err)
{
	struct rdc_change *plans = NULL;
	struct rdc_locks locks;
	int rc;

	rdc_locks_init(&locks);
	rc = rdc_journal_read(path, j, err);
	if (rc)
		return rc;
	/* Its netdevs in its order: two settlers never hold one lock each and wait. */
	for (size_t i = 0; i < j->nnetdevs && !rc; i++)
		rc = rdc_locks_take(&locks, j->netdevs[i], err);
	rdc_journal_free(j);
	if (rc) {
		rdc_locks_release(&locks);
		return rc == -EBUSY ? -EAGAIN : rc;
	}
	/* Again under the locks: another confirm, undo or watcher may have settled it. */
	rc = rdc_journal_read(path, j, err);
	if (!rc && restore) {
		plans = calloc(RDC_JOURNAL_MAX_CHANGES, sizeof(*plans));
		rc = plans ? rdc_journal_plans(j, rdc_journal_kinds, plans, err)
			   : rdc_err_set(err, ENOMEM, "out of memory");
		if (!rc) {
			rc = rdc_change_restore(plans, j->nchanges, err);
			rdc_journal_plans_free(plans, j->nchanges);
		}
		free(plans);
	}
	/*
	 * Restored, or restored but for what another writer changed since (that
	 * stays theirs: no later try would do otherwise): the journal is done.
	 * Any other failure keeps it for the next try.
	 */
	if (!rc || (restore && rc == -EBUSY)) {
		struct rdc_err rm = {0};

		if (rdc_journal_remove(j, rc ? &rm : err) && !rc)
			rc = -EIO;
	}
	rdc_locks_release(&locks);
	return rc;
}

int rdc_journal_guard(const char *ifname, struct rdc_err *err)
{
	unsigned long long netns = rdc_netns_inode();
	struct rdc_names paths;
	int rc = rdc_journal_list(&paths, err);

	for (size_t i = 0; i < paths.count && !rc; i++) {
		struct rdc_journal j;
		struct rdc_err why = {0};
		char t[16];

		if (rdc_journal_read(paths.names[i], &j, &why)) {
			if (why.code == ENOENT)
				continue; /* settled while we looked */
			/* Which netdevs it holds cannot be known: it may be this one's. */
			rc = rdc_err_set_plain(
				err, EBUSY,
				"cannot tell whether '%s' has a change that did not finish: "
				"%s; look at it ('rdmactl undo list'), then remove it",
				ifname, why.msg);
			break;
		}
		if (rdc_journal_covers(&j, netns, ifname)) {
			if (j.state == RDC_JOURNAL_PENDING)
				rc = rdc_err_set_plain(
					err, EBUSY,
					"'%s' has a change awaiting confirmation until %s: "
					"'%s' (pid %ld, %s); 'rdmactl confirm %s' keeps it, "
					"'rdmactl undo %s' puts back the state before it",
					ifname, clock_text(j.deadline, t, sizeof(t)), j.command,
					j.pid, j.path, ifname, ifname);
			else
				rc = rdc_err_set_plain(
					err, EBUSY,
					"'%s' has a change that did not finish: '%s' (pid %ld, "
					"started %s, %s); 'rdmactl undo %s' puts back the state "
					"before it, 'rdmactl confirm %s' keeps the state as it is",
					ifname, j.command, j.pid,
					clock_text(j.started, t, sizeof(t)), j.path, ifname,
					ifname);
		}
		rdc_journal_free(&j);
	}
	rdc_names_free(&paths);
	return rc;
}

/* ---- the watcher: a detached process that keeps a --confirm deadline ---- */

static void watcher_log(int prio, const char *command, const char *what, const char *why)
{
	openlog("rdmactl", LOG_PID, LOG_USER);
	syslog(prio, "'%s' was not confirmed in time: %s%s%s", command, what, why ? ": " : "",
	       why ? why : "");
	closelog();
}

/* Sleep until the deadline unless the journal goes; then restore it.  Never returns. */
static void watcher_main(const struct rdc_ctx *ctx, const struct rdc_journal *pending)
{
	struct rdc_journal j;
	struct rdc_err err = {0};
	char path[PATH_MAX], command[sizeof(pending->command)];
	int64_t deadline = pending->deadline;
	int fd = open("/dev/null", O_RDWR | O_CLOEXEC);
	int rc = -EAGAIN;

	rdc_strlcpy(path, pending->path, sizeof(path));
	rdc_strlcpy(command, pending->command, sizeof(command));
	/* No terminal, no output of the writer's, none of its locks (they are its to drop). */
	if (fd >= 0) {
		dup2(fd, STDIN_FILENO);
		dup2(fd, STDOUT_FILENO);
		dup2(fd, STDERR_FILENO);
		if (fd > STDERR_FILENO)
			close(fd);
	}
	/*
	 * Nothing of the writer's: its locks (they are its to drop), the
	 * caller's descriptors (a test harness's pipe), its kernel sockets.  The
	 * seams start afresh on the live system (--confirm is live only).
	 */
	for (size_t i = 0; i < ctx->locks.count; i++)
		close(ctx->locks.fd[i]);
	rdc_system_close();
	close_range(STDERR_FILENO + 1, ~0U, 0);
	{
		const struct rdc_system_opts live = {0};

		if (rdc_system_open(&live, &err))
			_exit(1);
	}
	/* The session that started it may hang up: the deadline stands regardless. */
	signal(SIGHUP, SIG_IGN);
	signal(SIGINT, SIG_IGN);
	signal(SIGPIPE, SIG_IGN);
	signal(SIGTERM, SIG_DFL);
	if (chdir("/")) {
		/* the journal's path is absolute: nothing depends on the directory */
	}
	while ((int64_t)time(NULL) < deadline) {
		if (access(path, F_OK))
			_exit(0); /* confirmed, or undone by hand */
		usleep(WATCH_POLL_MS * 1000);
	}
	for (int i = 0; i < SETTLE_TRIES && rc == -EAGAIN; i++)
		rc = rdc_journal_settle(path, true, &j, &err);
	if (rc == -ENOENT)
		_exit(0); /* settled at the last moment */
	if (rc)
		watcher_log(LOG_ERR, command, "restoring the state before it failed", err.msg);
	else
		watcher_log(LOG_WARNING, command, "the state before it is restored", NULL);
	rdc_journal_free(&j);
	_exit(rc ? 1 : 0);
}

static int watcher_spawn(const struct rdc_ctx *ctx, const struct rdc_journal *j,
			 struct rdc_err *err)
{
	struct sigaction dfl = {.sa_handler = SIG_DFL}, old;
	int status = 0, rc = 0;
	pid_t pid;

	/* Nothing of ours buffered twice: the child leaves by _exit() only. */
	fflush(NULL);
	/* A caller that ignores SIGCHLD would have the child reaped before waitpid(). */
	sigemptyset(&dfl.sa_mask);
	sigaction(SIGCHLD, &dfl, &old);
	pid = fork();
	if (pid < 0) {
		rc = rdc_err_set(err, errno, "cannot start the watcher for --confirm");
		sigaction(SIGCHLD, &old, NULL);
		return rc;
	}
	if (pid == 0) {
		pid_t w;

		/* A session of its own, then a child of that which no terminal can claim. */
		if (setsid() < 0)
			_exit(1);
		w = fork();
		if (w != 0)
			_exit(w < 0);
		watcher_main(ctx, j);
	}
	while (waitpid(pid, &status, 0) < 0 && !rc)
		if (errno != EINTR)
			rc = rdc_err_set(err, errno, "cannot start the watcher for --confirm");
	sigaction(SIGCHLD, &old, NULL);
	if (!rc && (!WIFEXITED(status) || WEXITSTATUS(status)))
		rc = rdc_err_set(err, ECHILD, "cannot start the watcher for --confirm");
	return rc;
}

/* ---- the write ---- */

/* The journal of a write that is done: gone, or a warning that says how to drop it. */
static void journal_drop(struct rdc_journal *j)
{
	struct rdc_err err = {0};

	if (rdc_journal_remove(j, &err))
		log_warn("%s: %s; 'rdmactl confirm' drops it", err.msg, strerror(err.code));
	free(j);
}

/* Put back a verified write whose --confirm cannot be kept (no journal, no watcher): 0 undone. */
static int write_unconfirmable(const struct rdc_change *changes, size_t n, struct rdc_err *err)
{
	struct rdc_err undo = {0};
	/* Another writer's value left alone is as undone as this write can make it. */
	int rc = rdc_change_restore(changes, n, &undo);
	bool failed = rc && rc != -EBUSY;

	rdc_err_prefix(err, "--confirm: the restore cannot be promised");
	if (failed)
		rdc_err_append(err, "undoing the change failed too: %s", undo.msg);
	else
		rdc_err_append(err, "the change is undone");
	return failed;
}

/*
 * After a failed or stopped commit: each plan put itself back (or the engine
 * did), unless that failed too.  What still reads as a plan left it is put
 * back now; the journal goes only when nothing of the write is left.
 */
static void write_settle_failed(struct rdc_journal *j, const struct rdc_change *changes, size_t n,
				struct rdc_change_result *res, struct rdc_err *err)
{
	struct rdc_err again = {0};
	int rc = rdc_change_restore(changes, n, &again);

	if (!rc || rc == -EBUSY) {
		journal_drop(j);
		return;
	}
	/* Not back to where it was: the plans stay, for `rdmactl undo` to try again. */
	rdc_err_append(res->rc ? err : &res->undo, "'rdmactl undo' tries again (%s)", j->path);
	if (!res->rc && !res->undo_rc) {
		res->undo_rc = rc;
		res->undo = again;
	}
	free(j);
}

int rdc_write_commit(struct rdc_ctx *ctx, const struct rdc_change *changes, size_t n,
		     volatile sig_atomic_t *stop, struct rdc_change_result *res,
		     struct rdc_err *err)
{
	struct rdc_journal *j = NULL;
	char command[256];
	int rc;

	memset(res, 0, sizeof(*res));
	/*
	 * The one door every write of every verb goes through: shut unless the
	 * dispatcher opened the gate (a MUTATES action, live, no --dry-run) and
	 * the action asked before reading what it changes.  The dispatcher's own
	 * check comes after the action returns; this one comes before a byte is sent.
	 */
	if (ctx->gate != RDC_GATE_OPEN || !ctx->gate_asked)
		return res->rc = rdc_err_set(
			       err, EPERM, "internal error: a write the gate did not let through");
	/* A journal where the run holds its netdevs' locks: root, live. */
	if (ctx->locks.count && rdc_change_any(changes, n)) {
		j = calloc(1, sizeof(*j));
		if (!j)
			return res->rc = rdc_err_set(err, ENOMEM, "out of memory");
		command_text(ctx, command, sizeof(command));
		rc = rdc_journal_init(j, command, &ctx->locks, err);
		if (!rc)
			rc = rdc_journal_save(j, changes, n, err);
		if (rc) {
			rdc_err_prefix(err, "nothing changed: the undo journal cannot be kept");
			free(j);
			return res->rc = rc;
		}
	}
	rdc_change_commit(changes, n, stop, res, err);
	if (!j)
		return res->rc;
	/* A signal after the last plan went through: put it back as the report will say. */
	if (!res->rc && !res->stopped && stop && *stop) {
		res->stopped = (int)*stop;
		res->applied = 0;
	}
	if (res->rc || res->stopped) {
		write_settle_failed(j, changes, n, res, err);
		return res->rc;
	}
	if (!ctx->confirm_s) {
		journal_drop(j);
		return 0;
	}
	j->state = RDC_JOURNAL_PENDING;
	j->deadline = (int64_t)time(NULL) + ctx->confirm_s;
	rc = rdc_journal_save(j, changes, n, err);
	if (!rc)
		rc = watcher_spawn(ctx, j, err);
	if (rc) {
		if (write_unconfirmable(changes, n, err))
			free(j); /* kept, for `rdmactl undo` */
		else
			journal_drop(j);
		return res->rc = rc;
	}
	ctx->journal = j;
	return 0;
}

/* ---- waiting for the operator on a terminal ---- */

/*
 * What the terminal has after poll() said it has something, in one read()
 * (never a second, which could block past the deadline): 1 a line (Enter),
 * 0 end of input, -1 not a whole line yet.
 */
static int tty_line(void)
{
	char buf[256];
	ssize_t r = read(STDIN_FILENO, buf, sizeof(buf));

	if (r == 0)
		return 0;
	return r > 0 && memchr(buf, '\n', (size_t)r) ? 1 : -1;
}

int rdc_confirm_wait(struct rdc_ctx *ctx)
{
	struct rdc_journal *j = ctx->journal, settled;
	bool tty = isatty(STDIN_FILENO) && isatty(STDERR_FILENO);
	bool confirmed = false, gone = false;
	struct rdc_err err = {0};
	char t[16];
	int rc, sig;

	ctx->journal = NULL;
	/* `rdmactl confirm` from another shell takes these locks. */
	rdc_locks_release(&ctx->locks);
	fflush(stdout);
	fprintf(stderr,
		"%s: %s: changed; the state before comes back at %s (in %u s) unless confirmed: "
		"'rdmactl confirm'%s\n",
		ctx->prog, ctx->verb, clock_text(j->deadline, t, sizeof(t)), ctx->confirm_s,
		tty ? ", or Enter here (Ctrl-C restores it now)" : "");
	if (!tty) {
		free(j);
		return RDC_EXIT_OK;
	}
	/* An Enter typed before the question does not answer it. */
	tcflush(STDIN_FILENO, TCIFLUSH);
	rdc_sig_defer_begin();
	while (!rdc_sig_pending() && (int64_t)time(NULL) < j->deadline) {
		struct pollfd p = {.fd = STDIN_FILENO, .events = POLLIN};

		if (access(j->path, F_OK)) {
			gone = true;
			break;
		}
		if (tty && poll(&p, 1, WATCH_POLL_MS) > 0) {
			int line = tty_line();

			if (line > 0) {
				confirmed = true;
				break;
			}
			if (line == 0)
				tty = false; /* input closed: only the deadline is left */
		} else if (!tty) {
			usleep(WATCH_POLL_MS * 1000);
		}
	}
	sig = rdc_sig_defer_end();
	if (gone) {
		fprintf(stderr, "%s: %s: settled from elsewhere ('rdmactl confirm' or 'undo')\n",
			ctx->prog, ctx->verb);
		free(j);
		return RDC_EXIT_OK;
	}
	if (sig == SIGHUP) {
		/* The terminal is gone: the watcher keeps the deadline. */
		free(j);
		return 128 + sig;
	}
	rc = rdc_journal_settle(j->path, !confirmed, &settled, &err);
	rdc_journal_free(&settled);
	if (rc == -ENOENT) {
		/* The watcher, or another shell, got there first. */
		bool late = (int64_t)time(NULL) >= j->deadline;

		free(j);
		if (confirmed && late) {
			fprintf(stderr,
				"%s: %s: too late: the deadline passed and the state before "
				"is back\n",
				ctx->prog, ctx->verb);
			return RDC_EXIT_FAIL;
		}
		fprintf(stderr,
			"%s: %s: settled from elsewhere ('rdmactl confirm' or 'undo', or "
			"the watcher at the deadline)\n",
			ctx->prog, ctx->verb);
		return late ? RDC_EXIT_FAIL : RDC_EXIT_OK;
	}
	free(j);
	if (sig)
		return rdc_sig_report(ctx, sig, rc ? &err : NULL);
	if (rc) {
		rdc_err_prefix(&err, confirmed ? "confirming" : "not confirmed in %u s: restoring",
			       ctx->confirm_s);
		return rdc_fail(ctx, &err);
	}
	if (confirmed) {
		fprintf(stderr, "%s: %s: confirmed: the change stays\n", ctx->prog, ctx->verb);
		return RDC_EXIT_OK;
	}
	fprintf(stderr, "%s: %s: not confirmed in %u s: the state before is back\n", ctx->prog,
		ctx->verb, ctx->confirm_s);
	return RDC_EXIT_FAIL;
}
