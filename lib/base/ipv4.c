// SPDX-License-Identifier: GPL-2.0-or-later
/* ipv4.c - IPv4 addresses in host byte order: masks, subnets, CIDR text */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <arpa/inet.h>

#include "base/ipv4.h"
#include "base/util.h"

uint32_t rdc_ipv4_mask(unsigned int prefix_len)
{
	if (prefix_len == 0)
		return 0;
	if (prefix_len >= 32)
		return 0xffffffffu;
	return 0xffffffffu << (32 - prefix_len);
}

int rdc_ipv4_same_subnet(uint32_t a, uint32_t b, unsigned int prefix_len)
{
	uint32_t mask = rdc_ipv4_mask(prefix_len);

	return (a & mask) == (b & mask);
}

void rdc_ipv4_format(uint32_t ipv4, char buf[INET_ADDRSTRLEN])
{
	struct in_addr a = {.s_addr = htonl(ipv4)};

	if (!inet_ntop(AF_INET, &a, buf, INET_ADDRSTRLEN))
		snprintf(buf, INET_ADDRSTRLEN, "?");
}

int rdc_ipv4_cidr_parse(const char *text, uint32_t *net, uint32_t *prefix)
{
	char addr[INET_ADDRSTRLEN];
	const char *slash = strchr(text, '/');
	size_t n = slash ? (size_t)(slash - text) : strlen(text);
	struct in_addr in;

	*prefix = 32;
	if (!n || n >= sizeof(addr))
		return -EINVAL;
	memcpy(addr, text, n);
	addr[n] = '\0';
	if (inet_pton(AF_INET, addr, &in) != 1)
		return -EINVAL;
	if (slash && rdc_parse_u32_range(slash + 1, 0, 32, prefix))
		return -EINVAL;
	*net = ntohl(in.s_addr);
	if (*net & ~rdc_ipv4_mask(*prefix))
		return -EINVAL;
	return 0;
}
