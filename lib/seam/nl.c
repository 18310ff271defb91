// SPDX-License-Identifier: GPL-2.0-or-later
/* nl.c - kernel-message transport: live, record and replay */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <net/if.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <libmnl/libmnl.h>
#include <linux/genetlink.h>
#include <linux/sockios.h>

#include "base/log.h"
#include "base/safefile.h"
#include "base/util.h"
#include "seam/fs.h"
#include "seam/nl.h"
#include "seam/nlattr.h"

#define NL_MAX_PROTO 32
#define NL_RECV_BUF 65536
#define NL_REC_MAGIC "# rdmactl kernel recording v1"

struct nl_reply {
	unsigned char *data;
	size_t len;
};

/* One recorded request and what the kernel answered. */
struct nl_exchange {
	bool is_ioctl;
	int proto;
	char ifname[IF_NAMESIZE];
	unsigned char *req;
	size_t req_len;
	struct nl_reply *replies;
	size_t nreplies;
	int error;   /* positive errno from a "!" line, 0 if none */
	size_t line; /* of its "> " line, for messages */
	bool used;
	bool asked; /* a request matched it, used or not (strict "asked") */
};

#define NL_STRICT_LINES 16 /* requests named in a strict replay report; the rest are counted */

/* What a strict replay found wrong: one line per request, kept past rdc_nl_close(). */
struct nl_strict_report {
	char line[NL_STRICT_LINES][200];
	size_t n, total;
};

struct nl_genl_cache {
	char name[GENL_NAMSIZ];
	uint16_t id;
};

static struct {
	enum rdc_nl_mode mode;
	struct mnl_socket *sock[NL_MAX_PROTO];
	uint32_t seq;
	FILE *rec;
	struct rdc_file
		rec_file; /* rec writes a temporary file, renamed over the target at close */
	char *rec_path;
	struct nl_exchange *ex;
	size_t nex;
	struct nl_genl_cache genl[8];
	size_t ngenl;
	enum rdc_nl_strict strict;
	bool strict_env;	     /* set from the environment: the exit fails */
	struct nl_strict_report bad; /* requests asked but not recorded, or asked again */
} nl = {.mode = RDC_NL_LIVE};

/*
 * Filled at close when the environment asked for strictness, so that
 * rdc_nl_strict_end() still has it after the transport closed.
 */
static struct nl_strict_report nl_exit_report;
static char nl_exit_more[48]; /* "and N more", past the lines kept */

/*
 * One request at a time: the sockets, the sequence number and the recording
 * are shared, and a measurement (bond failover) talks to the kernel from its
 * main thread while a bench connection sets itself up in another.  Recursive:
 * a callback may ask again (a genl family lookup inside a request).
 */
static pthread_mutex_t nl_lock = PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP;

enum rdc_nl_mode rdc_nl_mode(void)
{
	return nl.mode;
}

/* ---- recording file ---------------------------------------------------- */

/*
 * Netlink datagrams are walked with size_t lengths: libmnl's mnl_nlmsg_ok()
 * compares nlmsg_len as an int, so a length above INT_MAX passes it and
 * mnl_nlmsg_next() then steps backwards.
 */
static bool nl_msg_ok(const struct nlmsghdr *nlh, size_t left)
{
	return left >= sizeof(*nlh) && nlh->nlmsg_len >= sizeof(*nlh) && nlh->nlmsg_len <= left;
}

static const struct nlmsghdr *nl_msg_next(const struct nlmsghdr *nlh, size_t *left)
{
	size_t step = NLMSG_ALIGN((size_t)nlh->nlmsg_len);

	if (step > *left)
		step = *left; /* the last message of a datagram may lack its padding */
	*left -= step;
	return (const struct nlmsghdr *)((const unsigned char *)nlh + step);
}

/* An errno the kernel (or a recording) reports, as -errno: 1..4095, anything else -EPROTO. */
static int nl_errno(int32_t neg)
{
	return neg < 0 && neg >= -RDC_NL_MAX_ERRNO ? neg : -EPROTO;
}

static void rec_line_hex(const char *prefix, const void *data, size_t len)
{
	char *hex = malloc(2 * len + 1);

	if (!hex) {
		fprintf(nl.rec, "! %d\n", ENOMEM);
		return;
	}
	rdc_hex_encode(data, len, hex);
	fprintf(nl.rec, "%s%s\n", prefix, hex);
	free(hex);
}

/*
 * One reply datagram: whole netlink messages, back to back, each at least a
 * header long and no longer than the bytes left, nothing after the last one.
 */
static const char *rec_check_datagram(const unsigned char *data, size_t len)
{
	const struct nlmsghdr *nlh = (const struct nlmsghdr *)data;
	size_t left = len;

	if (len == 0)
		return "empty reply";
	while (left > 0) {
		if (left < sizeof(*nlh))
			return "reply ends with a partial netlink header";
		if (nlh->nlmsg_len < sizeof(*nlh))
			return "netlink message shorter than its header";
		if (nlh->nlmsg_len > left)
			return "netlink message longer than the reply";
		nlh = nl_msg_next(nlh, &left);
	}
	return NULL;
}

static int rec_add_reply(struct nl_exchange *ex, const char *hex, const char **why)
{
	struct nl_reply *grown;
	size_t cap = strlen(hex) / 2;
	unsigned char *data;
	long n;

	if (ex->error) {
		*why = "a reply after the request failed";
		return -EINVAL;
	}
	/* Padded to the netlink alignment: attribute walks end at the aligned tail. */
	data = calloc(1, NLMSG_ALIGN(cap) + NLMSG_ALIGNTO);
	if (!data)
		return -ENOMEM;
	n = rdc_hex_decode(hex, data, cap);
	if (n < 0) {
		free(data);
		*why = "bad hex";
		return -EINVAL;
	}
	if (!ex->is_ioctl && (*why = rec_check_datagram(data, (size_t)n))) {
		free(data);
		return -EINVAL;
	}
	grown = realloc(ex->replies, (ex->nreplies + 1) * sizeof(*grown));
	if (!grown) {
		free(data);
		return -ENOMEM;
	}
	ex->replies = grown;
	ex->replies[ex->nreplies].data = data;
	ex->replies[ex->nreplies].len = (size_t)n;
	ex->nreplies++;
	return 0;
}

