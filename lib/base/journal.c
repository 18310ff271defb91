// SPDX-License-Identifier: GPL-2.0-or-later
/* journal.c - undo journals: a write's plans kept in /run/rdmactl until it is done */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "base/journal.h"
#include "base/safefile.h"
#include "base/util.h"

#define JOURNAL_MAGIC "rdmactl-undo 1"
#define JOURNAL_EXT ".undo"

const char *rdc_journal_dir(void)
{
	const char *env = getenv(RDC_JOURNAL_DIR_ENV);

	return env && *env ? env : RDC_JOURNAL_DIR;
}

const char *rdc_journal_state_name(enum rdc_journal_state s)
{
	return s == RDC_JOURNAL_PENDING ? "pending" : "applying";
}

int rdc_journal_init(struct rdc_journal *j, const char *command, const struct rdc_locks *locks,
		     struct rdc_err *err)
{
	size_t i;
	int n;

	memset(j, 0, sizeof(*j));
	j->netns = rdc_netns_inode();
	j->pid = (long)getpid();
	j->started = (int64_t)time(NULL);
	j->state = RDC_JOURNAL_APPLYING;
	for (i = 0; command[i] && i + 1 < sizeof(j->command); i++)
		j->command[i] = command[i] >= 0x20 && command[i] < 0x7f ? command[i] : '?';
	for (i = 0; i < locks->count; i++)
		rdc_strlcpy(j->netdevs[i], locks->name[i], sizeof(j->netdevs[i]));
	j->nnetdevs = locks->count;
	n = snprintf(j->path, sizeof(j->path), "%s/net%llu-%ld-%" PRId64 JOURNAL_EXT,
		     rdc_journal_dir(), j->netns, j->pid, j->started);
	if (n < 0 || (size_t)n >= sizeof(j->path))
		return rdc_err_set(err, ENAMETOOLONG, "the journal directory's name is too long");
	return 0;
}

/* A growing buffer for the file; on a failed allocation it stays failed. */
struct jbuf {
	char *data;
	size_t len, cap;
	bool failed;
};

static void jbuf_put(struct jbuf *b, const void *p, size_t n)
{
	if (b->failed)
		return;
	if (b->len + n > b->cap) {
		size_t cap = (b->len + n) * 2 + 256;
		char *grown = realloc(b->data, cap);

		if (!grown) {
			b->failed = true;
			return;
		}
		b->data = grown;
		b->cap = cap;
	}
	memcpy(b->data + b->len, p, n);
	b->len += n;
}

static void jbuf_printf(struct jbuf *b, const char *fmt, ...) RDC_PRINTF(2, 3);
static void jbuf_printf(struct jbuf *b, const char *fmt, ...)
{
	char line[512];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= sizeof(line))
		b->failed = true;
	else
		jbuf_put(b, line, (size_t)n);
}

/* The header and plans as one buffer in @b (the caller frees b->data, failed or not). */
static int journal_format(const struct rdc_journal *j, const struct rdc_change *changes, size_t n,
			  struct jbuf *b, struct rdc_err *err)
{
	size_t kept = 0;

	jbuf_printf(b, "%s\nversion %s\nnetns %llu\npid %ld\nstarted %" PRId64 "\nstate %s\n",
		    JOURNAL_MAGIC, RDC_VERSION, j->netns, j->pid, j->started,
		    rdc_journal_state_name(j->state));
	if (j->state == RDC_JOURNAL_PENDING)
		jbuf_printf(b, "deadline %" PRId64 "\n", j->deadline);
	jbuf_printf(b, "command %s\n", j->command);
	for (size_t i = 0; i < j->nnetdevs; i++)
		jbuf_printf(b, "netdev %s\n", j->netdevs[i]);
	for (size_t i = 0; i < n; i++) {
		const struct rdc_change_ops *ops = changes[i].ops;

		if (ops->empty(changes[i].plan))
			continue;
		if (!ops->kind || !ops->blob || ++kept > RDC_JOURNAL_MAX_CHANGES)
			return rdc_err_set(err, ENOTSUP,
					   "'%s': a change the undo journal cannot keep",
					   ops->name(changes[i].plan));
		jbuf_printf(b, "change %s %s %zu\n", ops->kind, ops->name(changes[i].plan),
			    ops->blob_size);
		jbuf_put(b, ops->blob(changes[i].plan), ops->blob_size);
		jbuf_put(b, "\n", 1);
	}
	jbuf_put(b, "end\n", 4);
	return b->failed ? rdc_err_set(err, ENOMEM, "cannot format the undo journal") : 0;
}

