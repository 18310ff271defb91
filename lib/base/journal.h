/* SPDX-License-Identifier: GPL-2.0-or-later */
/* journal.h - undo journals: a write's plans kept in /run/rdmactl until it is done */
#pragma once

#include <limits.h>
#include <net/if.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/change.h"
#include "base/err.h"
#include "base/lock.h"
#include "base/names.h"

/*
 * Every write keeps its plans (the state before, what it sends) in a journal
 * file from before its first step until it is verified or undone.  A journal
 * left behind is a write that did not finish (SIGKILL, a crash, a power cut
 * is not: /run is a tmpfs) or one waiting for `rdmactl confirm` (--confirm
 * SEC): the next write on one of its netdevs is refused, naming it, and
 * `rdmactl undo` restores the state before it.
 *
 * The file: text lines, then each plan's bytes (struct as this build lays it
 * out; a journal from another build or version is refused, not guessed):
 *
 *   rdmactl-undo 1
 *   version 0.1.0
 *   netns 4026531840        the network namespace's inode
 *   pid 1234                the writer
 *   started 1764851000      unix seconds
 *   state applying|pending  writing / written, waiting for confirm
 *   deadline 1764851030     pending: when the watcher restores it (unix s)
 *   command port set eth0 mtu 9000
 *   netdev eth0             every netdev the write holds (one line each)
 *   change link eth0 96     KIND NAME BYTES, a newline, the bytes, a newline
 *   end
 */
#define RDC_JOURNAL_DIR "/run/rdmactl"
#define RDC_JOURNAL_DIR_ENV "RDMACTL_RUN_DIR" /* another directory (tests) */
#define RDC_JOURNAL_MAX_CHANGES 64
#define RDC_JOURNAL_MAX_BYTES (16u << 20) /* a file larger than this is refused */

enum rdc_journal_state {
	RDC_JOURNAL_APPLYING, /* written before the first step: the writer may have died */
	RDC_JOURNAL_PENDING,  /* applied and verified, waiting for confirm until deadline */
};

struct rdc_journal_change {
	char kind[16];
	char name[IF_NAMESIZE];
	size_t size;
	const unsigned char *bytes; /* into the journal's buffer */
};

struct rdc_journal {
	char path[PATH_MAX];
	unsigned long long netns;
	long pid;
	int64_t started;  /* unix s */
	int64_t deadline; /* unix s, pending only (else 0) */
	enum rdc_journal_state state;
	char command[256]; /* printable ASCII only */
	size_t nnetdevs;
	char netdevs[RDC_LOCK_MAX][IF_NAMESIZE];
	size_t nchanges;
	struct rdc_journal_change changes[RDC_JOURNAL_MAX_CHANGES];
	unsigned char *buf; /* what was read (rdc_journal_parse) */
};

/* The directory: $RDMACTL_RUN_DIR or RDC_JOURNAL_DIR. */
const char *rdc_journal_dir(void);
/*
 * A new journal for this process in this network namespace: @command (its
 * words, non-printable bytes become '?') and the netdevs @locks holds.  Only
 * the header; nothing is written.
 */
int rdc_journal_init(struct rdc_journal *j, const char *command, const struct rdc_locks *locks,
		     struct rdc_err *err);
/*
 * Write the header and the non-empty plans of @changes to j->path, atomically
 * (base/safefile.h), mode 0600, the directory made root's alone (0700) when
 * missing; written again for each state.
 */
int rdc_journal_save(const struct rdc_journal *j, const struct rdc_change *changes, size_t n,
		     struct rdc_err *err);
/* Remove j->path (gone already is fine). */
int rdc_journal_remove(const struct rdc_journal *j, struct rdc_err *err);

/* Parse @len bytes of a journal file; j->buf is a copy (rdc_journal_free). -EINVAL: why. */
int rdc_journal_parse(const void *buf, size_t len, struct rdc_journal *j, struct rdc_err *err);
/* Read and parse @path: a regular file of this user's, not a symlink. */
int rdc_journal_read(const char *path, struct rdc_journal *j, struct rdc_err *err);
void rdc_journal_free(struct rdc_journal *j);
/* The journal files in the directory, sorted (none when it does not exist). */
int rdc_journal_list(struct rdc_names *paths, struct rdc_err *err);
/* Whether @j is of network namespace @netns and holds @ifname (NULL: any netdev). */
bool rdc_journal_covers(const struct rdc_journal *j, unsigned long long netns, const char *ifname);
/*
 * The plans of @j, each loaded by the ops in @kinds (NULL-terminated) of its
 * kind, into @out (RDC_JOURNAL_MAX_CHANGES); free them with
 * rdc_journal_plans_free().  -EINVAL: a kind no ops knows, or bytes its load
 * refuses.
 */
int rdc_journal_plans(const struct rdc_journal *j, const struct rdc_change_ops *const *kinds,
		      struct rdc_change *out, struct rdc_err *err);
void rdc_journal_plans_free(struct rdc_change *changes, size_t n);
/* "applying" or "pending". */
const char *rdc_journal_state_name(enum rdc_journal_state s);
