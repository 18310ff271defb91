/* SPDX-License-Identifier: GPL-2.0-or-later */
/* lock.h - one writer per netdev: flock(2) files under /run/lock/rdmactl */
#pragma once

#include <net/if.h>
#include <stddef.h>
#include <sys/types.h>

#include "base/err.h"

/*
 * Every write verb (port set, pfc set|apply, bond create|set|add|del|apply)
 * holds the lock of each netdev it changes from before it reads the state it
 * plans against until it has verified (or undone) its change, so two runs on
 * one netdev never interleave: one's rollback cannot undo the other's write.
 * A lock is flock(LOCK_EX) on DIR/net<INODE>.<NETDEV>.lock, INODE naming the
 * network namespace (eth0 in a namespace is another eth0); the holder's pid
 * is written into the file for the one who waits.  The kernel drops a lock
 * when its holder dies, however it dies: a stale file is never a held lock.
 * A lock another run holds is waited for, up to the wait, then refused:
 * "busy: pid N holds eth0 (FILE); try again".
 */
#define RDC_LOCK_DIR "/run/lock/rdmactl"
#define RDC_LOCK_DIR_ENV "RDMACTL_LOCK_DIR"   /* another directory (tests) */
#define RDC_LOCK_WAIT_S 10		      /* the default wait for a held lock */
#define RDC_LOCK_WAIT_ENV "RDMACTL_LOCK_WAIT" /* seconds to wait instead, 0 to 3600 */
#define RDC_LOCK_MAX 64			      /* netdevs one run may hold */

struct rdc_locks {
	size_t count;
	int fd[RDC_LOCK_MAX];
	char name[RDC_LOCK_MAX][IF_NAMESIZE];
};

void rdc_locks_init(struct rdc_locks *l);
/*
 * Take @ifname's lock unless already held: waits while another process
 * holds it, up to RDC_LOCK_WAIT_S (or $RDMACTL_LOCK_WAIT); -EBUSY naming the
 * holder after that; other errors (the directory cannot be made, is a
 * symlink or not root's) say which file and why.
 */
int rdc_locks_take(struct rdc_locks *l, const char *ifname, struct rdc_err *err);
/* Release every lock held (the files stay: removing one would race a waiter). */
void rdc_locks_release(struct rdc_locks *l);

/*
 * @dir, made with @mode when missing (its parent too, 0755), opened
 * O_DIRECTORY|O_NOFOLLOW: a directory of this user's that nobody else may
 * write (under /run/lock, world-writable and sticky, another user could have
 * made it first, or planted a symlink); with a @mode that others may not read
 * (0700), nobody else may read it either.  Returns the fd, or -errno with
 * why, @what naming it ("lock directory").
 */
int rdc_owned_dir_open(const char *dir, mode_t mode, const char *what, struct rdc_err *err);
/* The inode of this process's network namespace (/proc/self/ns/net), 0 when unknown. */
unsigned long long rdc_netns_inode(void);
