// SPDX-License-Identifier: GPL-2.0-or-later
/* test_journal.c - undo journals: written and read back, damaged ones refused, restore order */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "base/journal.h"
#include "base/util.h"

/* A fake plan: fixed-size, named, and a log of what restore did. */
struct fake {
	char name[16];
	uint32_t value;
	bool empty;
	int restore_rc;
};

static char calls[256];

static bool fake_empty(const void *p)
{
	return ((const struct fake *)p)->empty;
}

static const char *fake_name(const void *p)
{
	return ((const struct fake *)p)->name;
}

static const void *fake_blob(const void *p)
{
	return p;
}

static int fake_load(const void *blob, const char *name, void **out, struct rdc_err *err)
{
	struct fake *f = malloc(sizeof(*f));

	assert_non_null(f);
	memcpy(f, blob, sizeof(*f));
	if (!memchr(f->name, '\0', sizeof(f->name)) || strcmp(f->name, name)) {
		free(f);
		return rdc_err_set(err, EINVAL, "not a fake plan of '%s'", name);
	}
	*out = f;
	return 0;
}

static int fake_restore(void *p, struct rdc_err *err)
{
	struct fake *f = p;
	size_t len = strlen(calls);

	snprintf(calls + len, sizeof(calls) - len, "%s%s=%u", len ? " " : "", f->name, f->value);
	return f->restore_rc ? rdc_err_set(err, -f->restore_rc, "%s stuck", f->name) : 0;
}

static const struct rdc_change_ops fake_ops = {
	.empty = fake_empty,
	.name = fake_name,
	.kind = "fake",
	.blob_size = sizeof(struct fake),
	.blob = fake_blob,
	.load = fake_load,
	.revert = fake_restore,
};

static const struct rdc_change_ops *const kinds[] = {&fake_ops, NULL};

static char dir[64];

static int setup(void **state)
{
	(void)state;
	snprintf(dir, sizeof(dir), "/tmp/test_journal.XXXXXX");
	assert_non_null(mkdtemp(dir));
	/* The journal directory is made by the first save: a child of the scratch dir. */
	strcat(dir, "/run");
	setenv(RDC_JOURNAL_DIR_ENV, dir, 1);
	return 0;
}

static int teardown(void **state)
{
	char cmd[128];

	(void)state;
	*strrchr(dir, '/') = '\0';
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	assert_int_equal(system(cmd), 0);
	return 0;
}

/* A journal of three fakes (the middle one empty) on eth0 and eth1, saved. */
static void make_journal(struct rdc_journal *j, struct fake *f, struct rdc_change *c)
{
	struct rdc_locks locks = {.count = 2, .name = {"eth0", "eth1"}};
	struct rdc_err err = {0};

	memset(f, 0, 3 * sizeof(*f));
	strcpy(f[0].name, "eth0");
	f[0].value = 1500;
	strcpy(f[1].name, "eth1");
	f[1].empty = true;
	strcpy(f[2].name, "eth1");
	f[2].value = 9000;
	for (int i = 0; i < 3; i++) {
		c[i].ops = &fake_ops;
		c[i].plan = &f[i];
	}
	assert_int_equal(rdc_journal_init(j, "rdmactl port set eth0\tmtu 9000", &locks, &err), 0);
	assert_int_equal(rdc_journal_save(j, c, 3, &err), 0);
}

