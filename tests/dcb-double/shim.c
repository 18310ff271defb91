// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * shim.c - LD_PRELOAD wrappers that put the dcbnl double between a program
 * and the kernel.
 *
 * NETLINK_ROUTE sockets are tracked from socket() to close().  A datagram sent
 * on one is split into netlink messages the way netlink_rcv_skb() walks it;
 * dcbnl requests for a device listed in $DCB_DOUBLE_DEVS are answered by
 * model.c and the answers queued on the socket; every other message goes to
 * the kernel unchanged.  recv*() hands out the queue first, one datagram per
 * call as the kernel does, then falls through to the kernel.
 *
 * Not covered: poll()/select()/epoll see only the kernel's side of the socket,
 * read()/write()/recvmmsg()/sendmmsg() are not wrapped, and a dup()ed
 * descriptor is not tracked.  Programs built on libmnl or libnl (iproute2's
 * dcb, rdmactl) need none of that.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>

#include <linux/netlink.h>
#include <linux/rtnetlink.h>

#include "dd.h"

#define EXPORT __attribute__((visibility("default")))

extern int (*dd_close_hook)(int);

/* the real functions, from the next object in the lookup order */
static struct {
	int (*socket)(int, int, int);
	int (*bind)(int, const struct sockaddr *, socklen_t);
	int (*getsockname)(int, struct sockaddr *, socklen_t *);
	int (*setsockopt)(int, int, int, const void *, socklen_t);
	ssize_t (*sendto)(int, const void *, size_t, int, const struct sockaddr *, socklen_t);
	ssize_t (*sendmsg)(int, const struct msghdr *, int);
	ssize_t (*send)(int, const void *, size_t, int);
	ssize_t (*recvfrom)(int, void *, size_t, int, struct sockaddr *, socklen_t *);
	ssize_t (*recvmsg)(int, struct msghdr *, int);
	ssize_t (*recv)(int, void *, size_t, int);
	ssize_t (*recv_chk)(int, void *, size_t, size_t, int);
	ssize_t (*recvfrom_chk)(int, void *, size_t, size_t, int, struct sockaddr *, socklen_t *);
	int (*close)(int);
} real;

static pthread_once_t resolved = PTHREAD_ONCE_INIT;

static void resolve(void)
{
	real.socket = dlsym(RTLD_NEXT, "socket");
	real.bind = dlsym(RTLD_NEXT, "bind");
	real.getsockname = dlsym(RTLD_NEXT, "getsockname");
	real.setsockopt = dlsym(RTLD_NEXT, "setsockopt");
	real.sendto = dlsym(RTLD_NEXT, "sendto");
	real.sendmsg = dlsym(RTLD_NEXT, "sendmsg");
	real.send = dlsym(RTLD_NEXT, "send");
	real.recvfrom = dlsym(RTLD_NEXT, "recvfrom");
	real.recvmsg = dlsym(RTLD_NEXT, "recvmsg");
	real.recv = dlsym(RTLD_NEXT, "recv");
	real.recv_chk = dlsym(RTLD_NEXT, "__recv_chk");
	real.recvfrom_chk = dlsym(RTLD_NEXT, "__recvfrom_chk");
	real.close = dlsym(RTLD_NEXT, "close");
	if (real.close)
		dd_close_hook = real.close;
}

/* The real function, or fail with ENOSYS if the next object lacks it. */
#define REAL(fn, ...)                                                                              \
	do {                                                                                       \
		pthread_once(&resolved, resolve);                                                  \
		if (!real.fn) {                                                                    \
			errno = ENOSYS;                                                            \
			return -1;                                                                 \
		}                                                                                  \
		return real.fn(__VA_ARGS__);                                                       \
	} while (0)

/* ---- tracked sockets ----------------------------------------------------- */

