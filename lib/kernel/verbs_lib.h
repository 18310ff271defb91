/* SPDX-License-Identifier: GPL-2.0-or-later */
/* verbs_lib.h - libibverbs and librdmacm, loaded on first use instead of at every start */
#pragma once

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include <infiniband/verbs.h>
#include <rdma/rdma_cma.h>

#include "base/err.h"

/*
 * Why not linked: libibverbs needs libnl-route-3, whose eighty-odd
 * constructors (a cache or link type each) and relocations ran at every
 * start of rdmactl, `port` and `pfc show` included, though only bench and the
 * live GID table call into RDMA's libraries.  They are dlopen()ed by SONAME
 * (RTLD_NOW | RTLD_GLOBAL, as if linked) the first time one of those needs
 * them, once per process.
 *
 * Each function below is the libibverbs or librdmacm call of the same name
 * without the rdc_ prefix, with its signature and its return conventions;
 * call one only after rdc_verbs_load() (or rdc_rdmacm_load() for rdma_*)
 * returned 0.  The calls verbs.h inlines (ibv_post_send, ibv_poll_cq,
 * ibv_req_notify_cq, ibv_post_recv) go through the context's operations and
 * need no symbol: they stay as they are.
 */
#define RDC_VERBS_LIB "libibverbs.so.1"
#define RDC_RDMACM_LIB "librdmacm.so.1"

/*
 * 0 when libibverbs is loaded and has every function below; else -ENOPKG
 * with @err naming the library, dlerror()'s words and the Debian package.
 * Safe from several threads at once; tried once, the answer is the same each time.
 */
int rdc_verbs_load(struct rdc_err *err);
/* The same for librdmacm (which loads libibverbs too), for the rdma_* calls. */
int rdc_rdmacm_load(struct rdc_err *err);
/*
 * The file libibverbs was loaded from, links resolved (its name carries the
 * version: libibverbs.so.1.14.44.0, rdma-core 44), loading it if need be.
 * 0, or the load's error.
 */
int rdc_verbs_lib_file(char *buf, size_t size, struct rdc_err *err);
/*
 * Tests: load these files instead (NULL: the real ones) and forget what an
 * earlier load found.  Functions of a library loaded before keep working.
 */
void rdc_verbs_lib_use(const char *verbs_soname, const char *rdmacm_soname);

/* ---- libibverbs ----------------------------------------------------------- */
struct ibv_device **rdc_ibv_get_device_list(int *num_devices);
void rdc_ibv_free_device_list(struct ibv_device **list);
const char *rdc_ibv_get_device_name(struct ibv_device *device);
struct ibv_context *rdc_ibv_open_device(struct ibv_device *device);
int rdc_ibv_close_device(struct ibv_context *context);
int rdc_ibv_query_device(struct ibv_context *context, struct ibv_device_attr *device_attr);
/* verbs.h's ibv_query_port(): the context's extended operation where it has one. */
int rdc_ibv_query_port(struct ibv_context *context, uint8_t port_num,
		       struct ibv_port_attr *port_attr);
/* verbs.h's ibv_query_gid_table() (which passes the entry size). */
ssize_t rdc_ibv_query_gid_table(struct ibv_context *context, struct ibv_gid_entry *entries,
				size_t max_entries, uint32_t flags);
struct ibv_pd *rdc_ibv_alloc_pd(struct ibv_context *context);
int rdc_ibv_dealloc_pd(struct ibv_pd *pd);
/* libibverbs' ibv_reg_mr symbol: access flags without IBV_ACCESS_OPTIONAL_RANGE. */
struct ibv_mr *rdc_ibv_reg_mr(struct ibv_pd *pd, void *addr, size_t length, int access);
int rdc_ibv_dereg_mr(struct ibv_mr *mr);
struct ibv_comp_channel *rdc_ibv_create_comp_channel(struct ibv_context *context);
int rdc_ibv_destroy_comp_channel(struct ibv_comp_channel *channel);
struct ibv_cq *rdc_ibv_create_cq(struct ibv_context *context, int cqe, void *cq_context,
				 struct ibv_comp_channel *channel, int comp_vector);
int rdc_ibv_destroy_cq(struct ibv_cq *cq);
int rdc_ibv_get_cq_event(struct ibv_comp_channel *channel, struct ibv_cq **cq, void **cq_context);
void rdc_ibv_ack_cq_events(struct ibv_cq *cq, unsigned int nevents);
struct ibv_qp *rdc_ibv_create_qp(struct ibv_pd *pd, struct ibv_qp_init_attr *qp_init_attr);
int rdc_ibv_modify_qp(struct ibv_qp *qp, struct ibv_qp_attr *attr, int attr_mask);
int rdc_ibv_destroy_qp(struct ibv_qp *qp);
const char *rdc_ibv_wc_status_str(enum ibv_wc_status status);

/* ---- librdmacm ------------------------------------------------------------ */
struct rdma_event_channel *rdc_rdma_create_event_channel(void);
void rdc_rdma_destroy_event_channel(struct rdma_event_channel *channel);
int rdc_rdma_create_id(struct rdma_event_channel *channel, struct rdma_cm_id **id, void *context,
		       enum rdma_port_space ps);
int rdc_rdma_destroy_id(struct rdma_cm_id *id);
int rdc_rdma_bind_addr(struct rdma_cm_id *id, struct sockaddr *addr);
int rdc_rdma_resolve_addr(struct rdma_cm_id *id, struct sockaddr *src_addr,
			  struct sockaddr *dst_addr, int timeout_ms);
int rdc_rdma_resolve_route(struct rdma_cm_id *id, int timeout_ms);
int rdc_rdma_connect(struct rdma_cm_id *id, struct rdma_conn_param *conn_param);
int rdc_rdma_listen(struct rdma_cm_id *id, int backlog);
int rdc_rdma_accept(struct rdma_cm_id *id, struct rdma_conn_param *conn_param);
int rdc_rdma_reject(struct rdma_cm_id *id, const void *private_data, uint8_t private_data_len);
int rdc_rdma_establish(struct rdma_cm_id *id);
int rdc_rdma_get_cm_event(struct rdma_event_channel *channel, struct rdma_cm_event **event);
int rdc_rdma_ack_cm_event(struct rdma_cm_event *event);
int rdc_rdma_init_qp_attr(struct rdma_cm_id *id, struct ibv_qp_attr *qp_attr, int *qp_attr_mask);
int rdc_rdma_set_option(struct rdma_cm_id *id, int level, int optname, void *optval, size_t optlen);
const char *rdc_rdma_event_str(enum rdma_cm_event_type event);
