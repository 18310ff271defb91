// SPDX-License-Identifier: GPL-2.0-or-later
/* fuzz_bench_proto.c - libFuzzer: the bench control decoder on arbitrary bytes, and round trips */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/proto.h"

/*
 * Whatever the peer sends:
 *   - the header and message decoders return 0 or -errno with a message, never crash;
 *   - a message that decodes re-encodes to the same length and the same bytes, except
 *     control characters in strings, which the decoder turned into '?';
 *   - the re-encoded message decodes to the same struct (memcmp is sound: the decoder
 *     zeroes the whole struct before it fills a field);
 *   - every buffer shorter than the message is -EMSGSIZE.
 */

#define FUZZ_CAP (RDC_BENCH_HDR_LEN + RDC_BENCH_MAX_FRAME)

static void fuzz_fail(const char *what)
{
	fprintf(stderr, "fuzz_bench_proto: %s\n", what);
	abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct rdc_bench_msg m1, m2;
	static uint8_t buf[FUZZ_CAP];
	struct rdc_err err = {0};
	uint16_t version = 0, type = 0;
	uint32_t len = 0;
	int hdr_rc = -1, rc;
	long n;

	if (size >= RDC_BENCH_HDR_LEN) {
		hdr_rc = rdc_bench_hdr_decode(data, &version, &type, &len, &err);
		if (hdr_rc && (hdr_rc != -err.code || !err.msg[0]))
			fuzz_fail("header error without its record");
		if (!hdr_rc && (len > RDC_BENCH_MAX_FRAME || version != RDC_BENCH_PROTO_VERSION))
			fuzz_fail("header accepted out of bounds");
	}

	memset(&err, 0, sizeof(err));
	rc = rdc_bench_msg_decode(data, size, &m1, &err);
	if (rc) {
		if (rc >= 0 || rc != -err.code || !err.msg[0])
			fuzz_fail("decode error without its record");
		return 0;
	}
	if (hdr_rc || len != size - RDC_BENCH_HDR_LEN || m1.type != type)
		fuzz_fail("message accepted with a bad header");

	n = rdc_bench_msg_encode(&m1, buf, sizeof(buf));
	if (n < 0)
		fuzz_fail("a decoded message does not encode");
	if ((size_t)n != size)
		fuzz_fail("re-encoded length differs");
	for (size_t i = 0; i < size; i++)
		if (buf[i] != data[i] && !(buf[i] == '?' && (data[i] < 0x20 || data[i] == 0x7f)))
			fuzz_fail("re-encoded bytes differ");

	rc = rdc_bench_msg_decode(buf, (size_t)n, &m2, &err);
	if (rc)
		fuzz_fail("a re-encoded message does not decode");
	if (memcmp(&m1, &m2, sizeof(m1)))
		fuzz_fail("round trip changed the message");

	/* A few short buffers: the whole message or -EMSGSIZE, nothing in between. */
	{
		static uint8_t small[FUZZ_CAP];
		size_t caps[] = {0, RDC_BENCH_HDR_LEN - 1, RDC_BENCH_HDR_LEN, (size_t)n / 2,
				 (size_t)n - 1};

		for (size_t i = 0; i < sizeof(caps) / sizeof(caps[0]); i++)
			if (caps[i] < (size_t)n &&
			    rdc_bench_msg_encode(&m2, small, caps[i]) != -EMSGSIZE)
				fuzz_fail("a short buffer is not -EMSGSIZE");
	}
	return 0;
}