struct sock {
	struct sock *next;
	int fd;
	dev_t dev; /* the socket's identity, to notice a reused descriptor */
	ino_t ino;
	bool cap_ack;
	struct dd_dgram *head, *tail;
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct sock *socks;
static int nsocks; /* read without the lock as a fast path */

static void child_after_fork(void)
{
	pthread_mutex_init(&lock, NULL);
}

__attribute__((constructor)) static void shim_init(void)
{
	pthread_once(&resolved, resolve);
	pthread_atfork(NULL, NULL, child_after_fork);
}

/* The queues of a process that exits with replies unread are freed. */
__attribute__((destructor)) static void shim_fini(void)
{
	pthread_mutex_lock(&lock);
	while (socks) {
		struct sock *s = socks;

		socks = s->next;
		dd_dgram_free_list(s->head);
		free(s);
	}
	__atomic_store_n(&nsocks, 0, __ATOMIC_RELAXED);
	pthread_mutex_unlock(&lock);
}

/* call with the lock held */
static struct sock *find(int fd)
{
	for (struct sock *s = socks; s; s = s->next)
		if (s->fd == fd)
			return s;
	return NULL;
}

/* call with the lock held; the caller frees */
static struct sock *unlink_sock(int fd)
{
	for (struct sock **pp = &socks; *pp; pp = &(*pp)->next)
		if ((*pp)->fd == fd) {
			struct sock *s = *pp;

			*pp = s->next;
			__atomic_store_n(&nsocks, nsocks - 1, __ATOMIC_RELAXED);
			return s;
		}
	return NULL;
}

static void free_sock(struct sock *s)
{
	if (s) {
		dd_dgram_free_list(s->head);
		free(s);
	}
}

static bool tracked(int fd)
{
	return __atomic_load_n(&nsocks, __ATOMIC_RELAXED) > 0 && fd >= 0;
}

/* Is @s still the socket it was when tracked?  A descriptor closed behind our
 * back (dup2, close_range) and reused must not inherit its queue. */
static bool same_socket(const struct sock *s)
{
	struct stat sb;

	return fstat(s->fd, &sb) == 0 && S_ISSOCK(sb.st_mode) && sb.st_dev == s->dev &&
	       sb.st_ino == s->ino;
}

static bool double_active(void)
{
	const char *devs = getenv("DCB_DOUBLE_DEVS");

	return devs && *devs;
}

/* ---- the wrappers ------------------------------------------------------------ */

EXPORT int socket(int domain, int type, int protocol)
{
	struct sock *s = NULL, *stale;
	struct stat sb;
	int fd;

	pthread_once(&resolved, resolve);
	if (!real.socket) {
		errno = ENOSYS;
		return -1;
	}
	fd = real.socket(domain, type, protocol);
	if (fd < 0)
		return fd;
	if (domain == AF_NETLINK && protocol == NETLINK_ROUTE && fstat(fd, &sb) == 0) {
		s = calloc(1, sizeof(*s));
		if (s) {
			s->fd = fd;
			s->dev = sb.st_dev;
			s->ino = sb.st_ino;
		}
	}
	pthread_mutex_lock(&lock);
	stale = unlink_sock(fd);
	if (s) {
		s->next = socks;
		socks = s;
		__atomic_store_n(&nsocks, nsocks + 1, __ATOMIC_RELAXED);
	}
	pthread_mutex_unlock(&lock);
	free_sock(stale);
	return fd;
}

EXPORT int bind(int fd, const struct sockaddr *addr, socklen_t len)
{
	REAL(bind, fd, addr, len);
}

EXPORT int getsockname(int fd, struct sockaddr *addr, socklen_t *len)
{
	REAL(getsockname, fd, addr, len);
}

EXPORT int setsockopt(int fd, int level, int name, const void *val, socklen_t len)
{
	int rc;

	pthread_once(&resolved, resolve);
	if (!real.setsockopt) {
		errno = ENOSYS;
		return -1;
	}
	rc = real.setsockopt(fd, level, name, val, len);
	/* netlink_ack() shapes error acks by NETLINK_CAP_ACK */
	if (rc == 0 && tracked(fd) && level == SOL_NETLINK && name == NETLINK_CAP_ACK && val &&
	    len >= sizeof(int)) {
		int on;

		memcpy(&on, val, sizeof(on));
		pthread_mutex_lock(&lock);
		struct sock *s = find(fd);

		if (s)
			s->cap_ack = on != 0;
		pthread_mutex_unlock(&lock);
	}
	return rc;
}

EXPORT int close(int fd)
{
	if (tracked(fd)) {
		struct sock *s;

		pthread_mutex_lock(&lock);
		s = unlink_sock(fd);
		pthread_mutex_unlock(&lock);
		free_sock(s);
	}
	REAL(close, fd);
}

/* The socket's port id (nlmsg_pid of replies).  An unbound socket is bound
 * now, as netlink_sendmsg() would autobind it. */
static int portid_of(int fd, uint32_t *portid)
{
	struct sockaddr_nl sa;
	socklen_t len = sizeof(sa);

	if (!real.getsockname || !real.bind)
		return -1;
	memset(&sa, 0, sizeof(sa));
	if (real.getsockname(fd, (struct sockaddr *)&sa, &len) < 0 || sa.nl_family != AF_NETLINK)
		return -1;
	if (!sa.nl_pid) {
		struct sockaddr_nl any = {.nl_family = AF_NETLINK};

		if (real.bind(fd, (struct sockaddr *)&any, sizeof(any)) < 0)
			return -1;
		len = sizeof(sa);
		if (real.getsockname(fd, (struct sockaddr *)&sa, &len) < 0)
			return -1;
	}
	*portid = sa.nl_pid;
	return 0;
}

/*
 * The send side.  Returns true when the double took the datagram (then *ret
 * is its length), false when the caller should hand it to the kernel as is.
 */
static bool try_send(int fd, const struct msghdr *msg, int flags, ssize_t *ret)
{
	const struct sockaddr_nl *to = msg->msg_name;
	struct dd_dgram *out = NULL, **tail = &out;
	uint8_t *buf = NULL;
	size_t len = 0, off;
	uint32_t portid;
	bool any = false, cap_ack = false, same = false;
	char name[DD_IFNAMSIZ];

	if (!tracked(fd) || !double_active())
		return false;
	pthread_mutex_lock(&lock);
	struct sock *s = find(fd);

	if (s) {
		cap_ack = s->cap_ack;
		same = same_socket(s);
	}
	pthread_mutex_unlock(&lock);
	if (!s || !same)
		return false;
	/* only datagrams for the kernel (port 0, no groups) are dcbnl requests */
	if (to && (msg->msg_namelen < sizeof(*to) || to->nl_family != AF_NETLINK || to->nl_pid ||
		   to->nl_groups))
		return false;
	if (!msg->msg_iov && msg->msg_iovlen)
		return false; /* the kernel's EFAULT */
	for (size_t i = 0; i < (size_t)msg->msg_iovlen; i++) {
		if (!msg->msg_iov[i].iov_base && msg->msg_iov[i].iov_len)
			return false;
		len += msg->msg_iov[i].iov_len;
	}
	if (len < NLMSG_HDRLEN || len > (1u << 24))
		return false;
	buf = malloc(len);
	if (!buf)
		return false;
	off = 0;
	for (size_t i = 0; i < (size_t)msg->msg_iovlen; i++) {
		if (msg->msg_iov[i].iov_len)
			memcpy(buf + off, msg->msg_iov[i].iov_base, msg->msg_iov[i].iov_len);
		off += msg->msg_iov[i].iov_len;
	}
	/* netlink_rcv_skb()'s walk: stop at the first message that does not fit */
	for (off = 0; len - off >= NLMSG_HDRLEN;) {
		const struct nlmsghdr *nlh = (const void *)(buf + off);

		if (nlh->nlmsg_len < NLMSG_HDRLEN || nlh->nlmsg_len > len - off)
			break;
		if (dd_is_ours(nlh, len - off, name)) {
			any = true;
			break;
		}
		off += NLMSG_ALIGN(nlh->nlmsg_len) < len - off ? NLMSG_ALIGN(nlh->nlmsg_len)
							       : len - off;
	}
	if (!any || portid_of(fd, &portid)) {
		free(buf);
		return false;
	}
	for (off = 0; len - off >= NLMSG_HDRLEN;) {
		const struct nlmsghdr *nlh = (const void *)(buf + off);
		size_t msglen;

		if (nlh->nlmsg_len < NLMSG_HDRLEN || nlh->nlmsg_len > len - off)
			break; /* the kernel ignores the rest too */
		msglen = NLMSG_ALIGN(nlh->nlmsg_len) < len - off ? NLMSG_ALIGN(nlh->nlmsg_len)
								 : len - off;
		if (dd_is_ours(nlh, len - off, name)) {
			*tail = dd_answer(nlh, name, portid, cap_ack);
			while (*tail)
				tail = &(*tail)->next;
		} else if (real.sendto) {
			/* a batch mixing both: this one still goes to the kernel,
			 * whose answers then come after the queued ones */
			real.sendto(fd, nlh, msglen, flags, NULL, 0);
		}
		off += msglen;
	}
	free(buf);
	pthread_mutex_lock(&lock);
	s = find(fd);
	if (s && out) {
		if (s->tail)
			s->tail->next = out;
		else
			s->head = out;
		for (s->tail = out; s->tail->next;)
			s->tail = s->tail->next;
		out = NULL;
	}
	pthread_mutex_unlock(&lock);
	dd_dgram_free_list(out); /* closed meanwhile */
	*ret = (ssize_t)len;
	return true;
}

/*
 * A changing rtnetlink request the kernel took (links and addresses: what
 * port set and bond writes send): counted for DCB_DOUBLE_KILL.  rtnetlink
 * carries a request out within the send, so the kill comes after it.
 */
static void kernel_change_sent(int fd, const struct msghdr *msg, ssize_t ret)
{
	const struct nlmsghdr *nlh;
	int domain = 0, proto = -1;
	socklen_t len = sizeof(int);

	if (ret < (ssize_t)NLMSG_HDRLEN || !msg->msg_iovlen ||
	    msg->msg_iov[0].iov_len < NLMSG_HDRLEN || !getenv("DCB_DOUBLE_KILL") ||
	    getsockopt(fd, SOL_SOCKET, SO_DOMAIN, &domain, &len) || domain != AF_NETLINK ||
	    getsockopt(fd, SOL_SOCKET, SO_PROTOCOL, &proto, &len) || proto != NETLINK_ROUTE)
		return;
	nlh = msg->msg_iov[0].iov_base;
	switch (nlh->nlmsg_type) {
	case RTM_NEWLINK:
	case RTM_DELLINK:
	case RTM_SETLINK:
	case RTM_NEWADDR:
	case RTM_DELADDR:
		dd_crash_after_change();
		break;
	default:
		break;
	}
}

EXPORT ssize_t sendmsg(int fd, const struct msghdr *msg, int flags)
{
	ssize_t ret;

	pthread_once(&resolved, resolve);
	if (msg && try_send(fd, msg, flags, &ret))
		return ret;
	if (!real.sendmsg) {
		errno = ENOSYS;
		return -1;
	}
	ret = real.sendmsg(fd, msg, flags);
	if (msg)
		kernel_change_sent(fd, msg, ret);
	return ret;
}

EXPORT ssize_t sendto(int fd, const void *buf, size_t len, int flags, const struct sockaddr *to,
		      socklen_t tolen)
{
	struct iovec iov = {.iov_base = (void *)buf, .iov_len = len};
	struct msghdr msg = {.msg_name = (void *)to,
			     .msg_namelen = to ? tolen : 0,
			     .msg_iov = &iov,
			     .msg_iovlen = 1};
	ssize_t ret;

	pthread_once(&resolved, resolve);
	if (buf && try_send(fd, &msg, flags, &ret))
		return ret;
	if (!real.sendto) {
		errno = ENOSYS;
		return -1;
	}
	ret = real.sendto(fd, buf, len, flags, to, tolen);
	if (buf)
		kernel_change_sent(fd, &msg, ret);
	return ret;
}

EXPORT ssize_t send(int fd, const void *buf, size_t len, int flags)
{
	struct iovec iov = {.iov_base = (void *)buf, .iov_len = len};
	struct msghdr msg = {.msg_iov = &iov, .msg_iovlen = 1};
	ssize_t ret;

	pthread_once(&resolved, resolve);
	if (buf && try_send(fd, &msg, flags, &ret))
		return ret;
	if (!real.send) {
		errno = ENOSYS;
		return -1;
	}
	ret = real.send(fd, buf, len, flags);
	if (buf)
		kernel_change_sent(fd, &msg, ret);
	return ret;
}

/*
 * The receive side: the next queued datagram, as netlink_recvmsg() returns
 * one: truncated to the buffer with MSG_TRUNC in msg_flags, its full length
 * returned under MSG_TRUNC, left queued under MSG_PEEK, from port 0.
 */
static bool try_recv(int fd, struct msghdr *msg, int flags, ssize_t *ret)
{
	struct dd_dgram *d = NULL;
	struct sock *s;
	size_t copied = 0;

	if (!tracked(fd) || (flags & MSG_ERRQUEUE))
		return false;
	if (!msg->msg_iov && msg->msg_iovlen)
		goto efault;
	for (size_t i = 0; i < (size_t)msg->msg_iovlen; i++)
		if (!msg->msg_iov[i].iov_base && msg->msg_iov[i].iov_len)
			goto efault;
	pthread_mutex_lock(&lock);
	s = find(fd);
	if (!s || !s->head || !same_socket(s)) {
		pthread_mutex_unlock(&lock);
		return false;
	}
	d = s->head;
	for (size_t i = 0; i < (size_t)msg->msg_iovlen && copied < d->len; i++) {
		size_t n = msg->msg_iov[i].iov_len;

		if (n > d->len - copied)
			n = d->len - copied;
		if (n)
			memcpy(msg->msg_iov[i].iov_base, d->data + copied, n);
		copied += n;
	}
	msg->msg_flags = copied < d->len ? MSG_TRUNC : 0;
	if (msg->msg_name) {
		struct sockaddr_nl from = {.nl_family = AF_NETLINK};

		memcpy(msg->msg_name, &from,
		       msg->msg_namelen < sizeof(from) ? msg->msg_namelen : sizeof(from));
		msg->msg_namelen = sizeof(from);
	}
	msg->msg_controllen = 0;
	*ret = (flags & MSG_TRUNC) ? (ssize_t)d->len : (ssize_t)copied;
	if (!(flags & MSG_PEEK)) {
		s->head = d->next;
		if (!s->head)
			s->tail = NULL;
		free(d);
	}
	pthread_mutex_unlock(&lock);
	return true;
efault:
	/* only when something is queued: else the kernel decides (and may block) */
	pthread_mutex_lock(&lock);
	s = find(fd);
	if (!s || !s->head) {
		pthread_mutex_unlock(&lock);
		return false;
	}
	pthread_mutex_unlock(&lock);
	errno = EFAULT;
	*ret = -1;
	return true;
}

EXPORT ssize_t recvmsg(int fd, struct msghdr *msg, int flags)
{
	ssize_t ret;

	pthread_once(&resolved, resolve);
	if (msg && try_recv(fd, msg, flags, &ret))
		return ret;
	REAL(recvmsg, fd, msg, flags);
}

static bool try_recvfrom(int fd, void *buf, size_t len, int flags, struct sockaddr *from,
			 socklen_t *fromlen, ssize_t *ret)
{
	struct iovec iov = {.iov_base = buf, .iov_len = len};
	struct msghdr msg = {.msg_name = from && fromlen ? from : NULL,
			     .msg_namelen = from && fromlen ? *fromlen : 0,
			     .msg_iov = &iov,
			     .msg_iovlen = 1};

	if (!try_recv(fd, &msg, flags, ret))
		return false;
	if (from && fromlen)
		*fromlen = msg.msg_namelen;
	return true;
}

EXPORT ssize_t recvfrom(int fd, void *buf, size_t len, int flags, struct sockaddr *from,
			socklen_t *fromlen)
{
	ssize_t ret;

	pthread_once(&resolved, resolve);
	if (try_recvfrom(fd, buf, len, flags, from, fromlen, &ret))
		return ret;
	REAL(recvfrom, fd, buf, len, flags, from, fromlen);
}

EXPORT ssize_t recv(int fd, void *buf, size_t len, int flags)
{
	ssize_t ret;

	pthread_once(&resolved, resolve);
	if (try_recvfrom(fd, buf, len, flags, NULL, NULL, &ret))
		return ret;
	REAL(recv, fd, buf, len, flags);
}

/* _FORTIFY_SOURCE turns recv()/recvfrom() with a known buffer size into these */
extern void __chk_fail(void) __attribute__((noreturn));

EXPORT ssize_t __recv_chk(int fd, void *buf, size_t len, size_t buflen, int flags)
{
	ssize_t ret;

	pthread_once(&resolved, resolve);
	if (len > buflen)
		__chk_fail();
	if (try_recvfrom(fd, buf, len, flags, NULL, NULL, &ret))
		return ret;
	REAL(recv_chk, fd, buf, len, buflen, flags);
}

EXPORT ssize_t __recvfrom_chk(int fd, void *buf, size_t len, size_t buflen, int flags,
			      struct sockaddr *from, socklen_t *fromlen)
{
	ssize_t ret;

	pthread_once(&resolved, resolve);
	if (len > buflen)
		__chk_fail();
	if (try_recvfrom(fd, buf, len, flags, from, fromlen, &ret))
		return ret;
	REAL(recvfrom_chk, fd, buf, len, buflen, flags, from, fromlen);
}