static int rec_parse_request(struct nl_exchange *ex, char *line, const char **why)
{
	char *save = NULL, *kind = strtok_r(line, " ", &save), *a = strtok_r(NULL, " ", &save);
	char *b = strtok_r(NULL, " ", &save), *c = strtok_r(NULL, " ", &save);
	const struct nlmsghdr *nlh;
	const char *hex;
	uint64_t proto;
	long n;

	*why = "not a request ('> nl PROTO HEX' or '> ioctl ethtool IFNAME HEX')";
	if (!kind || !a || !b)
		return -EINVAL;
	if (!strcmp(kind, "nl")) {
		if (c || rdc_parse_u64(a, 10, &proto) || proto >= NL_MAX_PROTO)
			return -EINVAL;
		ex->proto = (int)proto;
		hex = b;
	} else if (!strcmp(kind, "ioctl") && !strcmp(a, "ethtool") && c &&
		   !strtok_r(NULL, " ", &save)) {
		ex->is_ioctl = true;
		if (rdc_strlcpy(ex->ifname, b, sizeof(ex->ifname)))
			return -EINVAL;
		hex = c;
	} else {
		return -EINVAL;
	}
	ex->req_len = strlen(hex) / 2;
	ex->req = malloc(ex->req_len ? ex->req_len : 1);
	if (!ex->req)
		return -ENOMEM;
	*why = "bad hex";
	n = rdc_hex_decode(hex, ex->req, ex->req_len);
	if (n < 0)
		return -EINVAL;
	*why = "ethtool request shorter than its command";
	if (ex->is_ioctl && (size_t)n < sizeof(uint32_t))
		return -EINVAL;
	nlh = (const struct nlmsghdr *)ex->req;
	*why = "netlink request is not one whole message";
	if (!ex->is_ioctl && ((size_t)n < sizeof(*nlh) || nlh->nlmsg_len != (size_t)n))
		return -EINVAL;
	return 0;
}

/* The whole file of @fd (closed here), read once: a regular file only (never a FIFO or a device), at most the cap. */
static int rec_read(int fd, const char *path, char **out, size_t *outlen, struct rdc_err *err)
{
	struct stat st;
	size_t len = 0;
	ssize_t n;
	char *buf;
	int rc = 0;

	if (fstat(fd, &st) < 0) {
		rc = rdc_err_set(err, errno, "cannot open recording '%s'", path);
		goto out_close;
	}
	if (!S_ISREG(st.st_mode)) {
		rc = rdc_err_set(err, EINVAL, "recording '%s' is not a regular file", path);
		goto out_close;
	}
	if (st.st_size > RDC_NL_REC_MAX_BYTES) {
		rc = rdc_err_set(err, EFBIG, "recording '%s' is larger than %u bytes", path,
				 RDC_NL_REC_MAX_BYTES);
		goto out_close;
	}
	buf = malloc((size_t)st.st_size + 1);
	if (!buf) {
		rc = rdc_err_set(err, ENOMEM, "cannot load '%s'", path);
		goto out_close;
	}
	/* What was there at fstat(): a file that grows meanwhile is read up to that size. */
	while (len < (size_t)st.st_size) {
		n = read(fd, buf + len, (size_t)st.st_size - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			rc = rdc_err_set(err, errno, "cannot read recording '%s'", path);
			free(buf);
			goto out_close;
		}
		if (n == 0)
			break;
		len += (size_t)n;
	}
	buf[len] = '\0';
	*out = buf;
	*outlen = len;
out_close:
	close(fd);
	return rc;
}

/* An exchange is complete when the next request starts or the file ends. */
static const char *rec_check_exchange(const struct nl_exchange *ex)
{
	if (ex->is_ioctl && !ex->error && ex->nreplies != 1)
		return "an ethtool request needs one answer or one '! ERRNO'";
	/* The ioctl writes its answer over its request: the same length, or not one. */
	if (ex->is_ioctl && ex->nreplies == 1 && ex->replies[0].len != ex->req_len)
		return "an ethtool answer is not as long as its request";
	return NULL;
}

static int rec_parse_line(char *line, size_t lineno, struct nl_exchange **cur, size_t *cap,
			  const char **why)
{
	struct nl_exchange *grown;
	uint64_t code;
	int rc;

	if (!strncmp(line, "> ", 2)) {
		if (*cur && (*why = rec_check_exchange(*cur)))
			return -EINVAL;
		if (nl.nex == *cap) {
			*cap = *cap ? *cap * 2 : 16;
			grown = realloc(nl.ex, *cap * sizeof(*grown));
			if (!grown)
				return -ENOMEM;
			nl.ex = grown;
		}
		*cur = &nl.ex[nl.nex++];
		memset(*cur, 0, sizeof(**cur));
		(*cur)->line = lineno;
		return rec_parse_request(*cur, line + 2, why);
	}
	if (!strncmp(line, "< ", 2) && *cur)
		return rec_add_reply(*cur, line + 2, why);
	if (!strncmp(line, "! ", 2) && *cur) {
		*why = "errno is not 1..4095";
		rc = rdc_parse_u64(line + 2, 10, &code);
		if (rc || code == 0 || code > RDC_NL_MAX_ERRNO)
			return -EINVAL;
		*why = "'! ERRNO' after an answer";
		if ((*cur)->error || (*cur)->nreplies)
			return -EINVAL;
		(*cur)->error = (int)code;
		return 0;
	}
	*why = *cur ? "not '> ', '< ', '! ' or a '#' comment" : "an answer before any request";
	return -EINVAL;
}

/*
 * Everything is checked here, once, so that replay can trust what it walks:
 * line and file size, hex, every length, every netlink message of every
 * reply, and the order of requests and answers.
 */
