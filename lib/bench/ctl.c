// SPDX-License-Identifier: GPL-2.0-or-later
/* ctl.c - control messages over TCP: whole frames, bounded waits, no SIGPIPE */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <netinet/in.h>
#include <netinet/tcp.h>

#include "base/util.h"
#include "bench/ctl.h"
#include "bench/engine.h"

#define FRAME_CAP (RDC_BENCH_HDR_LEN + RDC_BENCH_MAX_FRAME)
#define SEND_TIMEOUT_MS 10000

static volatile sig_atomic_t *ctl_interrupt;

void rdc_bench_ctl_set_interrupt(volatile sig_atomic_t *flag)
{
	ctl_interrupt = flag;
}

bool rdc_bench_ctl_interrupted(void)
{
	return ctl_interrupt && *ctl_interrupt;
}

/* A poll() that failed: EINTR from the user's signal ends the wait, any other signal retries. */
static int poll_failed(struct rdc_err *err)
{
	if (errno != EINTR)
		return rdc_err_set(err, errno, "cannot wait for the peer");
	if (ctl_interrupt && *ctl_interrupt)
		return rdc_err_set(err, EINTR, "interrupted");
	return 0;
}

int rdc_bench_ctl_send(int fd, const struct rdc_bench_msg *m, struct rdc_err *err)
{
	uint8_t *buf = malloc(FRAME_CAP);
	long len;
	size_t off = 0;
	int rc = 0;

	if (!buf)
		return rdc_err_set(err, ENOMEM, "out of memory");
	len = rdc_bench_msg_encode(m, buf, FRAME_CAP);
	if (len < 0) {
		free(buf);
		return rdc_err_set(err, (int)-len, "cannot encode a %s message",
				   rdc_bench_msg_name(m->type));
	}
	while (off < (size_t)len) {
		struct pollfd pfd = {.fd = fd, .events = POLLOUT};
		ssize_t n = poll(&pfd, 1, SEND_TIMEOUT_MS);

		if (n < 0) {
			rc = poll_failed(err);
			if (rc)
				break;
			continue;
		}
		if (n == 0) {
			rc = rdc_err_set(err, ETIMEDOUT, "the peer stopped reading");
			break;
		}
		n = send(fd, buf + off, (size_t)len - off, MSG_NOSIGNAL | MSG_DONTWAIT);
		if (n < 0) {
			if (errno == EINTR || errno == EAGAIN)
				continue;
			rc = rdc_err_set(err, errno, "cannot send a %s message",
					 rdc_bench_msg_name(m->type));
			break;
		}
		off += (size_t)n;
	}
	free(buf);
	return rc;
}

void rdc_bench_ctl_send_error(int fd, int code, const char *text)
{
	struct rdc_bench_msg m = {.type = RDC_BENCH_MSG_ERROR};

	m.u.error.code = code;
	rdc_strlcpy(m.u.error.text, text, sizeof(m.u.error.text));
	rdc_bench_ctl_send(fd, &m, NULL);
}

void rdc_bench_ctl_send_error_now(int fd, int code, const char *text)
{
	struct rdc_bench_msg m = {.type = RDC_BENCH_MSG_ERROR};
	uint8_t buf[RDC_BENCH_HDR_LEN + 4 + 2 + sizeof(m.u.error.text)];
	long len;
	ssize_t n;

	m.u.error.code = code;
	rdc_strlcpy(m.u.error.text, text, sizeof(m.u.error.text));
	len = rdc_bench_msg_encode(&m, buf, sizeof(buf));
	if (len <= 0)
		return;
	/* A fresh connection's send buffer takes a few hundred bytes at once; if not, too bad. */
	n = send(fd, buf, (size_t)len, MSG_NOSIGNAL | MSG_DONTWAIT);
	(void)n;
}