static void test_round_trip(void **state)
{
	struct rdc_journal j, back;
	struct fake f[3];
	struct rdc_change c[3], loaded[RDC_JOURNAL_MAX_CHANGES];
	struct rdc_err err = {0};
	struct rdc_names list;
	struct stat st;

	(void)state;
	make_journal(&j, f, c);
	assert_int_equal(stat(dir, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0700);
	assert_int_equal(stat(j.path, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0600);
	assert_int_equal(rdc_journal_list(&list, &err), 0);
	assert_int_equal(list.count, 1);
	assert_string_equal(list.names[0], j.path);
	rdc_names_free(&list);

	assert_int_equal(rdc_journal_read(j.path, &back, &err), 0);
	/* A tab is not kept raw: the command line is printable text. */
	assert_string_equal(back.command, "rdmactl port set eth0?mtu 9000");
	assert_int_equal(back.state, RDC_JOURNAL_APPLYING);
	assert_int_equal(back.pid, getpid());
	assert_int_equal(back.nnetdevs, 2);
	assert_true(rdc_journal_covers(&back, j.netns, "eth1"));
	assert_false(rdc_journal_covers(&back, j.netns, "eth2"));
	assert_false(rdc_journal_covers(&back, j.netns + 1, "eth1"));
	/* The empty plan is not kept. */
	assert_int_equal(back.nchanges, 2);
	assert_int_equal(rdc_journal_plans(&back, kinds, loaded, &err), 0);
	calls[0] = '\0';
	assert_int_equal(rdc_change_restore(loaded, back.nchanges, &err), 0);
	/* Newest first. */
	assert_string_equal(calls, "eth1=9000 eth0=1500");
	rdc_journal_plans_free(loaded, back.nchanges);
	rdc_journal_free(&back);

	/* Pending: the deadline is kept; removing it twice is fine. */
	j.state = RDC_JOURNAL_PENDING;
	j.deadline = j.started + 30;
	assert_int_equal(rdc_journal_save(&j, c, 3, &err), 0);
	assert_int_equal(rdc_journal_read(j.path, &back, &err), 0);
	assert_int_equal(back.state, RDC_JOURNAL_PENDING);
	assert_int_equal(back.deadline, j.started + 30);
	rdc_journal_free(&back);
	assert_int_equal(rdc_journal_remove(&j, &err), 0);
	assert_int_equal(rdc_journal_remove(&j, &err), 0);
	assert_int_equal(rdc_journal_read(j.path, &back, &err), -ENOENT);
}

static void test_restore_keeps_going(void **state)
{
	struct rdc_change c[3];
	struct fake f[3] = {
		{"eth0", 1, false, 0}, {"eth1", 2, false, -EIO}, {"eth2", 3, false, -EBUSY}};
	struct rdc_err err = {0};

	(void)state;
	for (int i = 0; i < 3; i++) {
		c[i].ops = &fake_ops;
		c[i].plan = &f[i];
	}
	calls[0] = '\0';
	/*
	 * Every one is tried, newest first; a real failure (eth1's EIO) wins over
	 * another writer's value left alone (eth2's EBUSY): the journal must stay.
	 */
	assert_int_equal(rdc_change_restore(c, 3, &err), -EIO);
	assert_string_equal(calls, "eth2=3 eth1=2 eth0=1");
	assert_string_equal(err.msg, "eth1 stuck");
	/* Only another writer's: -EBUSY, named. */
	f[1].restore_rc = 0;
	memset(&err, 0, sizeof(err));
	calls[0] = '\0';
	assert_int_equal(rdc_change_restore(c, 3, &err), -EBUSY);
	assert_string_equal(err.msg, "eth2 stuck");
}

static char *slurp(const char *path, size_t *len)
{
	FILE *fp = fopen(path, "rb");
	char *buf = malloc(1 << 16);

	assert_non_null(fp);
	assert_non_null(buf);
	*len = fread(buf, 1, 1 << 16, fp);
	fclose(fp);
	return buf;
}

static void test_damaged_refused(void **state)
{
	struct rdc_journal j, back;
	struct fake f[3];
	struct rdc_change c[3], loaded[RDC_JOURNAL_MAX_CHANGES];
	struct rdc_err err = {0};
	size_t len;
	char *buf, *copy;

	(void)state;
	make_journal(&j, f, c);
	buf = slurp(j.path, &len);
	assert_int_equal(rdc_journal_parse(buf, len, &back, &err), 0);
	rdc_journal_free(&back);
	/* Cut anywhere: refused with a reason, never read past the end. */
	for (size_t cut = 0; cut < len; cut++) {
		copy = malloc(cut ? cut : 1);
		memcpy(copy, buf, cut);
		memset(&err, 0, sizeof(err));
		assert_int_equal(rdc_journal_parse(copy, cut, &back, &err), -EINVAL);
		assert_true(err.msg[0] != '\0');
		free(copy);
	}
	/* Another version's journal. */
	copy = malloc(len + 16);
	memcpy(copy, buf, len);
	memcpy(strstr(copy, "version ") + 8, "9", 1);
	assert_int_equal(rdc_journal_parse(copy, len, &back, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "another rdmactl version"));
	/* A byte count that does not end at a newline. */
	memcpy(copy, buf, len);
	{
		char *size = strstr(copy, "change fake eth0 ");

		assert_non_null(size);
		size[17] = size[17] == '9' ? '8' : (char)(size[17] + 1);
	}
	assert_int_equal(rdc_journal_parse(copy, len, &back, &err), -EINVAL);
	/* A kind no ops knows, or a plan whose name differs from its record. */
	memcpy(copy, buf, len);
	memcpy(strstr(copy, "change fake"), "change fakx", 11);
	assert_int_equal(rdc_journal_parse(copy, len, &back, &err), 0);
	assert_int_equal(rdc_journal_plans(&back, kinds, loaded, &err), -EINVAL);
	rdc_journal_free(&back);
	memcpy(copy, buf, len);
	memcpy(strstr(copy, "change fake eth0") + 12, "eth9", 4);
	assert_int_equal(rdc_journal_parse(copy, len, &back, &err), 0);
	assert_int_equal(rdc_journal_plans(&back, kinds, loaded, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "not a fake plan of 'eth9'"));
	rdc_journal_free(&back);
	/* A netdev that cannot be one. */
	memcpy(copy, buf, len);
	memcpy(strstr(copy, "netdev eth1") + 7, "et/1", 4);
	assert_int_equal(rdc_journal_parse(copy, len, &back, &err), -EINVAL);
	free(copy);
	free(buf);
	assert_int_equal(rdc_journal_remove(&j, &err), 0);
}

static void test_read_refuses_links(void **state)
{
	struct rdc_journal j, back;
	struct fake f[3];
	struct rdc_change c[3];
	struct rdc_err err = {0};
	char link[128];

	(void)state;
	make_journal(&j, f, c);
	snprintf(link, sizeof(link), "%s/link.undo", dir);
	assert_int_equal(symlink(j.path, link), 0);
	assert_int_equal(rdc_journal_read(link, &back, &err), -ELOOP);
	unlink(link);
	assert_int_equal(rdc_journal_remove(&j, &err), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_round_trip, setup, teardown),
		cmocka_unit_test(test_restore_keeps_going),
		cmocka_unit_test_setup_teardown(test_damaged_refused, setup, teardown),
		cmocka_unit_test_setup_teardown(test_read_refuses_links, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
