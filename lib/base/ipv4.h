/* SPDX-License-Identifier: GPL-2.0-or-later */
/* ipv4.h - IPv4 addresses in host byte order: masks, subnets, CIDR text */
#pragma once

#include <netinet/in.h>
#include <stdint.h>

/* The network mask of a prefix length: 24 -> 0xffffff00, 0 -> 0 (host order). */
uint32_t rdc_ipv4_mask(unsigned int prefix_len);
/* Whether @a and @b lie in one subnet of @prefix_len bits. */
int rdc_ipv4_same_subnet(uint32_t a, uint32_t b, unsigned int prefix_len);
/* "198.18.1.1" */
void rdc_ipv4_format(uint32_t ipv4, char buf[INET_ADDRSTRLEN]);
/*
 * "10.0.0.0/8" -> net 0x0a000000, prefix 8; "10.1.2.3" -> prefix 32.
 * The host bits must be zero.  -EINVAL otherwise.
 */
int rdc_ipv4_cidr_parse(const char *text, uint32_t *net, uint32_t *prefix);