/* Read exactly @len bytes before @deadline (0: none). */
static int read_full(int fd, uint8_t *buf, size_t len, uint64_t deadline, struct rdc_err *err)
{
	size_t off = 0;

	while (off < len) {
		struct pollfd pfd = {.fd = fd, .events = POLLIN};
		int wait = -1;
		ssize_t n;

		if (deadline) {
			uint64_t now = rdc_bench_now_ns();

			if (now >= deadline)
				return rdc_err_set(err, ETIMEDOUT, "no answer in time");
			wait = (int)((deadline - now) / 1000000) + 1;
		}
		n = poll(&pfd, 1, wait);
		if (n < 0) {
			int rc = poll_failed(err);

			if (rc)
				return rc;
			continue;
		}
		if (n == 0)
			return rdc_err_set(err, ETIMEDOUT, "no answer in time");
		n = recv(fd, buf + off, len - off, MSG_DONTWAIT);
		if (n == 0)
			return rdc_err_set(err, ECONNRESET, "the peer closed the connection");
		if (n < 0) {
			if (errno == EINTR || errno == EAGAIN)
				continue;
			return rdc_err_set(err, errno, "cannot read from the peer");
		}
		off += (size_t)n;
	}
	return 0;
}

int rdc_bench_ctl_recv(int fd, struct rdc_bench_msg *m, int timeout_ms, struct rdc_err *err)
{
	uint64_t deadline =
		timeout_ms < 0 ? 0 : rdc_bench_now_ns() + (uint64_t)timeout_ms * 1000000;
	uint16_t version, type;
	uint32_t len;
	uint8_t *buf;
	int rc;

	buf = malloc(FRAME_CAP);
	if (!buf)
		return rdc_err_set(err, ENOMEM, "out of memory");
	rc = read_full(fd, buf, RDC_BENCH_HDR_LEN, deadline, err);
	if (!rc)
		rc = rdc_bench_hdr_decode(buf, &version, &type, &len, err);
	if (!rc)
		rc = read_full(fd, buf + RDC_BENCH_HDR_LEN, len, deadline, err);
	if (!rc)
		rc = rdc_bench_msg_decode(buf, RDC_BENCH_HDR_LEN + len, m, err);
	free(buf);
	return rc;
}

int rdc_bench_ctl_expect(int fd, struct rdc_bench_msg *m, unsigned int type, int timeout_ms,
			 const char *peer, struct rdc_err *err)
{
	int rc = rdc_bench_ctl_recv(fd, m, timeout_ms, err);

	if (rc) {
		/* Say what was awaited when the connection failed; decode errors speak for themselves. */
		if (rc == -ETIMEDOUT || rc == -ECONNRESET)
			rdc_err_prefix(err, "waiting for %s from the %s", rdc_bench_msg_name(type),
				       peer);
		return rc;
	}
	if (m->type == RDC_BENCH_MSG_ERROR) {
		int code = m->u.error.code > 0 && m->u.error.code < 4096 ? m->u.error.code : EPROTO;

		/* The peer's message whole: the text holds a record's message, the prefix fits beside it. */
		rc = rdc_err_set(err, code, "%s", m->u.error.text);
		rdc_err_prefix(err, "%s", peer);
		return rc;
	}
	if (m->type != type)
		return rdc_err_set(err, EPROTO, "%s sent %s where %s was due", peer,
				   rdc_bench_msg_name(m->type), rdc_bench_msg_name(type));
	return 0;
}

void rdc_bench_ctl_close(int fd)
{
	uint64_t deadline = rdc_bench_now_ns() + 500000000ull;
	char sink[4096];

	shutdown(fd, SHUT_WR);
	for (;;) {
		uint64_t now = rdc_bench_now_ns();
		struct pollfd pfd = {.fd = fd, .events = POLLIN};

		if (now >= deadline || poll(&pfd, 1, (int)((deadline - now) / 1000000) + 1) <= 0 ||
		    recv(fd, sink, sizeof(sink), MSG_DONTWAIT) <= 0)
			break;
	}
	close(fd);
}

void rdc_bench_ctl_keepalive(int fd)
{
	int on = 1, idle = 5, intvl = 2, cnt = 3;

	setsockopt(fd, SOL_SOCKET, SO_KEEPALIVE, &on, sizeof(on));
	setsockopt(fd, IPPROTO_TCP, TCP_KEEPIDLE, &idle, sizeof(idle));
	setsockopt(fd, IPPROTO_TCP, TCP_KEEPINTVL, &intvl, sizeof(intvl));
	setsockopt(fd, IPPROTO_TCP, TCP_KEEPCNT, &cnt, sizeof(cnt));
	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &on, sizeof(on));
}