static int rec_load(int fd, const char *path, struct rdc_err *err)
{
	struct nl_exchange *cur = NULL;
	size_t cap = 0, lineno = 0, len = 0, left;
	const char *why = NULL;
	char *buf = NULL, *line, *nlpos;
	int rc;

	rc = rec_read(fd, path, &buf, &len, err);
	if (rc)
		return rc;
	for (line = buf, left = len; left > 0 && !rc; lineno++) {
		char *next;
		size_t n;

		nlpos = memchr(line, '\n', left);
		n = nlpos ? (size_t)(nlpos - line) : left;
		next = nlpos ? nlpos + 1 : line + n;
		/* Every line the recorder writes ends with one: without it the file was cut. */
		if (!nlpos) {
			rc = rdc_err_set(
				err, EINVAL,
				"bad recording '%s' line %zu: no newline at its end (cut short?)",
				path, lineno + 1);
			break;
		}
		if (n > RDC_NL_REC_MAX_LINE) {
			rc = rdc_err_set(err, EINVAL,
					 "bad recording '%s' line %zu: longer than %u bytes", path,
					 lineno + 1, RDC_NL_REC_MAX_LINE);
			break;
		}
		line[n] = '\0';
		left -= nlpos ? n + 1 : n;
		if (strlen(line) != n) {
			rc = rdc_err_set(err, EINVAL, "bad recording '%s' line %zu: a NUL byte",
					 path, lineno + 1);
			break;
		}
		while (n > 0 && line[n - 1] == '\r')
			line[--n] = '\0';
		if (lineno == 0 && strcmp(line, NL_REC_MAGIC)) {
			rc = rdc_err_set(err, EINVAL, "'%s' is not an rdmactl kernel recording",
					 path);
			break;
		}
		if (n > 0 && line[0] != '#')
			rc = rec_parse_line(line, lineno + 1, &cur, &cap, &why);
		if (rc == -ENOMEM)
			rc = rdc_err_set(err, ENOMEM, "cannot load '%s'", path);
		else if (rc)
			rc = rdc_err_set(err, -rc, "bad recording '%s' line %zu: %s", path,
					 lineno + 1, why);
		line = next;
	}
	if (!rc && lineno == 0)
		rc = rdc_err_set(err, EINVAL, "'%s' is not an rdmactl kernel recording", path);
	if (!rc && cur && (why = rec_check_exchange(cur)))
		rc = rdc_err_set(err, EINVAL, "bad recording '%s' line %zu: %s", path, lineno, why);
	free(buf);
	return rc;
}

/* Compare a request with a recorded one, ignoring nlmsg_seq and nlmsg_pid. */
static bool rec_match_nl(const struct nl_exchange *ex, int proto, const struct nlmsghdr *req)
{
	const unsigned char *a = ex->req, *b = (const unsigned char *)req;
	const size_t skip_from = offsetof(struct nlmsghdr, nlmsg_seq);
	const size_t skip_to = offsetof(struct nlmsghdr, nlmsg_pid) + sizeof(req->nlmsg_pid);

	if (ex->is_ioctl || ex->proto != proto || ex->req_len != req->nlmsg_len)
		return false;
	return !memcmp(a, b, skip_from) && !memcmp(a + skip_to, b + skip_to, ex->req_len - skip_to);
}

static bool rec_match_ioctl(const struct nl_exchange *ex, const char *ifname, const void *data,
			    size_t len)
{
	return ex->is_ioctl && !strcmp(ex->ifname, ifname) && ex->req_len == len &&
	       !memcmp(ex->req, data, len);
}

/* ---- strict replay ------------------------------------------------------ */

static void strict_add(struct nl_strict_report *r, const char *what, size_t line, bool is_ioctl,
		       int proto, const char *ifname, const void *req, size_t len)
{
	char hex[65], where[32] = "";
	size_t shown = len > 32 ? 32 : len;

	r->total++;
	if (r->n == NL_STRICT_LINES)
		return;
	rdc_hex_encode(req, shown, hex);
	if (line)
		snprintf(where, sizeof(where), "line %zu: ", line);
	if (is_ioctl)
		snprintf(r->line[r->n++], sizeof(r->line[0]), "%s: %s> ioctl ethtool %s %s%s", what,
			 where, ifname, hex, shown < len ? "..." : "");
	else
		snprintf(r->line[r->n++], sizeof(r->line[0]), "%s: %s> nl %d %s%s", what, where,
			 proto, hex, shown < len ? "..." : "");
}

/*
 * The first unused exchange that @match accepts, else the last used one: a
 * command that samples twice (stats interval) consumes two recorded answers
 * in order, and repeats the last one if the recording has fewer (which strict
 * replay notes as a repeat).
 */
static struct nl_exchange *rec_take(struct nl_exchange *ex, bool matched, struct nl_exchange **last)
{
	if (!matched)
		return NULL;
	ex->asked = true;
	if (!ex->used) {
		ex->used = true;
		return ex;
	}
	*last = ex;
	return NULL;
}

/* A request as it was asked: a miss or a repeat is noted. */
static void strict_request(const struct nl_exchange *ex, const struct nl_exchange *last,
			   bool is_ioctl, int proto, const char *ifname, const void *req,
			   size_t len)
{
	if (!nl.strict || ex)
		return;
	if (last)
		strict_add(&nl.bad, "recorded answer used again", last->line, is_ioctl, proto,
			   ifname, req, len);
	else
		strict_add(&nl.bad, "request not in the recording", 0, is_ioctl, proto, ifname, req,
			   len);
}

static struct nl_exchange *rec_find_nl(int proto, const struct nlmsghdr *req)
{
	struct nl_exchange *last = NULL, *ex = NULL;

	/* On past the one taken: every answer to this request is asked (strict "asked"). */
	for (size_t i = 0; i < nl.nex; i++) {
		bool match = rec_match_nl(&nl.ex[i], proto, req);

		if (ex)
			nl.ex[i].asked |= match;
		else
			ex = rec_take(&nl.ex[i], match, &last);
	}
	strict_request(ex, last, false, proto, NULL, req, req->nlmsg_len);
	return ex ? ex : last;
}

static struct nl_exchange *rec_find_ioctl(const char *ifname, const void *data, size_t len)
{
	struct nl_exchange *last = NULL, *ex = NULL;

	for (size_t i = 0; i < nl.nex; i++) {
		bool match = rec_match_ioctl(&nl.ex[i], ifname, data, len);

		if (ex)
			nl.ex[i].asked |= match;
		else
			ex = rec_take(&nl.ex[i], match, &last);
	}
	strict_request(ex, last, true, 0, ifname, data, len);
	return ex ? ex : last;
}

/* The misses and repeats so far, then every answer left unused (in scope). */
static void strict_verdict(struct nl_strict_report *r)
{
	*r = nl.bad;
	for (size_t i = 0; i < nl.nex; i++) {
		const struct nl_exchange *ex = &nl.ex[i];

		if (ex->used || (nl.strict == RDC_NL_STRICT_ASKED && !ex->asked))
			continue;
		strict_add(r, "recorded answer not used", ex->line, ex->is_ioctl, ex->proto,
			   ex->ifname, ex->req, ex->req_len);
	}
}

