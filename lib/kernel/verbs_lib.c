// SPDX-License-Identifier: GPL-2.0-or-later
/* verbs_lib.c - libibverbs and librdmacm, loaded on first use instead of at every start */
#define _GNU_SOURCE /* dlinfo() */
#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
#include <link.h>
#include <stdbool.h>
#include <pthread.h>
#include <stdio.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "kernel/verbs_lib.h"

/*
 * The calls, one table per library: X(return type, NAME, parameters,
 * arguments) for the library's PREFIX_NAME, V(...) for those returning
 * nothing.  Each gives a function pointer, its dlsym() by name, and the
 * wrapper rdc_PREFIX_NAME.  dlsym() picks a symbol's default version, the
 * one the linker would have bound (ibv_create_qp@@IBVERBS_1.1, not 1.0's).
 */
/* The parameters are declarations, which clang-format would space as products. */
/* clang-format off */
#define IBV_CALLS(X, V)                                                                  \
	X(struct ibv_device **, get_device_list, (int *num_devices), (num_devices))      \
	V(free_device_list, (struct ibv_device **list), (list))                          \
	X(const char *, get_device_name, (struct ibv_device *device), (device))          \
	X(struct ibv_context *, open_device, (struct ibv_device *device), (device))      \
	X(int, close_device, (struct ibv_context *context), (context))                   \
	X(int, query_device, (struct ibv_context *context, struct ibv_device_attr *attr),\
	  (context, attr))                                                               \
	X(struct ibv_pd *, alloc_pd, (struct ibv_context *context), (context))           \
	X(int, dealloc_pd, (struct ibv_pd *pd), (pd))                                    \
	X(struct ibv_mr *, reg_mr, (struct ibv_pd *pd, void *addr, size_t length,       \
	  int access), (pd, addr, length, access))                                       \
	X(int, dereg_mr, (struct ibv_mr *mr), (mr))                                      \
	X(struct ibv_comp_channel *, create_comp_channel, (struct ibv_context *context), \
	  (context))                                                                     \
	X(int, destroy_comp_channel, (struct ibv_comp_channel *channel), (channel))      \
	X(struct ibv_cq *, create_cq, (struct ibv_context *context, int cqe,             \
	  void *cq_context, struct ibv_comp_channel *channel, int comp_vector),          \
	  (context, cqe, cq_context, channel, comp_vector))                              \
	X(int, destroy_cq, (struct ibv_cq *cq), (cq))                                    \
	X(int, get_cq_event, (struct ibv_comp_channel *channel, struct ibv_cq **cq,      \
	  void **cq_context), (channel, cq, cq_context))                                 \
	V(ack_cq_events, (struct ibv_cq *cq, unsigned int nevents), (cq, nevents))       \
	X(struct ibv_qp *, create_qp, (struct ibv_pd *pd, struct ibv_qp_init_attr *attr),\
	  (pd, attr))                                                                    \
	X(int, modify_qp, (struct ibv_qp *qp, struct ibv_qp_attr *attr, int attr_mask),  \
	  (qp, attr, attr_mask))                                                         \
	X(int, destroy_qp, (struct ibv_qp *qp), (qp))                                    \
	X(const char *, wc_status_str, (enum ibv_wc_status status), (status))

#define RDMA_CALLS(X, V)                                                                 \
	X(struct rdma_event_channel *, create_event_channel, (void), ())                 \
	V(destroy_event_channel, (struct rdma_event_channel *channel), (channel))        \
	X(int, create_id, (struct rdma_event_channel *channel, struct rdma_cm_id **id,   \
	  void *context, enum rdma_port_space ps), (channel, id, context, ps))           \
	X(int, destroy_id, (struct rdma_cm_id *id), (id))                                \
	X(int, bind_addr, (struct rdma_cm_id *id, struct sockaddr *addr), (id, addr))    \
	X(int, resolve_addr, (struct rdma_cm_id *id, struct sockaddr *src_addr,          \
	  struct sockaddr *dst_addr, int timeout_ms),                                    \
	  (id, src_addr, dst_addr, timeout_ms))                                          \
	X(int, resolve_route, (struct rdma_cm_id *id, int timeout_ms), (id, timeout_ms)) \
	X(int, connect, (struct rdma_cm_id *id, struct rdma_conn_param *conn_param),     \
	  (id, conn_param))                                                              \
	X(int, listen, (struct rdma_cm_id *id, int backlog), (id, backlog))              \
	X(int, accept, (struct rdma_cm_id *id, struct rdma_conn_param *conn_param),      \
	  (id, conn_param))                                                              \
	X(int, reject, (struct rdma_cm_id *id, const void *private_data, uint8_t len),   \
	  (id, private_data, len))                                                       \
	X(int, establish, (struct rdma_cm_id *id), (id))                                 \
	X(int, get_cm_event, (struct rdma_event_channel *channel,                        \
	  struct rdma_cm_event **event), (channel, event))                               \
	X(int, ack_cm_event, (struct rdma_cm_event *event), (event))                     \
	X(int, init_qp_attr, (struct rdma_cm_id *id, struct ibv_qp_attr *attr,           \
	  int *mask), (id, attr, mask))                                                  \
	X(int, set_option, (struct rdma_cm_id *id, int level, int optname, void *optval, \
	  size_t optlen), (id, level, optname, optval, optlen))                          \
	X(const char *, event_str, (enum rdma_cm_event_type event), (event))
