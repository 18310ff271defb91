// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * dcb-double-probe - talk raw dcbnl to whatever answers (the double when it is
 * preloaded, else the kernel), for tests the dcb tool cannot express.
 *
 *   dcb-double-probe [-c] [-p] [-t MS] send HEX
 *	Send one datagram (hex), print every answer message, one a line:
 *	"MSG HEX" or "ERR ERRNO HEX" (seq and pid zeroed), until the NLMSG_ERROR
 *	for the request's seq or MS milliseconds (default 1000) of silence,
 *	then "TIMEOUT".  -c sets NETLINK_CAP_ACK; -p first peeks at each answer
 *	with a 16-byte buffer and MSG_PEEK|MSG_TRUNC, printing "PEEK LEN".
 *   dcb-double-probe fuzz ITERATIONS SEED DEV
 *	Mutate well-formed requests for DEV ITERATIONS times; every answer must
 *	be well formed, carry the request's seq, and end with an NLMSG_ERROR.
 *	nlmsg_type stays RTM_GETDCB or RTM_SETDCB, so a mutant can only reach
 *	dcbnl, never another rtnetlink handler.  Exit 1 on the first bad answer.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <linux/dcbnl.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>

static int timeout_ms = 1000;
static bool cap_ack, peek;

static int open_sock(void)
{
	struct sockaddr_nl sa = {.nl_family = AF_NETLINK};
	struct timeval tv = {.tv_sec = timeout_ms / 1000,
			     .tv_usec = (long)(timeout_ms % 1000) * 1000};
	int one = 1;
	int fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_ROUTE);

	if (fd < 0) {
		perror("socket");
		exit(2);
	}
	if (cap_ack)
		setsockopt(fd, SOL_NETLINK, NETLINK_CAP_ACK, &one, sizeof(one));
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	if (bind(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
		perror("bind");
		exit(2);
	}
	return fd;
}

static void print_hex(const uint8_t *p, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		uint8_t c = p[i];

		if (i >= 8 && i < 16) /* nlmsg_seq, nlmsg_pid */
			c = 0;
		printf("%02x", c);
	}
}

/* Attributes from @p for @len bytes must nest exactly. */
static bool attrs_ok(const uint8_t *p, size_t len, int depth)
{
	while (len >= NLA_HDRLEN) {
		struct nlattr a;

		memcpy(&a, p, sizeof(a));
		if (a.nla_len < NLA_HDRLEN || a.nla_len > len)
			return false;
		if ((a.nla_type & NLA_TYPE_MASK) == DCB_ATTR_IEEE && depth == 0 && a.nla_len > 5 &&
		    !attrs_ok(p + NLA_HDRLEN, a.nla_len - NLA_HDRLEN, 1))
			return false;
		if ((size_t)NLA_ALIGN(a.nla_len) >= len)
			return true;
		len -= NLA_ALIGN(a.nla_len);
		p += NLA_ALIGN(a.nla_len);
	}
	return len == 0;
}

/*
 * Receive until the NLMSG_ERROR for @seq.  Returns 0 when it came, 1 on
 * silence, -1 on a malformed answer.  @print writes each message.
 */