void rdc_nl_set_strict(enum rdc_nl_strict strict)
{
	nl.strict = strict;
}

int rdc_nl_strict_check(struct rdc_err *err)
{
	struct nl_strict_report r;
	int rc;

	if (!nl.strict || nl.mode != RDC_NL_REPLAY)
		return 0;
	strict_verdict(&r);
	if (!r.total)
		return 0;
	rc = rdc_err_set(err, EPROTO, "strict replay: %s", r.line[0]);
	if (r.total > 1)
		rdc_err_detail(err, "%zu requests broke strict replay", r.total);
	return rc;
}

int rdc_nl_strict_end(struct rdc_err *err)
{
	/* Still open: judge it now.  Closed (diag collect reopens): what its close found. */
	if (nl.strict_env && nl.mode == RDC_NL_REPLAY)
		strict_verdict(&nl_exit_report);
	if (!nl_exit_report.total)
		return 0;
	if (nl_exit_report.total > nl_exit_report.n)
		snprintf(nl_exit_more, sizeof(nl_exit_more), "and %zu more",
			 nl_exit_report.total - nl_exit_report.n);
	rdc_err_set(err, EPROTO, "strict replay: %s", nl_exit_report.line[0]);
	if (nl_exit_report.total > 1)
		rdc_err_detail(err, "%zu requests broke strict replay", nl_exit_report.total);
	return -EPROTO;
}

const char *rdc_nl_strict_line(size_t i)
{
	if (i < nl_exit_report.n)
		return nl_exit_report.line[i];
	if (i == nl_exit_report.n && nl_exit_report.total > nl_exit_report.n)
		return nl_exit_more;
	return NULL;
}

static void strict_from_env(void)
{
	const char *v = getenv(RDC_NL_STRICT_ENV);

	if (!v || !v[0] || !strcmp(v, "0"))
		return;
	nl.strict = !strcmp(v, "asked") ? RDC_NL_STRICT_ASKED : RDC_NL_STRICT_ALL;
	nl.strict_env = true;
}

/* ---- open / close ------------------------------------------------------ */

/* Why the last recording could not be written, kept past rdc_nl_close(); code 0: it was. */
static struct rdc_err nl_rec_err;

int rdc_nl_open_replay_fd(int fd, const char *name, struct rdc_err *err)
{
	int rc;

	rdc_nl_close();
	nl.mode = RDC_NL_REPLAY;
	nl.seq = (uint32_t)time(NULL);
	strict_from_env();
	rc = rec_load(fd, name, err);
	if (rc) {
		/* Nothing of a bad recording is answered, nor judged at the end. */
		nl.strict_env = false;
		rdc_nl_close();
		nl.mode = RDC_NL_OFF;
	}
	return rc;
}