/* clang-format on */

/*
 * The arguments are a declaration's parts (a type, a name, a parameter
 * list): parentheses around them would not compile.
 */
/* NOLINTBEGIN(bugprone-macro-parentheses) */
#define CALL_PTR(ret, name, params, args) ret(*name) params;
#define CALL_PTR_V(name, params, args) void(*name) params;
/* NOLINTEND(bugprone-macro-parentheses) */

static struct ibv_calls {
	IBV_CALLS(CALL_PTR, CALL_PTR_V)
	/* Wrapped by hand below: verbs.h puts inline code in front of these two. */
	int (*query_port)(struct ibv_context *context, uint8_t port_num,
			  struct _compat_ibv_port_attr *port_attr);
	ssize_t (*query_gid_table)(struct ibv_context *context, struct ibv_gid_entry *entries,
				   size_t max_entries, uint32_t flags, size_t entry_size);
} ibv;

static struct rdma_calls {
	RDMA_CALLS(CALL_PTR, CALL_PTR_V)
} rdma;

struct lib_sym {
	const char *name;
	size_t offset; /* of its pointer in the calls' struct */
};

#define IBV_SYM(ret, name, params, args) {"ibv_" #name, offsetof(struct ibv_calls, name)},
#define IBV_SYM_V(name, params, args) {"ibv_" #name, offsetof(struct ibv_calls, name)},
#define RDMA_SYM(ret, name, params, args) {"rdma_" #name, offsetof(struct rdma_calls, name)},
#define RDMA_SYM_V(name, params, args) {"rdma_" #name, offsetof(struct rdma_calls, name)},

static const struct lib_sym ibv_syms[] = {
	IBV_CALLS(IBV_SYM, IBV_SYM_V) /* and the two wrapped by hand */
	{"ibv_query_port", offsetof(struct ibv_calls, query_port)},
	{"_ibv_query_gid_table", offsetof(struct ibv_calls, query_gid_table)},
};

static const struct lib_sym rdma_syms[] = {RDMA_CALLS(RDMA_SYM, RDMA_SYM_V)};

/* One library's load, tried once: its outcome and, on failure, why. */
struct lib_load {
	const char *soname;
	const char *package; /* Debian's, for the hint */
	const struct lib_sym *syms;
	size_t nsyms;
	void *calls;
	void *handle; /* dlopen()'s, once loaded */
	bool tried;
	int rc;
	char why[512];
};

static struct lib_load ibv_load = {
	.soname = RDC_VERBS_LIB,
	.package = "libibverbs1",
	.syms = ibv_syms,
	.nsyms = RDC_ARRAY_SIZE(ibv_syms),
	.calls = &ibv,
};

static struct lib_load rdma_load = {
	.soname = RDC_RDMACM_LIB,
	.package = "librdmacm1",
	.syms = rdma_syms,
	.nsyms = RDC_ARRAY_SIZE(rdma_syms),
	.calls = &rdma,
};

/* Bench's link threads may open links at once: one of them loads, the others wait. */
static pthread_mutex_t load_lock = PTHREAD_MUTEX_INITIALIZER;

static void lib_failed(struct lib_load *l, const char *what)
{
	const char *e = dlerror();

	snprintf(l->why, sizeof(l->why), "%s", e ? e : what);
	l->rc = -ENOPKG;
}

/*
 * RTLD_GLOBAL as if linked: libibverbs' providers and librdmacm bind to this
 * copy of libibverbs.  Never closed: the process keeps what it loaded.
 */