int rdc_journal_save(const struct rdc_journal *j, const struct rdc_change *changes, size_t n,
		     struct rdc_err *err)
{
	struct jbuf b = {0};
	int fd, rc;

	/* Root's alone: the plans say what to write where, and the next run trusts them. */
	fd = rdc_owned_dir_open(rdc_journal_dir(), 0700, "undo journal directory", err);
	if (fd < 0)
		return fd;
	close(fd);
	rc = journal_format(j, changes, n, &b, err);
	if (!rc)
		rc = rdc_file_replace(j->path, b.data, b.len, 0600, err);
	free(b.data);
	return rc;
}

int rdc_journal_remove(const struct rdc_journal *j, struct rdc_err *err)
{
	if (unlink(j->path) && errno != ENOENT)
		return rdc_err_set(err, errno, "cannot remove the undo journal '%s'", j->path);
	return 0;
}

/* ---- parsing: the file may be damaged or from another build ---- */

struct cursor {
	const unsigned char *p, *end;
};

/* The next line (without its newline) into @line; -1 at the end or for a line too long. */
static int next_line(struct cursor *c, char *line, size_t size)
{
	const unsigned char *nl = memchr(c->p, '\n', (size_t)(c->end - c->p));
	size_t n;

	if (!nl)
		return -1;
	n = (size_t)(nl - c->p);
	if (n >= size)
		return -1;
	memcpy(line, c->p, n);
	line[n] = '\0';
	c->p = nl + 1;
	return memchr(line, '\0', n) ? -1 : 0;
}

static int parse_i64(const char *s, int64_t *v)
{
	char *end;

	errno = 0;
	if (*s < '0' || *s > '9')
		return -1;
	*v = strtoll(s, &end, 10);
	return errno || *end ? -1 : 0;
}

static bool printable(const char *s)
{
	for (; *s; s++)
		if (*s < 0x20 || *s >= 0x7f)
			return false;
	return true;
}

static int parse_header_line(struct rdc_journal *j, const char *line, bool *have_state)
{
	const char *sp = strchr(line, ' ');
	const char *v = sp ? sp + 1 : "";
	size_t klen = sp ? (size_t)(sp - line) : strlen(line);
	int64_t num;

#define KEY(k) (klen == sizeof(k) - 1 && !strncmp(line, k, klen))
	if (KEY("version"))
		return strcmp(v, RDC_VERSION) ? -2 : 0;
	if (KEY("netns")) {
		if (parse_i64(v, &num) || num <= 0)
			return -1;
		j->netns = (unsigned long long)num;
		return 0;
	}
	if (KEY("pid"))
		return parse_i64(v, &num) || num <= 0 || num > INT32_MAX ? -1
									 : (j->pid = (long)num, 0);
	if (KEY("started"))
		return parse_i64(v, &j->started);
	if (KEY("deadline"))
		return parse_i64(v, &j->deadline);
	if (KEY("state")) {
		*have_state = true;
		if (!strcmp(v, "applying"))
			return j->state = RDC_JOURNAL_APPLYING, 0;
		if (!strcmp(v, "pending"))
			return j->state = RDC_JOURNAL_PENDING, 0;
		return -1;
	}
	if (KEY("command"))
		return printable(v) && !rdc_strlcpy(j->command, v, sizeof(j->command)) ? 0 : -1;
	if (KEY("netdev")) {
		if (j->nnetdevs >= RDC_LOCK_MAX || !rdc_ifname_valid(v))
			return -1;
		rdc_strlcpy(j->netdevs[j->nnetdevs++], v, sizeof(j->netdevs[0]));
		return 0;
	}
#undef KEY
	return -1;
}