static int collect(int fd, uint32_t seq, bool print)
{
	static uint8_t buf[65536];

	for (;;) {
		struct sockaddr_nl from;
		struct iovec iov = {.iov_base = buf, .iov_len = sizeof(buf)};
		struct msghdr msg = {.msg_name = &from,
				     .msg_namelen = sizeof(from),
				     .msg_iov = &iov,
				     .msg_iovlen = 1};
		bool done = false;
		ssize_t n;

		if (peek) {
			uint8_t small[16];
			ssize_t full = recv(fd, small, sizeof(small), MSG_PEEK | MSG_TRUNC);

			if (full >= 0 && print)
				printf("PEEK %zd\n", full);
		}
		n = recvmsg(fd, &msg, 0);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
			if (print)
				printf("TIMEOUT\n");
			return 1;
		}
		if (n < 0) {
			perror("recvmsg");
			return -1;
		}
		if (msg.msg_flags & MSG_TRUNC || msg.msg_namelen != sizeof(from) ||
		    from.nl_family != AF_NETLINK || from.nl_pid != 0) {
			fprintf(stderr, "bad datagram: flags %#x namelen %u pid %u\n",
				msg.msg_flags, msg.msg_namelen, from.nl_pid);
			return -1;
		}
		for (size_t off = 0; off < (size_t)n;) {
			struct nlmsghdr h;

			if ((size_t)n - off < sizeof(h)) {
				fprintf(stderr, "short message\n");
				return -1;
			}
			memcpy(&h, buf + off, sizeof(h));
			if (h.nlmsg_len < sizeof(h) || h.nlmsg_len > (size_t)n - off) {
				fprintf(stderr, "bad nlmsg_len %u\n", h.nlmsg_len);
				return -1;
			}
			if (h.nlmsg_seq != seq) {
				fprintf(stderr, "seq %u, expected %u\n", h.nlmsg_seq, seq);
				return -1;
			}
			if (h.nlmsg_type == NLMSG_ERROR) {
				struct nlmsgerr e;

				if (h.nlmsg_len < NLMSG_LENGTH(sizeof(e))) {
					fprintf(stderr, "short NLMSG_ERROR\n");
					return -1;
				}
				memcpy(&e, buf + off + NLMSG_HDRLEN, sizeof(e));
				if (print) {
					printf("ERR %d ", e.error);
					print_hex(buf + off, h.nlmsg_len);
					printf("\n");
				}
				done = true;
			} else {
				if (h.nlmsg_len < NLMSG_LENGTH(sizeof(struct dcbmsg)) ||
				    !attrs_ok(buf + off + NLMSG_LENGTH(sizeof(struct dcbmsg)),
					      h.nlmsg_len - NLMSG_LENGTH(sizeof(struct dcbmsg)),
					      0)) {
					fprintf(stderr, "malformed reply\n");
					return -1;
				}
				if (print) {
					printf("MSG ");
					print_hex(buf + off, h.nlmsg_len);
					printf("\n");
				}
			}
			off += NLMSG_ALIGN(h.nlmsg_len);
		}
		if (done)
			return 0;
	}
}

static int cmd_send(const char *hex)
{
	size_t n = strlen(hex) / 2;
	uint8_t *buf = calloc(1, n + 16);
	struct sockaddr_nl kernel = {.nl_family = AF_NETLINK};
	struct nlmsghdr h = {0};
	int fd, rc;

	if (!buf || strlen(hex) % 2) {
		fprintf(stderr, "bad hex\n");
		free(buf);
		return 2;
	}
	for (size_t i = 0; i < n; i++) {
		char two[3] = {hex[2 * i], hex[2 * i + 1], '\0'};
		char *end;
		unsigned long v = strtoul(two, &end, 16);

		if (*end || !isxdigit((unsigned char)two[0])) {
			fprintf(stderr, "bad hex\n");
			free(buf);
			return 2;
		}
		buf[i] = (uint8_t)v;
	}
	if (n >= sizeof(h))
		memcpy(&h, buf, sizeof(h));
	fd = open_sock();
	if (sendto(fd, buf, n, 0, (struct sockaddr *)&kernel, sizeof(kernel)) < 0) {
		printf("SENDERR %d\n", -errno);
		free(buf);
		close(fd);
		return 0;
	}
	rc = collect(fd, h.nlmsg_seq, true);
	free(buf);
	close(fd);
	fflush(stdout);
	return rc < 0 ? 1 : 0;
}

/* ---- fuzz ------------------------------------------------------------------- */

struct msgb {
	uint8_t b[1024];
	size_t len;
};

static void put(struct msgb *m, const void *p, size_t n)
{
	if (m->len + NLA_ALIGN(n) > sizeof(m->b))
		return;
	memcpy(m->b + m->len, p, n);
	memset(m->b + m->len + n, 0, NLA_ALIGN(n) - n);
	m->len += NLA_ALIGN(n);
}

