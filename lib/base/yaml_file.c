// SPDX-License-Identifier: GPL-2.0-or-later
/* yaml_file.c - a user's YAML file read whole, within bounds, and its events checked */
#include <errno.h>
#include <stdbool.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/yaml_file.h"

/* Regular files only, opened without blocking; "-" is standard input as it is. */
static int yaml_file_open(const char *path, struct rdc_err *err)
{
	struct stat st;
	int fd;

	if (!strcmp(path, "-"))
		return STDIN_FILENO;
	fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return rdc_err_set(err, errno, "cannot open '%s'", path);
	if (fstat(fd, &st) < 0) {
		int code = errno;

		close(fd);
		return rdc_err_set(err, code, "cannot read '%s'", path);
	}
	if (!S_ISREG(st.st_mode)) {
		close(fd);
		return rdc_err_set(err, S_ISDIR(st.st_mode) ? EISDIR : EINVAL,
				   "'%s' is not a regular file", path);
	}
	return fd;
}

int rdc_yaml_file_read(const char *path, size_t max_bytes, unsigned char **buf, size_t *len,
		       struct rdc_err *err)
{
	unsigned char *data;
	size_t n = 0;
	int fd, rc = 0;

	fd = yaml_file_open(path, err);
	if (fd < 0)
		return fd;
	data = malloc(max_bytes + 1);
	if (!data) {
		rc = rdc_err_set(err, ENOMEM, "cannot load '%s'", path);
		goto out;
	}
	/* One byte past the limit tells a file at the limit from a larger one. */
	while (n <= max_bytes) {
		ssize_t got = read(fd, data + n, max_bytes + 1 - n);

		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			rc = rdc_err_set(err, errno, "cannot read '%s'", path);
			break;
		}
		if (got == 0)
			break;
		n += (size_t)got;
	}
	if (!rc && n > max_bytes)
		rc = rdc_err_set(err, EFBIG, "'%s' is over %zu bytes: not a settings file", path,
				 max_bytes);
	if (rc) {
		free(data);
		goto out;
	}
	*buf = data;
	*len = n;
out:
	if (fd != STDIN_FILENO)
		close(fd);
	return rc;
}

int rdc_yaml_parse_error(const yaml_parser_t *parser, const char *path, struct rdc_err *err)
{
	return rdc_err_set(err, EINVAL, "%s line %zu: %s", path, parser->problem_mark.line + 1,
			   parser->problem ? parser->problem : "not YAML");
}

int rdc_yaml_events(const char *path, const unsigned char *buf, size_t len,
		    int (*on_event)(void *ctx, const yaml_event_t *ev), void *ctx,
		    struct rdc_err *err)
{
	yaml_parser_t parser;
	yaml_event_t ev;
	bool done = false;
	int docs = 0, depth = 0, rc = 0;

	if (!yaml_parser_initialize(&parser))
		return rdc_err_set(err, ENOMEM, "cannot load '%s'", path);
	yaml_parser_set_input_string(&parser, buf, len);
	while (!done && !rc) {
		if (!yaml_parser_parse(&parser, &ev)) {
			rc = rdc_yaml_parse_error(&parser, path, err);
			break;
		}
		done = ev.type == YAML_STREAM_END_EVENT;
		if (ev.type == YAML_ALIAS_EVENT)
			rc = rdc_err_set(err, EINVAL, "%s line %zu: aliases are not allowed", path,
					 ev.start_mark.line + 1);
		else if (ev.type == YAML_DOCUMENT_START_EVENT && ++docs > 1)
			rc = rdc_err_set(err, EINVAL, "%s line %zu: only one document is allowed",
					 path, ev.start_mark.line + 1);
		else if ((ev.type == YAML_SEQUENCE_START_EVENT ||
			  ev.type == YAML_MAPPING_START_EVENT) &&
			 ++depth > RDC_YAML_MAX_DEPTH)
			rc = rdc_err_set(err, EINVAL, "%s line %zu: nested more than %d deep", path,
					 ev.start_mark.line + 1, RDC_YAML_MAX_DEPTH);
		else if (on_event)
			rc = on_event(ctx, &ev);
		if (ev.type == YAML_SEQUENCE_END_EVENT || ev.type == YAML_MAPPING_END_EVENT)
			depth--;
		yaml_event_delete(&ev);
	}
	yaml_parser_delete(&parser);
	return rc;
}