int rdc_nl_open(enum rdc_nl_mode mode, const char *file, struct rdc_err *err)
{
	int fd;

	rdc_nl_close();
	if ((mode == RDC_NL_REPLAY || mode == RDC_NL_RECORD) && !file)
		return rdc_err_set(err, EINVAL, "no recording file given");
	if (mode == RDC_NL_REPLAY) {
		fd = open(file, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
		if (fd < 0) {
			int saved = errno;

			nl.mode = RDC_NL_OFF;
			return rdc_err_set(err, saved, "cannot open recording '%s'", file);
		}
		return rdc_nl_open_replay_fd(fd, file, err);
	}
	nl.mode = mode;
	nl.seq = (uint32_t)time(NULL);
	if (mode == RDC_NL_RECORD) {
		int rc;

		memset(&nl_rec_err, 0, sizeof(nl_rec_err));
		/* Standard output carries the command's own output: a recording is a file. */
		if (rdc_file_is_stdout(file)) {
			nl.mode = RDC_NL_OFF;
			return rdc_err_set_usage(err,
						 "cannot record to '-': standard output carries "
						 "the command's output; name a file (./- for "
						 "one called '-')");
		}
		/* Never through a link, over a device or another user's file (safefile.h). */
		rc = rdc_file_begin(&nl.rec_file, file, 0600, err);
		if (rc) {
			nl.mode = RDC_NL_OFF;
			return rc;
		}
		/* The stream gets its own descriptor: the commit syncs and closes the first. */
		fd = dup(nl.rec_file.fd);
		nl.rec = fd >= 0 ? fdopen(fd, "we") : NULL;
		if (!nl.rec) {
			rc = rdc_err_set(err, errno, "cannot write recording '%s'", file);
			if (fd >= 0)
				close(fd);
			rdc_file_abort(&nl.rec_file);
			nl.mode = RDC_NL_OFF;
			return rc;
		}
		fprintf(nl.rec, "%s\n", NL_REC_MAGIC);
	}
	return 0;
}

int rdc_nl_record_result(struct rdc_err *err)
{
	if (!nl_rec_err.code)
		return 0;
	if (err)
		*err = nl_rec_err;
	return -nl_rec_err.code;
}

/* The recording written whole, or why not (a full disk shows at the flush). */
static void nl_record_finish(void)
{
	struct rdc_err err = {0};
	int failed = fflush(nl.rec) || ferror(nl.rec);
	int saved = errno;

	if (fclose(nl.rec) && !failed) {
		failed = 1;
		saved = errno;
	}
	nl.rec = NULL;
	if (failed) {
		rdc_err_set(&nl_rec_err, saved ? saved : EIO, "cannot write recording '%s'",
			    nl.rec_file.path);
		rdc_file_abort(&nl.rec_file);
		return;
	}
	if (rdc_file_commit(&nl.rec_file, &err))
		nl_rec_err = err;
}

void rdc_nl_close(void)
{
	struct nl_strict_report verdict;

	/* A later recording that kept the rule does not hide an earlier one that broke it. */
	if (nl.strict_env && nl.mode == RDC_NL_REPLAY) {
		strict_verdict(&verdict);
		if (verdict.total)
			nl_exit_report = verdict;
	}
	for (int i = 0; i < NL_MAX_PROTO; i++) {
		if (nl.sock[i])
			mnl_socket_close(nl.sock[i]);
		nl.sock[i] = NULL;
	}
	if (nl.rec)
		nl_record_finish();
	for (size_t i = 0; i < nl.nex; i++) {
		for (size_t r = 0; r < nl.ex[i].nreplies; r++)
			free(nl.ex[i].replies[r].data);
		free(nl.ex[i].replies);
		free(nl.ex[i].req);
	}
	free(nl.ex);
	nl.ex = NULL;
	nl.nex = 0;
	nl.ngenl = 0;
	nl.mode = RDC_NL_LIVE;
	nl.strict = RDC_NL_STRICT_OFF;
	nl.strict_env = false;
	memset(&nl.bad, 0, sizeof(nl.bad));
}

/* ---- netlink ------------------------------------------------------------ */

static int nl_socket(int proto, struct mnl_socket **out, struct rdc_err *err)
{
	struct mnl_socket *sock = NULL;
	int one = 1;

	if (nl.sock[proto]) {
		*out = nl.sock[proto];
		return 0;
	}
	sock = mnl_socket_open(proto);
	if (!sock)
		return rdc_err_set(err, errno, "cannot open netlink socket (protocol %d)", proto);
	if (mnl_socket_bind(sock, 0, MNL_SOCKET_AUTOPID) < 0) {
		int saved = errno;

		mnl_socket_close(sock);
		return rdc_err_set(err, saved, "cannot bind netlink socket (protocol %d)", proto);
	}
	/* Ask for the kernel's reason text, and don't echo our request in errors. */
	mnl_socket_setsockopt(sock, NETLINK_EXT_ACK, &one, sizeof(one));
	mnl_socket_setsockopt(sock, NETLINK_CAP_ACK, &one, sizeof(one));
	nl.sock[proto] = sock;
	*out = sock;
	return 0;
}

/*
 * The extended ack (NETLINK_EXT_ACK): attributes after an NLMSG_ERROR's
 * struct nlmsgerr and the request it echoes (unless NLM_F_CAPPED), or after
 * a DONE's status, flagged NLM_F_ACK_TLVS.  Every one the kernel sends is
 * judged here (seam/nlattr.h), the text is read.
 */
static const struct rdc_nla_policy nl_extack_policy[] = {
	RDC_NLA(NLMSGERR_ATTR_MSG, RDC_NLA_STRING),
	RDC_NLA(NLMSGERR_ATTR_OFFS, RDC_NLA_U32),
	RDC_NLA(NLMSGERR_ATTR_COOKIE, RDC_NLA_ANY),
	RDC_NLA(NLMSGERR_ATTR_POLICY, RDC_NLA_NEST),
	RDC_NLA(NLMSGERR_ATTR_MISS_TYPE, RDC_NLA_U32),
	RDC_NLA(NLMSGERR_ATTR_MISS_NEST, RDC_NLA_U32),
};

/*
 * The kernel's reason text for the error @kernel_rc (its -errno, already in
 * @err) into err->detail.  @offset: the payload bytes before the attributes,
 * SIZE_MAX when the echoed request's own length is no length.  0 (also when
 * there are none), or -EBADMSG with @err saying so when they are cut or
 * break their policy: a reply that cannot say why the kernel refused is not
 * passed off as one that had nothing to say.
 *
 *   flags          attributes                 result
 *   no ACK_TLVS    anything                   0, no detail
 *   ACK_TLVS       MSG "bad mode"             0, detail "kernel: bad mode"
 *   ACK_TLVS       OFFS u32, no MSG           0, no detail
 *   ACK_TLVS       MSG without its NUL        -EBADMSG "malformed extended ack ..."
 *   ACK_TLVS       last one cut short         -EBADMSG
 *   ACK_TLVS       echo longer than message   -EBADMSG
 *   ACK_TLVS       echo shorter than a header -EBADMSG
 */
static int nl_extack(const struct nlmsghdr *nlh, size_t offset, int kernel_rc, struct rdc_err *err)
{
	const struct nlattr *tb[RDC_ARRAY_SIZE(nl_extack_policy)];
	struct rdc_nla_why why;
	int rc;

	if (!(nlh->nlmsg_flags & NLM_F_ACK_TLVS))
		return 0;
	if (offset == SIZE_MAX) {
		snprintf(why.text, sizeof(why.text),
			 "the request it echoes is shorter than a netlink header");
		rc = -EBADMSG;
	} else if (offset > nlh->nlmsg_len - NLMSG_HDRLEN) {
		snprintf(why.text, sizeof(why.text),
			 "the request it echoes runs past the message's %u bytes", nlh->nlmsg_len);
		rc = -EBADMSG;
	} else {
		rc = rdc_nla_parse_msg(nlh, offset, nl_extack_policy, RDC_ARRAY_SIZE(tb), tb, &why);
	}
	if (rc) {
		rdc_err_set(err, EBADMSG, "malformed extended ack in the kernel's answer");
		/* The detail says it alone, for a caller that restates the message. */
		rdc_err_detail(err, "extended ack: %s; the kernel's error: %s", why.text,
			       strerror(-kernel_rc));
		return -EBADMSG;
	}
	if (tb[NLMSGERR_ATTR_MSG])
		rdc_err_detail(err, "kernel: %s", mnl_attr_get_str(tb[NLMSGERR_ATTR_MSG]));
	return 0;
}

struct nl_talk {
	uint32_t seq;
	rdc_nl_msg_cb cb;
	void *arg;
	int cb_rc;     /* first error a callback returned */
	int kernel_rc; /* -errno from NLMSG_ERROR or DONE */
	bool done;
};

/* Walk one received datagram; sets t->done at ACK, error or DONE. */
static int nl_process(struct nl_talk *t, const void *buf, size_t len, struct rdc_err *err)
{
	const struct nlmsghdr *nlh = buf;
	size_t n = len;

	while (nl_msg_ok(nlh, n)) {
		if (nlh->nlmsg_seq != t->seq) {
			/* A late answer to an earlier request; not ours. */
		} else if (nlh->nlmsg_type == NLMSG_ERROR) {
			const struct nlmsgerr *e = mnl_nlmsg_get_payload(nlh);
			size_t off;

			if (nlh->nlmsg_len < mnl_nlmsg_size(sizeof(*e))) {
				t->kernel_rc =
					rdc_err_set(err, EBADMSG, "kernel error message too short");
				t->done = true;
				return 0;
			}
			if (e->error) {
				/* Never negated as it came: INT_MIN has no positive. */
				t->kernel_rc = nl_errno(e->error);
				rdc_err_set(err, -t->kernel_rc, "kernel refused the request");
				off = sizeof(*e);
				/* The echoed request follows unless capped; a bad length is no length. */
				if (!(nlh->nlmsg_flags & NLM_F_CAPPED))
					off = e->msg.nlmsg_len >= sizeof(struct nlmsghdr)
						      ? off + e->msg.nlmsg_len -
								sizeof(struct nlmsghdr)
						      : SIZE_MAX;
				if (nl_extack(nlh, off, t->kernel_rc, err))
					t->kernel_rc = -EBADMSG;
			}
			t->done = true;
		} else if (nlh->nlmsg_type == NLMSG_DONE) {
			const int *status = mnl_nlmsg_get_payload(nlh);

			if (nlh->nlmsg_len >= mnl_nlmsg_size(sizeof(int)) && *status < 0) {
				t->kernel_rc = nl_errno(*status);
				rdc_err_set(err, -t->kernel_rc,
					    "kernel ended the dump with an error");
				if (nl_extack(nlh, sizeof(int), t->kernel_rc, err))
					t->kernel_rc = -EBADMSG;
			}
			t->done = true;
		} else if (nlh->nlmsg_type >= NLMSG_MIN_TYPE && !t->cb_rc && t->cb) {
			/* Keep draining after a callback error so the socket stays in step. */
			t->cb_rc = t->cb(nlh, t->arg);
		}
		nlh = nl_msg_next(nlh, &n);
	}
	return 0;
}

static int nl_talk_live(struct nl_talk *t, int proto, struct nlmsghdr *req, struct rdc_err *err)
{
	struct mnl_socket *sock = NULL;
	unsigned char *buf;
	ssize_t n;
	int rc;

	rc = nl_socket(proto, &sock, err);
	if (rc) {
		if (nl.rec)
			fprintf(nl.rec, "! %d\n", -rc);
		return rc;
	}
	req->nlmsg_pid = 0;
	if (mnl_socket_sendto(sock, req, req->nlmsg_len) < 0) {
		rc = rdc_err_set(err, errno, "cannot send netlink request");
		if (nl.rec)
			fprintf(nl.rec, "! %d\n", -rc);
		return rc;
	}
	buf = calloc(1, NL_RECV_BUF);
	if (!buf)
		return rdc_err_set(err, ENOMEM, "cannot receive netlink reply");
	while (!t->done) {
		n = mnl_socket_recvfrom(sock, buf, NL_RECV_BUF);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			rc = rdc_err_set(err, errno, "cannot receive netlink reply");
			break;
		}
		if (nl.rec)
			rec_line_hex("< ", buf, (size_t)n);
		nl_process(t, buf, (size_t)n, err);
	}
	free(buf);
	return rc;
}