static void attr(struct msgb *m, uint16_t type, const void *p, size_t n)
{
	struct nlattr a = {.nla_len = (uint16_t)(NLA_HDRLEN + n), .nla_type = type};

	put(m, &a, sizeof(a));
	if (n)
		put(m, p, n);
}

static size_t nest(struct msgb *m, uint16_t type)
{
	size_t off = m->len;

	attr(m, type, NULL, 0);
	return off;
}

static void nest_end(struct msgb *m, size_t off)
{
	uint16_t len = (uint16_t)(m->len - off);

	memcpy(m->b + off, &len, sizeof(len));
}

static void base(struct msgb *m, uint16_t type, uint8_t cmd, const char *dev)
{
	struct nlmsghdr h = {.nlmsg_type = type, .nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK};
	struct dcbmsg d = {.cmd = cmd};

	m->len = 0;
	put(m, &h, sizeof(h));
	put(m, &d, sizeof(d));
	attr(m, DCB_ATTR_IFNAME, dev, strlen(dev) + 1);
}

/* one of the requests dcb, mlnx_qos or rdmactl send */
static void template(struct msgb *m, int which, const char *dev)
{
	struct ieee_ets ets = {.tc_tsa = {2, 0, 0, 2, 0, 0, 0, 0},
			       .tc_tx_bw = {50, 0, 0, 50},
			       .prio_tc = {0, 0, 0, 3, 0, 0, 6, 0}};
	struct ieee_pfc pfc = {.pfc_en = 8, .delay = 10};
	struct ieee_maxrate mr = {.tc_maxrate = {0, 1000000, 30000000}};
	struct dcbnl_buffer buf = {.prio2buffer = {0, 0, 0, 1}, .buffer_size = {131072, 130944}};
	struct dcb_app apps[2] = {{5, 3, 26}, {5, 6, 48}};
	uint8_t u8 = 0x09;
	size_t n1, n2;

	switch (which % 9) {
	case 0:
		base(m, RTM_GETDCB, DCB_CMD_IEEE_GET, dev);
		return;
	case 1:
		base(m, RTM_GETDCB, DCB_CMD_GDCBX, dev);
		return;
	case 2:
		base(m, RTM_SETDCB, DCB_CMD_SDCBX, dev);
		attr(m, DCB_ATTR_DCBX, &u8, 1);
		return;
	case 3:
	case 4:
	case 5:
		base(m, RTM_SETDCB, which % 9 == 4 ? DCB_CMD_IEEE_DEL : DCB_CMD_IEEE_SET, dev);
		n1 = nest(m, NLA_F_NESTED | DCB_ATTR_IEEE);
		n2 = nest(m, NLA_F_NESTED | DCB_ATTR_IEEE_APP_TABLE);
		attr(m, DCB_ATTR_IEEE_APP, &apps[0], sizeof(apps[0]));
		attr(m, DCB_ATTR_IEEE_APP, &apps[1], sizeof(apps[1]));
		nest_end(m, n2);
		nest_end(m, n1);
		return;
	default:
		base(m, RTM_SETDCB, DCB_CMD_IEEE_SET, dev);
		n1 = nest(m, NLA_F_NESTED | DCB_ATTR_IEEE);
		attr(m, DCB_ATTR_IEEE_ETS, &ets, sizeof(ets));
		attr(m, DCB_ATTR_IEEE_PFC, &pfc, sizeof(pfc));
		if (which % 9 >= 7) {
			attr(m, DCB_ATTR_IEEE_MAXRATE, &mr, sizeof(mr));
			attr(m, DCB_ATTR_DCB_BUFFER, &buf, sizeof(buf));
		}
		if (which % 9 == 8) {
			n2 = nest(m, NLA_F_NESTED | 12); /* rewrite table */
			attr(m, DCB_ATTR_IEEE_APP, &apps[0], sizeof(apps[0]));
			nest_end(m, n2);
		}
		nest_end(m, n1);
		return;
	}
}

static uint32_t rnd_state;

static uint32_t rnd(void)
{
	rnd_state ^= rnd_state << 13;
	rnd_state ^= rnd_state >> 17;
	rnd_state ^= rnd_state << 5;
	return rnd_state;
}

