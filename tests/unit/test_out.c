// SPDX-License-Identifier: GPL-2.0-or-later
/* test_out.c - the output layer: one call sequence, three formats */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "out/out.h"

/* Run the same sequence into a memory stream in @format and return what it wrote. */
static char *render(enum rdc_out_format format, bool pretty)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);
	struct rdc_out *o;

	assert_non_null(fp);
	o = rdc_out_new(fp, format, pretty, false);
	assert_non_null(o);
	rdc_out_begin(o, "test");
	rdc_out_arr_open(o, "ports");
	rdc_out_obj_open(o, NULL);
	rdc_out_str(o, RDC_OUT_ANY, "device", "%s", "mlx5_0");
	rdc_out_u64(o, RDC_OUT_ANY, "port", "/%llu", 1);
	rdc_out_text(o, " |");
	rdc_out_str(o, RDC_OUT_ANY, "quote", " %s", "a\"b\\c\n\t\x01");
	rdc_out_str(o, RDC_OUT_ANY, "looks_like_number", " %s", "4096");
	rdc_out_str(o, RDC_OUT_ANY, "looks_like_bool", " %s", "on");
	rdc_out_i64(o, RDC_OUT_ANY, "numa_node", " numa %lld", -1);
	rdc_out_f64(o, RDC_OUT_ANY, "rate_gbps", " %g", 2.5);
	rdc_out_f64(o, RDC_OUT_ANY, "nan", " %g", NAN);
	rdc_out_bool(o, RDC_OUT_ANY, "degraded", " degraded %s", true);
	rdc_out_null(o, "lid", " lid -");
	rdc_out_str(o, RDC_OUT_MACHINE, "machine_only", "%s", "m");
	rdc_out_arr_open(o, "empty");
	rdc_out_arr_close(o);
	rdc_out_nl(o);
	rdc_out_obj_close(o);
	rdc_out_arr_close(o);
	rdc_out_end(o);
	assert_int_equal(rdc_out_free(o), 0);
	fclose(fp);
	return buf;
}

static void test_json(void **state)
{
	char *s = render(RDC_FMT_JSON, false);

	(void)state;
	assert_string_equal(
		s, "{\"schema\":3,\"kind\":\"test\",\"ports\":[{\"device\":\"mlx5_0\",\"port\":1,"
		   "\"quote\":\"a\\\"b\\\\c\\n\\t\\u0001\",\"looks_like_number\":\"4096\","
		   "\"looks_like_bool\":\"on\",\"numa_node\":-1,\"rate_gbps\":2.5,"
		   "\"nan\":null,\"degraded\":true,\"lid\":null,\"machine_only\":\"m\","
		   "\"empty\":[]}]}\n");
	free(s);
}

static void test_json_pretty(void **state)
{
	char *s = render(RDC_FMT_JSON, true);

	(void)state;
	assert_non_null(strstr(s, "{\n  \"schema\": 3,\n  \"kind\": \"test\",\n  \"ports\": [\n    "
				  "{\n      \"device\": \"mlx5_0\""));
	assert_non_null(strstr(s, "\"empty\": []\n    }\n  ]\n}\n"));
	free(s);
}

static void test_yaml(void **state)
{
	char *s = render(RDC_FMT_YAML, false);

	(void)state;
	/* Strings are quoted so "4096" and "on" stay strings; numbers and null are plain. */
	assert_non_null(strstr(s, "schema: 3\nkind: 'test'\n"));
	assert_non_null(strstr(s, "- device: 'mlx5_0'\n"));
	assert_non_null(strstr(s, "  looks_like_number: '4096'\n"));
	assert_non_null(strstr(s, "  looks_like_bool: 'on'\n"));
	assert_non_null(strstr(s, "  numa_node: -1\n"));
	assert_non_null(strstr(s, "  rate_gbps: 2.5\n"));
	assert_non_null(strstr(s, "  degraded: true\n"));
	assert_non_null(strstr(s, "  lid: null\n"));
	assert_non_null(strstr(s, "  empty: []\n"));
	free(s);
}

static void test_text(void **state)
{
	char *s = render(RDC_FMT_TEXT, false);

	(void)state;
	/* Control characters inside a value are escaped for the terminal (issue 12). */
	assert_string_equal(
		s,
		"mlx5_0/1 | a\"b\\c\\x0a\\x09\\x01 4096 on numa -1 2.5 nan degraded yes lid -\n");
	free(s);
}

static void test_two_documents(void **state)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);
	struct rdc_out *o = rdc_out_new(fp, RDC_FMT_JSON, false, false);

	(void)state;
	for (int i = 0; i < 2; i++) {
		rdc_out_begin(o, "test");
		rdc_out_u64(o, RDC_OUT_ANY, "sample", NULL, (uint64_t)i + 1);
		rdc_out_end(o);
	}
	assert_int_equal(rdc_out_free(o), 0);
	fclose(fp);
	assert_string_equal(buf, "{\"schema\":3,\"kind\":\"test\",\"sample\":1}\n{\"schema\":3,"
				 "\"kind\":\"test\",\"sample\":2}\n");
	free(buf);
}

static void test_yaml_stream(void **state)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);
	struct rdc_out *o = rdc_out_new(fp, RDC_FMT_YAML, false, false);

	(void)state;
	for (int i = 0; i < 2; i++) {
		rdc_out_begin(o, "test");
		rdc_out_end(o);
	}
	assert_int_equal(rdc_out_free(o), 0);
	fclose(fp);
	assert_string_equal(buf, "schema: 3\nkind: 'test'\n---\nschema: 3\nkind: 'test'\n");
	free(buf);
}

static void test_color(void **state)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);
	struct rdc_out *o = rdc_out_new(fp, RDC_FMT_TEXT, false, true);

	(void)state;
	rdc_out_str_color(o, RDC_OUT_ANY, "state", "state %-8s|", "ACTIVE", RDC_COLOR_GREEN);
	assert_int_equal(rdc_out_free(o), 0);
	fclose(fp);
	assert_string_equal(buf, "state \033[32mACTIVE  \033[0m|");
	free(buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_json),	      cmocka_unit_test(test_json_pretty),
		cmocka_unit_test(test_yaml),	      cmocka_unit_test(test_text),
		cmocka_unit_test(test_two_documents), cmocka_unit_test(test_yaml_stream),
		cmocka_unit_test(test_color),
	};

	return cmocka_run_group_tests_name("out", tests, NULL, NULL);
}