static int nl_talk_replay(struct nl_talk *t, int proto, struct nlmsghdr *req, struct rdc_err *err)
{
	struct nl_exchange *ex = rec_find_nl(proto, req);

	if (!ex)
		return rdc_err_set(err, ENODATA, "request not in the kernel recording");
	if (ex->error)
		return rdc_err_set(err, ex->error, "recorded request failed");
	for (size_t i = 0; i < ex->nreplies && !t->done; i++) {
		/* Padded like the loaded copy: attribute walks end at the aligned tail. */
		unsigned char *copy = calloc(1, NLMSG_ALIGN(ex->replies[i].len) + NLMSG_ALIGNTO);
		const struct nlmsghdr *nlh;
		size_t left = ex->replies[i].len;

		if (!copy)
			return rdc_err_set(err, ENOMEM, "cannot replay reply");
		memcpy(copy, ex->replies[i].data, ex->replies[i].len);
		/* Checked whole when loaded; the walk is bounded again anyway. */
		for (nlh = (struct nlmsghdr *)copy; nl_msg_ok(nlh, left);
		     nlh = nl_msg_next(nlh, &left))
			((struct nlmsghdr *)nlh)->nlmsg_seq = t->seq;
		nl_process(t, copy, ex->replies[i].len, err);
		free(copy);
	}
	if (!t->done)
		return rdc_err_set(err, EPROTO, "kernel recording ends in the middle of a reply");
	return 0;
}

static int nl_talk_locked(int proto, struct nlmsghdr *req, unsigned int flags, rdc_nl_msg_cb cb,
			  void *arg, struct rdc_err *err)
{
	struct nl_talk t = {.cb = cb, .arg = arg};
	int rc;

	if (proto < 0 || proto >= NL_MAX_PROTO)
		return rdc_err_set(err, EPROTONOSUPPORT, "bad netlink protocol %d", proto);
	if ((flags & RDC_NL_WRITE) && (nl.mode == RDC_NL_REPLAY || nl.mode == RDC_NL_OFF))
		return rdc_err_set(err, EROFS, "writes are refused under --root or --replay");
	if (nl.mode == RDC_NL_OFF)
		return rdc_err_set(err, ENODATA, "no kernel recording in the root directory");

	req->nlmsg_seq = t.seq = ++nl.seq;
	/*
	 * libnl leaves NLM_F_REQUEST to its own send path; without it the kernel
	 * only acknowledges.  A plain request must be acknowledged, or we could
	 * not tell when its answer ended.
	 */
	req->nlmsg_flags |= NLM_F_REQUEST;
	if (!(req->nlmsg_flags & NLM_F_DUMP))
		req->nlmsg_flags |= NLM_F_ACK;
	if (nl.rec) {
		char prefix[24];

		snprintf(prefix, sizeof(prefix), "> nl %d ", proto);
		rec_line_hex(prefix, req, req->nlmsg_len);
	}
	if (nl.mode == RDC_NL_REPLAY)
		rc = nl_talk_replay(&t, proto, req, err);
	else
		rc = nl_talk_live(&t, proto, req, err);
	if (rc)
		return rc;
	if (t.kernel_rc)
		return t.kernel_rc;
	if (t.cb_rc)
		return t.cb_rc;
	return 0;
}

int rdc_nl_talk(int proto, struct nlmsghdr *req, unsigned int flags, rdc_nl_msg_cb cb, void *arg,
		struct rdc_err *err)
{
	int rc;

	pthread_mutex_lock(&nl_lock);
	rc = nl_talk_locked(proto, req, flags, cb, arg, err);
	pthread_mutex_unlock(&nl_lock);
	return rc;
}