static void lib_open(struct lib_load *l)
{
	void *h = dlopen(l->soname, RTLD_NOW | RTLD_GLOBAL);

	if (!h) {
		lib_failed(l, "cannot load it");
		return;
	}
	for (size_t i = 0; i < l->nsyms; i++) {
		void *fn;

		(void)dlerror();
		fn = dlsym(h, l->syms[i].name);
		if (!fn) {
			lib_failed(l, "a function is missing");
			return;
		}
		/* POSIX: a function's address as dlsym()'s void *, stored into its pointer. */
		memcpy((char *)l->calls + l->syms[i].offset, &fn, sizeof(fn));
	}
	l->handle = h;
	l->rc = 0;
}

static int lib_load(struct lib_load *l, struct rdc_err *err)
{
	int rc;

	pthread_mutex_lock(&load_lock);
	if (!l->tried) {
		lib_open(l);
		l->tried = true;
	}
	rc = l->rc;
	pthread_mutex_unlock(&load_lock);
	if (!rc)
		return 0;
	rdc_err_set(err, -rc, "cannot load %s", l->soname);
	rdc_err_detail(err, "%s; install Debian's %s (rdma-core)", l->why, l->package);
	rdc_err_mark(err, RDC_ERRK_NOT_SUPPORTED, NULL);
	return rc;
}

int rdc_verbs_load(struct rdc_err *err)
{
	return lib_load(&ibv_load, err);
}

int rdc_rdmacm_load(struct rdc_err *err)
{
	int rc = rdc_verbs_load(err);

	return rc ? rc : lib_load(&rdma_load, err);
}

int rdc_verbs_lib_file(char *buf, size_t size, struct rdc_err *err)
{
	struct link_map *map = NULL;
	char real[PATH_MAX];
	int rc = rdc_verbs_load(err);

	if (rc)
		return rc;
	if (dlinfo(ibv_load.handle, RTLD_DI_LINKMAP, &map) || !map || !map->l_name[0])
		return rdc_err_set(err, ENOENT, "%s is loaded, but dlinfo() names no file for it",
				   ibv_load.soname);
	snprintf(buf, size, "%s", realpath(map->l_name, real) ? real : map->l_name);
	return 0;
}

void rdc_verbs_lib_use(const char *verbs_soname, const char *rdmacm_soname)
{
	pthread_mutex_lock(&load_lock);
	ibv_load.soname = verbs_soname ? verbs_soname : RDC_VERBS_LIB;
	rdma_load.soname = rdmacm_soname ? rdmacm_soname : RDC_RDMACM_LIB;
	ibv_load.tried = rdma_load.tried = false;
	pthread_mutex_unlock(&load_lock);
}

/* NOLINTBEGIN(bugprone-macro-parentheses): as CALL_PTR's */
#define IBV_WRAP(ret, name, params, args)                                                          \
	ret rdc_ibv_##name params                                                                  \
	{                                                                                          \
		return ibv.name args;                                                              \
	}
#define IBV_WRAP_V(name, params, args)                                                             \
	void rdc_ibv_##name params                                                                 \
	{                                                                                          \
		ibv.name args;                                                                     \
	}
#define RDMA_WRAP(ret, name, params, args)                                                         \
	ret rdc_rdma_##name params                                                                 \
	{                                                                                          \
		return rdma.name args;                                                             \
	}
#define RDMA_WRAP_V(name, params, args)                                                            \
	void rdc_rdma_##name params                                                                \
	{                                                                                          \
		rdma.name args;                                                                    \
	}

/* NOLINTEND(bugprone-macro-parentheses) */

IBV_CALLS(IBV_WRAP, IBV_WRAP_V)
RDMA_CALLS(RDMA_WRAP, RDMA_WRAP_V)

/*
 * What verbs.h's inline ibv_query_port() does: a context with the extended
 * operation fills the whole struct; an old one gets the exported call,
 * which knows only the compat layout, over a zeroed struct.
 */
int rdc_ibv_query_port(struct ibv_context *context, uint8_t port_num,
		       struct ibv_port_attr *port_attr)
{
	struct verbs_context *vctx = verbs_get_ctx_op(context, query_port);

	if (vctx)
		return vctx->query_port(context, port_num, port_attr, sizeof(*port_attr));
	memset(port_attr, 0, sizeof(*port_attr));
	return ibv.query_port(context, port_num, (struct _compat_ibv_port_attr *)port_attr);
}

ssize_t rdc_ibv_query_gid_table(struct ibv_context *context, struct ibv_gid_entry *entries,
				size_t max_entries, uint32_t flags)
{
	return ibv.query_gid_table(context, entries, max_entries, flags, sizeof(*entries));
}