static void mutate(struct msgb *m)
{
	int ops = 1 + (int)(rnd() % 4);

	for (int i = 0; i < ops; i++) {
		size_t pos;
		uint16_t v;

		switch (rnd() % 6) {
		case 0: /* a random byte past the header */
		case 1:
			if (m->len > 16)
				m->b[16 + rnd() % (m->len - 16)] = (uint8_t)rnd();
			break;
		case 2: /* truncate */
			m->len = 16 + rnd() % (m->len - 15);
			break;
		case 3: /* append junk */
			for (int k = (int)(rnd() % 24); k > 0 && m->len < sizeof(m->b); k--)
				m->b[m->len++] = (uint8_t)rnd();
			break;
		case 4: /* a 16-bit length/type field at a 4-byte boundary */
			if (m->len > 20) {
				pos = 16 + (rnd() % ((m->len - 18) / 4 + 1)) * 4;
				if (pos + 2 <= m->len) {
					v = (uint16_t)(rnd() % 3 ? rnd() % 200 : rnd());
					memcpy(m->b + pos, &v, sizeof(v));
				}
			}
			break;
		default: /* GETDCB <-> SETDCB, or another command */
			if (rnd() % 2)
				m->b[4] = m->b[4] == RTM_GETDCB ? RTM_SETDCB : RTM_GETDCB;
			else if (m->len > 17)
				m->b[17] = (uint8_t)(rnd() % 30);
			break;
		}
	}
}

static int cmd_fuzz(long iters, unsigned long seed, const char *dev)
{
	struct sockaddr_nl kernel = {.nl_family = AF_NETLINK};
	long answered = 0;

	rnd_state = (uint32_t)seed ? (uint32_t)seed : 1;
	for (long it = 0; it < iters; it++) {
		struct msgb m;
		struct nlmsghdr h;
		uint32_t seq = (uint32_t)it + 1;
		int fd, rc;

		template(&m, (int)(rnd() % 9), dev);
		if (it % 8)
			mutate(&m);
		/* keep the header sane: one message, the one we wait for */
		memcpy(&h, m.b, sizeof(h));
		h.nlmsg_len = (uint32_t)m.len;
		h.nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK;
		h.nlmsg_seq = seq;
		h.nlmsg_pid = 0;
		memcpy(m.b, &h, sizeof(h));
		fd = open_sock();
		if (sendto(fd, m.b, m.len, 0, (struct sockaddr *)&kernel, sizeof(kernel)) < 0) {
			fprintf(stderr, "iteration %ld: send: %s\n", it, strerror(errno));
			close(fd);
			return 1;
		}
		rc = collect(fd, seq, false);
		close(fd);
		if (rc) {
			fprintf(stderr, "iteration %ld: %s; request ", it,
				rc > 0 ? "no answer" : "bad answer");
			for (size_t i = 0; i < m.len; i++)
				fprintf(stderr, "%02x", m.b[i]);
			fprintf(stderr, "\n");
			return 1;
		}
		answered++;
	}
	printf("fuzz: %ld requests, %ld answered\n", iters, answered);
	return 0;
}

int main(int argc, char **argv)
{
	int opt;

	while ((opt = getopt(argc, argv, "cpt:")) != -1) {
		switch (opt) {
		case 'c':
			cap_ack = true;
			break;
		case 'p':
			peek = true;
			break;
		case 't':
			timeout_ms = (int)strtol(optarg, NULL, 10);
			if (timeout_ms <= 0)
				timeout_ms = 1000;
			break;
		default:
			return 2;
		}
	}
	argc -= optind;
	argv += optind;
	if (argc == 2 && !strcmp(argv[0], "send"))
		return cmd_send(argv[1]);
	if (argc == 4 && !strcmp(argv[0], "fuzz"))
		return cmd_fuzz(strtol(argv[1], NULL, 10), strtoul(argv[2], NULL, 10), argv[3]);
	fprintf(stderr, "usage: dcb-double-probe [-c] [-p] [-t MS] send HEX\n"
			"       dcb-double-probe fuzz ITERATIONS SEED DEV\n");
	return 2;
}