/* ---- ethtool ioctl ----------------------------------------------------- */

static int ioctl_live(const char *ifname, void *data, struct rdc_err *err)
{
	struct ifreq ifr;
	int fd, rc = 0;

	fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		/* No IPv4 in this namespace: any socket reaches dev_ioctl(). */
		fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return rdc_err_set(err, errno, "cannot open socket for ethtool");
	memset(&ifr, 0, sizeof(ifr));
	rdc_strlcpy(ifr.ifr_name, ifname, sizeof(ifr.ifr_name));
	ifr.ifr_data = data;
	if (ioctl(fd, SIOCETHTOOL, &ifr) < 0)
		rc = rdc_err_set(err, errno, "ethtool request on '%s' failed", ifname);
	close(fd);
	return rc;
}

static int nl_ethtool_locked(const char *ifname, void *data, size_t len, unsigned int flags,
			     struct rdc_err *err)
{
	struct nl_exchange *ex;
	int rc;

	if (strlen(ifname) >= IF_NAMESIZE || strchr(ifname, ' '))
		return rdc_err_set(err, EINVAL, "bad interface name '%s'", ifname);
	if ((flags & RDC_NL_WRITE) && (nl.mode == RDC_NL_REPLAY || nl.mode == RDC_NL_OFF))
		return rdc_err_set(err, EROFS, "writes are refused under --root or --replay");
	if (nl.mode == RDC_NL_OFF)
		return rdc_err_set(err, ENODATA, "no kernel recording in the root directory");
	if (nl.mode == RDC_NL_REPLAY) {
		ex = rec_find_ioctl(ifname, data, len);
		if (!ex)
			return rdc_err_set(err, ENODATA,
					   "ethtool request on '%s' not in the kernel recording",
					   ifname);
		if (ex->error)
			return rdc_err_set(err, ex->error, "ethtool request on '%s' failed",
					   ifname);
		if (ex->nreplies != 1 || ex->replies[0].len != len)
			return rdc_err_set(err, EPROTO, "bad recorded ethtool answer for '%s'",
					   ifname);
		memcpy(data, ex->replies[0].data, len);
		return 0;
	}
	if (nl.rec) {
		char prefix[48];

		snprintf(prefix, sizeof(prefix), "> ioctl ethtool %s ", ifname);
		rec_line_hex(prefix, data, len);
	}
	rc = ioctl_live(ifname, data, err);
	if (nl.rec) {
		if (rc)
			fprintf(nl.rec, "! %d\n", -rc);
		else
			rec_line_hex("< ", data, len);
	}
	return rc;
}

int rdc_nl_ethtool_ioctl(const char *ifname, void *data, size_t len, unsigned int flags,
			 struct rdc_err *err)
{
	int rc;

	pthread_mutex_lock(&nl_lock);
	rc = nl_ethtool_locked(ifname, data, len, flags, err);
	pthread_mutex_unlock(&nl_lock);
	return rc;
}

/* ---- generic netlink family ids ---------------------------------------- */

/* What the controller's answer to CTRL_CMD_GETFAMILY holds that is read or judged. */
static const struct rdc_nla_policy genl_ctrl_policy[] = {
	RDC_NLA(CTRL_ATTR_FAMILY_ID, RDC_NLA_U16),
	RDC_NLA(CTRL_ATTR_FAMILY_NAME, RDC_NLA_STRING),
	RDC_NLA(CTRL_ATTR_VERSION, RDC_NLA_U32),
	RDC_NLA(CTRL_ATTR_HDRSIZE, RDC_NLA_U32),
	RDC_NLA(CTRL_ATTR_MAXATTR, RDC_NLA_U32),
	RDC_NLA(CTRL_ATTR_OPS, RDC_NLA_NEST),
	RDC_NLA(CTRL_ATTR_MCAST_GROUPS, RDC_NLA_NEST),
};

struct genl_lookup {
	const char *name; /* the family asked for */
	uint16_t id;	  /* 0 until an answer gave one */
	struct rdc_nla_why why;
};

/*
 * One CTRL_CMD_NEWFAMILY answer:
 *
 *   attributes                              result
 *   FAMILY_ID 20, FAMILY_NAME "ethtool"     id 20
 *   FAMILY_ID 20 (no name)                  id 20
 *   FAMILY_ID of 1 or 4 bytes, cut, junk    -EBADMSG, why names it
 *   no FAMILY_ID, or one below GENL_MIN_ID  -EBADMSG
 *   FAMILY_NAME of another family           -EBADMSG
 */
static int genl_family_cb(const struct nlmsghdr *nlh, void *arg)
{
	const struct nlattr *tb[RDC_ARRAY_SIZE(genl_ctrl_policy)];
	struct genl_lookup *l = arg;
	uint16_t id;
	int rc = rdc_nla_parse_msg(nlh, GENL_HDRLEN, genl_ctrl_policy, RDC_ARRAY_SIZE(tb), tb,
				   &l->why);

	if (rc)
		return rc;
	if (!tb[CTRL_ATTR_FAMILY_ID]) {
		snprintf(l->why.text, sizeof(l->why.text), "no CTRL_ATTR_FAMILY_ID");
		return -EBADMSG;
	}
	id = mnl_attr_get_u16(tb[CTRL_ATTR_FAMILY_ID]);
	if (id < GENL_MIN_ID) {
		snprintf(l->why.text, sizeof(l->why.text),
			 "CTRL_ATTR_FAMILY_ID %u is below the first family id %u", id, GENL_MIN_ID);
		return -EBADMSG;
	}
	if (tb[CTRL_ATTR_FAMILY_NAME] &&
	    strcmp(mnl_attr_get_str(tb[CTRL_ATTR_FAMILY_NAME]), l->name)) {
		snprintf(l->why.text, sizeof(l->why.text), "it names another family, '%.*s'",
			 GENL_NAMSIZ, mnl_attr_get_str(tb[CTRL_ATTR_FAMILY_NAME]));
		return -EBADMSG;
	}
	l->id = id;
	return 0;
}