/* The next space-separated word of @s into @word (@size bytes); NULL when none fits. */
static const char *next_word(const char *s, char *word, size_t size)
{
	size_t n = strcspn(s, " ");

	if (!n || n >= size)
		return NULL;
	memcpy(word, s, n);
	word[n] = '\0';
	return s[n] == ' ' ? s + n + 1 : s + n;
}

/* "change KIND NAME BYTES", then the bytes and a newline. */
static int parse_change(struct rdc_journal *j, struct cursor *c, const char *line)
{
	size_t left = (size_t)(c->end - c->p);
	struct rdc_journal_change *ch;
	char kind[16], name[IF_NAMESIZE], num[24];
	const char *rest = line + strlen("change ");
	uint32_t size;

	if (j->nchanges >= RDC_JOURNAL_MAX_CHANGES ||
	    !(rest = next_word(rest, kind, sizeof(kind))) ||
	    !(rest = next_word(rest, name, sizeof(name))) ||
	    !(rest = next_word(rest, num, sizeof(num))) || *rest ||
	    rdc_parse_u32_range(num, 0, RDC_JOURNAL_MAX_BYTES, &size) || !rdc_ifname_valid(name) ||
	    size >= left || c->p[size] != '\n')
		return -1;
	ch = &j->changes[j->nchanges++];
	rdc_strlcpy(ch->kind, kind, sizeof(ch->kind));
	rdc_strlcpy(ch->name, name, sizeof(ch->name));
	ch->size = size;
	ch->bytes = c->p;
	c->p += size + 1;
	return 0;
}

int rdc_journal_parse(const void *buf, size_t len, struct rdc_journal *j, struct rdc_err *err)
{
	struct cursor c;
	char line[512];
	bool have_state = false, ended = false;
	int lineno = 1, rc;

	memset(j, 0, sizeof(*j));
	if (len > RDC_JOURNAL_MAX_BYTES)
		return rdc_err_set(err, EFBIG, "larger than %u bytes", RDC_JOURNAL_MAX_BYTES);
	j->buf = malloc(len ? len : 1);
	if (!j->buf)
		return rdc_err_set(err, ENOMEM, "out of memory");
	memcpy(j->buf, buf, len);
	c.p = j->buf;
	c.end = j->buf + len;
	if (next_line(&c, line, sizeof(line)) || strcmp(line, JOURNAL_MAGIC)) {
		rc = rdc_err_set(err, EINVAL, "not an rdmactl undo journal (no '%s' line)",
				 JOURNAL_MAGIC);
		goto fail;
	}
	while (!ended) {
		lineno++;
		if (next_line(&c, line, sizeof(line))) {
			rc = rdc_err_set(err, EINVAL, "line %d: cut short or too long", lineno);
			goto fail;
		}
		if (!strcmp(line, "end")) {
			ended = true;
		} else if (!strncmp(line, "change ", 7)) {
			if (parse_change(j, &c, line)) {
				rc = rdc_err_set(err, EINVAL, "line %d: a bad change record",
						 lineno);
				goto fail;
			}
		} else if ((rc = parse_header_line(j, line, &have_state))) {
			rc = rc == -2 ? rdc_err_set(err, EINVAL,
						    "written by another rdmactl version (%s here)",
						    RDC_VERSION)
				      : rdc_err_set(err, EINVAL, "line %d: not understood", lineno);
			goto fail;
		}
	}
	if (c.p != c.end || !have_state || !j->netns || !j->pid ||
	    (j->state == RDC_JOURNAL_PENDING && !j->deadline)) {
		rc = rdc_err_set(err, EINVAL, "incomplete (a line missing, or bytes after 'end')");
		goto fail;
	}
	return 0;
fail:
	rdc_journal_free(j);
	return rc;
}

void rdc_journal_free(struct rdc_journal *j)
{
	free(j->buf);
	j->buf = NULL;
	j->nchanges = 0;
}

/*
 * rdmactl's own state, never part of a host snapshot (writes are refused
 * under --root), so it is read directly rather than through the seam.
 */