static int nl_genl_family_locked(const char *name, uint16_t *id, struct rdc_err *err)
{
	char buf[256];
	struct nlmsghdr *nlh;
	struct genlmsghdr *genl;
	struct genl_lookup l = {.name = name};
	int rc;

	/* Zeroed, so attribute padding is deterministic: recordings match by bytes. */
	memset(buf, 0, sizeof(buf));
	for (size_t i = 0; i < nl.ngenl; i++) {
		if (!strcmp(nl.genl[i].name, name)) {
			*id = nl.genl[i].id;
			return 0;
		}
	}
	nlh = mnl_nlmsg_put_header(buf);
	nlh->nlmsg_type = GENL_ID_CTRL;
	nlh->nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK;
	genl = mnl_nlmsg_put_extra_header(nlh, sizeof(*genl));
	genl->cmd = CTRL_CMD_GETFAMILY;
	genl->version = 1;
	mnl_attr_put_strz(nlh, CTRL_ATTR_FAMILY_NAME, name);
	rc = rdc_nl_talk(NETLINK_GENERIC, nlh, 0, genl_family_cb, &l, err);
	if (rc == -EBADMSG && l.why.text[0])
		return rdc_err_set(
			err, EBADMSG,
			"the generic netlink controller's answer for '%s' is malformed: %s", name,
			l.why.text);
	if (rc)
		return rc;
	if (!l.id)
		return rdc_err_set(err, ENOENT, "no generic netlink family '%s'", name);
	if (nl.ngenl < RDC_ARRAY_SIZE(nl.genl)) {
		rdc_strlcpy(nl.genl[nl.ngenl].name, name, sizeof(nl.genl[0].name));
		nl.genl[nl.ngenl++].id = l.id;
	}
	*id = l.id;
	return 0;
}

int rdc_nl_genl_family(const char *name, uint16_t *id, struct rdc_err *err)
{
	int rc;

	pthread_mutex_lock(&nl_lock);
	rc = nl_genl_family_locked(name, id, err);
	pthread_mutex_unlock(&nl_lock);
	return rc;
}

/* ---- event monitor ------------------------------------------------------ */

#define MON_BUF 32768	      /* one datagram: a few RTM_NEWLINK of ~1.5 KiB */
#define MON_RCVBUF (1u << 20) /* room for a burst while the reader is busy */
#define MON_MAX_DATAGRAMS 64  /* per recv call: bounded, the next call reads on */

struct rdc_nl_monitor {
	struct mnl_socket *sock;
	uint64_t stamp_ns; /* when the datagram being delivered was read */
	unsigned char buf[MON_BUF];
};

static uint64_t mon_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

int rdc_nl_monitor_open(struct rdc_nl_monitor **out, int proto, unsigned int group,
			struct rdc_err *err)
{
	struct rdc_nl_monitor *m;
	int size = MON_RCVBUF, saved;

	*out = NULL;
	if (nl.mode == RDC_NL_REPLAY || nl.mode == RDC_NL_OFF)
		return rdc_err_set(err, EOPNOTSUPP,
				   "kernel events cannot be replayed: this needs the live kernel");
	if (proto < 0 || proto >= NL_MAX_PROTO)
		return rdc_err_set(err, EPROTONOSUPPORT, "bad netlink protocol %d", proto);
	m = calloc(1, sizeof(*m));
	if (!m)
		return rdc_err_set(err, ENOMEM, "out of memory");
	m->sock = mnl_socket_open2(proto, SOCK_CLOEXEC | SOCK_NONBLOCK);
	if (!m->sock) {
		saved = errno;
		goto err_free;
	}
	if (mnl_socket_bind(m->sock, 0, MNL_SOCKET_AUTOPID) < 0 ||
	    mnl_socket_setsockopt(m->sock, NETLINK_ADD_MEMBERSHIP, &group, sizeof(group)) < 0) {
		saved = errno;
		goto err_close;
	}
	/* A larger buffer makes overruns rarer; FORCE needs CAP_NET_ADMIN, the plain one is capped. */
	if (setsockopt(mnl_socket_get_fd(m->sock), SOL_SOCKET, SO_RCVBUFFORCE, &size, sizeof(size)))
		setsockopt(mnl_socket_get_fd(m->sock), SOL_SOCKET, SO_RCVBUF, &size, sizeof(size));
	*out = m;
	return 0;

err_close:
	mnl_socket_close(m->sock);
err_free:
	free(m);
	return rdc_err_set(err, saved, "cannot listen to kernel events (protocol %d, group %u)",
			   proto, group);
}

void rdc_nl_monitor_close(struct rdc_nl_monitor *m)
{
	if (!m)
		return;
	mnl_socket_close(m->sock);
	free(m);
}

int rdc_nl_monitor_fd(const struct rdc_nl_monitor *m)
{
	return mnl_socket_get_fd(m->sock);
}

uint64_t rdc_nl_monitor_stamp_ns(const struct rdc_nl_monitor *m)
{
	return m->stamp_ns;
}

int rdc_nl_monitor_recv(struct rdc_nl_monitor *m, int timeout_ms, rdc_nl_msg_cb cb, void *arg,
			struct rdc_err *err)
{
	struct pollfd pfd = {.fd = mnl_socket_get_fd(m->sock), .events = POLLIN};
	int delivered = 0, rc;

	rc = poll(&pfd, 1, timeout_ms);
	if (rc < 0 && errno != EINTR)
		return rdc_err_set(err, errno, "cannot wait for kernel events");
	if (rc <= 0)
		return 0;
	for (int d = 0; d < MON_MAX_DATAGRAMS; d++) {
		const struct nlmsghdr *nlh = (const struct nlmsghdr *)m->buf;
		ssize_t n = recv(pfd.fd, m->buf, sizeof(m->buf), MSG_DONTWAIT);
		size_t left;

		if (n < 0) {
			if (errno == EAGAIN || errno == EINTR)
				break;
			/* ENOBUFS: the kernel dropped events; the socket itself is fine. */
			if (errno == ENOBUFS)
				return rdc_err_set(err, ENOBUFS,
						   "kernel events were lost: buffer overrun");
			return rdc_err_set(err, errno, "cannot read kernel events");
		}
		m->stamp_ns = mon_now_ns();
		for (left = (size_t)n; nl_msg_ok(nlh, left); nlh = nl_msg_next(nlh, &left)) {
			if (nlh->nlmsg_type < NLMSG_MIN_TYPE)
				continue;
			delivered++;
			rc = cb ? cb(nlh, arg) : 0;
			if (rc)
				return rc;
		}
	}
	return delivered;
}