int rdc_journal_read(const char *path, struct rdc_journal *j, struct rdc_err *err)
{
	struct stat st;
	unsigned char *buf;
	size_t got = 0;
	int fd, rc;

	memset(j, 0, sizeof(*j));
	fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return rdc_err_set(err, errno, "cannot open the undo journal '%s'", path);
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) || st.st_uid != geteuid() ||
	    st.st_size > (off_t)RDC_JOURNAL_MAX_BYTES) {
		close(fd);
		return rdc_err_set(err, EPERM,
				   "the undo journal '%s' is not a file of this user's (at most %u "
				   "bytes)",
				   path, RDC_JOURNAL_MAX_BYTES);
	}
	buf = malloc((size_t)st.st_size + 1);
	if (!buf) {
		close(fd);
		return rdc_err_set(err, ENOMEM, "out of memory");
	}
	while (got < (size_t)st.st_size) {
		ssize_t r = read(fd, buf + got, (size_t)st.st_size - got);

		if (r <= 0) {
			rc = rdc_err_set(err, r ? errno : EIO, "cannot read the undo journal '%s'",
					 path);
			close(fd);
			free(buf);
			return rc;
		}
		got += (size_t)r;
	}
	close(fd);
	rc = rdc_journal_parse(buf, got, j, err);
	free(buf);
	if (rc) {
		rdc_err_prefix(err, "the undo journal '%s'", path);
		return rc;
	}
	rdc_strlcpy(j->path, path, sizeof(j->path));
	return 0;
}

static int name_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int rdc_journal_list(struct rdc_names *paths, struct rdc_err *err)
{
	const char *dir = rdc_journal_dir();
	struct dirent *de;
	DIR *d;

	memset(paths, 0, sizeof(*paths));
	d = opendir(dir);
	if (!d)
		return errno == ENOENT
			       ? 0
			       : rdc_err_set(err, errno,
					     "cannot read the undo journal directory '%s'", dir);
	while ((de = readdir(d))) {
		size_t len = strlen(de->d_name);
		char **grown;
		char *path;

		/* Journals only: the writer's temporary files start with a dot. */
		if (de->d_name[0] == '.' || len <= strlen(JOURNAL_EXT) ||
		    strcmp(de->d_name + len - strlen(JOURNAL_EXT), JOURNAL_EXT))
			continue;
		grown = realloc(paths->names, (paths->count + 1) * sizeof(*grown));
		if (grown)
			paths->names = grown;
		path = grown ? malloc(strlen(dir) + len + 2) : NULL;
		if (!path) {
			closedir(d);
			rdc_names_free(paths);
			return rdc_err_set(err, ENOMEM, "out of memory");
		}
		sprintf(path, "%s/%s", dir, de->d_name);
		paths->names[paths->count++] = path;
	}
	closedir(d);
	if (paths->count)
		qsort(paths->names, paths->count, sizeof(*paths->names), name_cmp);
	return 0;
}

bool rdc_journal_covers(const struct rdc_journal *j, unsigned long long netns, const char *ifname)
{
	if (j->netns != netns)
		return false;
	if (!ifname)
		return true;
	for (size_t i = 0; i < j->nnetdevs; i++)
		if (!strcmp(j->netdevs[i], ifname))
			return true;
	return false;
}

int rdc_journal_plans(const struct rdc_journal *j, const struct rdc_change_ops *const *kinds,
		      struct rdc_change *out, struct rdc_err *err)
{
	for (size_t i = 0; i < j->nchanges; i++) {
		const struct rdc_journal_change *ch = &j->changes[i];
		const struct rdc_change_ops *ops = NULL;
		int rc;

		for (size_t k = 0; kinds[k]; k++)
			if (kinds[k]->kind && !strcmp(kinds[k]->kind, ch->kind))
				ops = kinds[k];
		if (!ops || ch->size != ops->blob_size) {
			rdc_journal_plans_free(out, i);
			return rdc_err_set(err, EINVAL,
					   "a '%s' change of %zu bytes is none this "
					   "build knows",
					   ch->kind, ch->size);
		}
		out[i].ops = ops;
		rc = ops->load(ch->bytes, ch->name, &out[i].plan, err);
		if (rc) {
			rdc_err_prefix(err, "the %s change of '%s'", ch->kind, ch->name);
			rdc_journal_plans_free(out, i);
			return rc;
		}
	}
	return 0;
}

void rdc_journal_plans_free(struct rdc_change *changes, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(changes[i].plan);
		changes[i].plan = NULL;
	}
}
