# SPDX-License-Identifier: GPL-2.0-or-later
# rdmactl - plain Makefile over pkg-config.  `make help` lists the targets.

VERSION := 0.1.0
PREFIX ?= /usr/local
DESTDIR ?=
SBINDIR ?= $(PREFIX)/sbin
MANDIR ?= $(PREFIX)/share/man
BASHCOMPDIR ?= $(PREFIX)/share/bash-completion/completions
ZSHCOMPDIR ?= $(PREFIX)/share/zsh/vendor-completions
DATADIR ?= $(PREFIX)/share/rdmactl

CC ?= cc
PKG_CONFIG ?= pkg-config
PKGS := libmnl libnl-3.0 yaml-0.1
# Headers only: rdmactl loads libibverbs and librdmacm when bench or the live GID
# table first needs them (lib/kernel/verbs_lib.h says why), so they are not linked.
DLOPEN_PKGS := libibverbs librdmacm

PKG_CFLAGS := $(shell $(PKG_CONFIG) --cflags $(PKGS) $(DLOPEN_PKGS) 2>/dev/null)
PKG_LIBS := $(shell $(PKG_CONFIG) --libs $(PKGS) 2>/dev/null)
# rdmactl -V: libibverbs and libmnl have no call that returns their version,
# so the versions built against are compiled in (libnl and libyaml say theirs).
IBVERBS_VERSION := $(shell $(PKG_CONFIG) --modversion libibverbs 2>/dev/null)
MNL_VERSION := $(shell $(PKG_CONFIG) --modversion libmnl 2>/dev/null)
ifeq ($(filter clean help deps,$(MAKECMDGOALS)),)
ifneq ($(shell $(PKG_CONFIG) --exists $(PKGS) $(DLOPEN_PKGS) && echo ok),ok)
$(error missing build dependencies ($(PKGS) $(DLOPEN_PKGS)): run 'scripts/install-deps' as root)
endif
# rtnetlink requests are built with libnl-3; from 3.5 its nests carry NLA_F_NESTED.
ifneq ($(shell $(PKG_CONFIG) --atleast-version=3.5 libnl-3.0 && echo ok),ok)
$(error libnl-3.0 $(shell $(PKG_CONFIG) --modversion libnl-3.0) is older than 3.5, which the rtnetlink requests need)
endif
endif

WARN := -Wall -Wextra -Wformat=2 -Wshadow -Wstrict-prototypes -Wmissing-prototypes \
	-Wmissing-declarations -Wold-style-definition -Wvla -Wwrite-strings -Wundef \
	-Wlogical-op -Wpointer-arith -Wcast-align -Wno-unused-parameter
ifeq ($(WERROR),1)
WARN += -Werror
endif
# What rdmactl -V prints; the compiler, clang-tidy and the fuzzers all get the same.
VERSION_DEFS := -DRDC_VERSION='"$(VERSION)"' -DRDC_IBVERBS_VERSION='"$(IBVERBS_VERSION)"' \
	-DRDC_MNL_VERSION='"$(MNL_VERSION)"'
OPT ?= -O2 -g
CFLAGS ?= $(OPT)
ALL_CFLAGS := -std=gnu11 $(WARN) $(CFLAGS) -D_FORTIFY_SOURCE=2 -fstack-protector-strong \
	$(VERSION_DEFS) -Ilib -Icmd $(PKG_CFLAGS)
LDLIBS := $(PKG_LIBS) -lm -pthread

ifeq ($(V),1)
Q :=
else
Q := @
endif

BUILD ?= build
LIB_SRC := $(wildcard lib/*/*.c)
CMD_SRC := $(wildcard cmd/*.c)
LIB_OBJ := $(LIB_SRC:%.c=$(BUILD)/%.o)
CMD_OBJ := $(CMD_SRC:%.c=$(BUILD)/%.o)
UNIT_SRC := $(wildcard tests/unit/test_*.c)
UNIT_BIN := $(UNIT_SRC:tests/unit/%.c=$(BUILD)/tests/%)
MAN_SRC := $(wildcard man/*.scd)
MAN_OUT := $(MAN_SRC:man/%.scd=$(BUILD)/man/%)
EXAMPLE_HOSTS := cx6dx cx6dx-lag seed-gateway
# Example alert rules for the metrics of `diag metrics` (installed to $(DATADIR)/prometheus).
PROM_RULES := $(wildcard contrib/prometheus/*.yml)
# Example Grafana dashboard for the same metrics (installed to $(DATADIR)/grafana).
GRAFANA_DASHBOARDS := $(wildcard contrib/grafana/*.json)
# The JSON Schema of every document rdmactl prints (installed to $(DATADIR)/schemas).
SCHEMAS := $(wildcard schemas/*.schema.json)

# Flags are a dependency: $(BUILD)/.flags holds the compiler, its flags and the
# link line, and is rewritten only when they change (WERROR=1, OPT, CFLAGS,
# LDFLAGS, CC, ...), which then rebuilds every object and relinks.  Comparing
# here rather than in a recipe keeps `make -n` honest: unchanged flags plan nothing.
FLAGS_FILE := $(BUILD)/.flags
FLAGS_NOW := $(CC) $(ALL_CFLAGS) $(LDFLAGS) $(LDLIBS)

# libFuzzer on every parser of outside input (docs/HACKING.md §5), clang only, its own folder:
# build-fuzz/fuzz_TARGET from tests/fuzz/fuzz_TARGET.c (fuzz_yaml.c three times, one loader
# each), linked with the whole lib/ built with the sanitizers.  tests/fuzz/corpus/TARGET/ holds
# its seeds (tests/fuzz/mkseeds.py); new inputs go to build-fuzz/corpus/TARGET, crashes to
# build-fuzz/crash-TARGET-*.
FUZZ_CC ?= clang
FUZZ_SECONDS ?= 60
FUZZ_BUILD := build-fuzz
FUZZ_TARGETS := bench_proto nl_rec nl_reply parse pfc_yaml netplan_yaml policy_yaml bond_procfs \
	bundle journal
FUZZ_BIN := $(FUZZ_TARGETS:%=$(FUZZ_BUILD)/fuzz_%)
FUZZ_CFLAGS := -std=gnu11 -Wall -Wextra -Wno-unused-parameter -g -O1 -fno-omit-frame-pointer \
	-fsanitize=address,undefined -fno-sanitize-recover=all -Ilib -Itests/fuzz $(PKG_CFLAGS)
FUZZ_LIB_OBJ := $(LIB_SRC:%.c=$(FUZZ_BUILD)/%.o)
# What each target's source is, where it is not tests/fuzz/fuzz_TARGET.c.
FUZZ_SRC_pfc_yaml := tests/fuzz/fuzz_yaml.c
FUZZ_SRC_netplan_yaml := tests/fuzz/fuzz_yaml.c
FUZZ_SRC_policy_yaml := tests/fuzz/fuzz_yaml.c
FUZZ_DEF_pfc_yaml := -DFUZZ_YAML_PFC
FUZZ_DEF_netplan_yaml := -DFUZZ_YAML_NETPLAN
FUZZ_DEF_policy_yaml := -DFUZZ_YAML_POLICY
# check builds the fuzzers where clang is, and tests/run's fuzz tier runs each briefly.
FUZZ_IF_CLANG := $(if $(shell command -v $(FUZZ_CC) 2>/dev/null),$(FUZZ_BIN))

.PHONY: asan-build asan-check all ci clean check check-unit check-cli check-corrupt check-netns check-ansible check-lab check-layers \
	install uninstall man asan lint format-check help deps bench fuzz hosts-tar deb FORCE

all: rdmactl man

rdmactl: $(LIB_OBJ) $(CMD_OBJ) $(FLAGS_FILE)
	@echo "  LD      $@"
	$(Q)$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $(filter %.o,$^) $(LDLIBS)

$(BUILD)/%.o: %.c $(FLAGS_FILE)
	@mkdir -p $(dir $@)
	@echo "  CC      $<"
	$(Q)$(CC) $(ALL_CFLAGS) -MMD -MP -c -o $@ $<

ifneq ($(strip $(FLAGS_NOW)),$(strip $(shell cat $(FLAGS_FILE) 2>/dev/null)))
$(FLAGS_FILE): FORCE
endif
$(FLAGS_FILE):
	@mkdir -p $(dir $@)
	@echo "  FLAGS   $@"
	$(Q)printf '%s\n' '$(subst ','\'',$(FLAGS_NOW))' >$@

FORCE:

-include $(LIB_OBJ:.o=.d) $(CMD_OBJ:.o=.d)

# Unit tests link the library objects (not cmd/, which has main) and cmocka.
$(BUILD)/tests/test_%: tests/unit/test_%.c $(LIB_OBJ) $(filter-out $(BUILD)/cmd/main.o,$(CMD_OBJ)) \
		$(FLAGS_FILE)
	@mkdir -p $(dir $@)
	@echo "  CCLD    $@"
	$(Q)$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $(filter-out $(FLAGS_FILE),$^) $(LDLIBS) \
		$(shell $(PKG_CONFIG) --libs cmocka)

man: $(MAN_OUT)

$(BUILD)/man/%: man/%.scd
	@mkdir -p $(dir $@)
	@echo "  SCDOC   $@"
	$(Q)scdoc < $< > $@.tmp && mv $@.tmp $@

# The dcbnl NIC double that `pfc` is tested against (tests/dcb-double/README.md).
include tests/dcb-double/double.mk

# check: the include rules, then every tier whose needs are met; tests/run says
# which were skipped and why.
# With asan in the same make (CI: check asan), the corrupt and netns tiers and the cli
# files that test the binary run once, under the sanitizers, where a memory error or
# undefined behaviour shows; the plain run keeps the cli files that test the tree
# (CLI_TREE).  The lab, ansible and package tiers run the plain binary.
CLI_TREE := fixtures build install layers kubernetes
ifneq ($(filter check,$(MAKECMDGOALS)),)
ifneq ($(filter asan,$(MAKECMDGOALS)),)
CHECK_TIERS := unit cli ansible $(if $(LAB_APART),,lab) fuzz package
ASAN_AFTER_CHECK := 1
CHECK_ENV := CLI_ONLY="$(CLI_TREE)" SCHEMA_CHECK=0
endif
endif

# Builds run two jobs at a time (CI has two cores and runs make without -j); under make -jN
# the sub-makes share its jobs instead.
SUB_JOBS = $(if $(filter -j%,$(MAKEFLAGS)),,-j2)
# The cli tier's files two at a time (tests/run: BATS_JOBS, GNU parallel); BATS_JOBS=1: serial.
CHECK_BATS_JOBS = BATS_JOBS=$${BATS_JOBS:-2}

check:
	$(Q)$(MAKE) --no-print-directory $(SUB_JOBS) check-layers rdmactl $(UNIT_BIN) man \
		$(DCB_DOUBLE_ALL) $(FUZZ_IF_CLANG)
	$(Q)$(CHECK_BATS_JOBS) $(CHECK_ENV) tests/run $(CHECK_TIERS)

# ci: CI's run, the README's test command: lint format-check check asan, with the lab
# tier beside them (tests/ci says why and how); LAB_APART=1 is how it leaves the lab out
# of check.
ci:
	$(Q)tests/ci

# The includes, then what the built objects call (nm): both must point down the layers.
check-layers: $(LIB_OBJ) $(CMD_OBJ)
	$(Q)scripts/check-layers --objects $(BUILD)

check-unit: $(UNIT_BIN)
	$(Q)tests/run unit

check-cli: rdmactl man $(DCB_DOUBLE_ALL)
	$(Q)tests/run cli

# Every fixture host corrupted, every read-only verb on it (tests/corrupt/corrupt.py).
check-corrupt: rdmactl
	$(Q)tests/run corrupt

check-netns: rdmactl
	$(Q)tests/run netns

# The Ansible collection: modules against the dcbnl double, playbooks, sanity, lint.
check-ansible: rdmactl $(DCB_DOUBLE_ALL)
	$(Q)tests/run ansible

check-lab: rdmactl
	$(Q)tests/run lab

# Sanitizer build in its own folder (two jobs at a time, SUB_JOBS), then the same tests
# against it (a make of its own, without jobs: the tests' environment is the serial one).
# Its binaries are linked without -pie: the sanitizer build's rdmactl carries about 80000
# relocations (mostly ASan's descriptors of its instrumented globals), which the linker
# then resolves once instead of ld.so at each of the tests' thousands of starts.
# UBSan's checks trap (-fsanitize-undefined-trap-on-error) instead of calling libubsan:
# the same checks, but one sanitizer runtime in each of those starts, not two.  libubsan
# is a second copy of the sanitizer runtime with 5.8 MiB of .bss of its own, which
# LeakSanitizer reads at every exit (measured: an ASan `rdmactl --version` 46 to 32 ms,
# `port` 59 to 41 ms).  AddressSanitizer reports a trap with the check's file and line
# (tests/asan/asan_options.c: handle_sigill=1), and asan-check proves that it does.
ASAN_MAKE = $(MAKE) --no-print-directory BUILD=build-asan \
	OPT='-O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined -fsanitize-undefined-trap-on-error -fno-sanitize-recover=all' \
	LDFLAGS='-fsanitize=address -no-pie' RDMACTL_BIN=build-asan/rdmactl
asan:
	$(ASAN_MAKE) $(SUB_JOBS) asan-build
	$(ASAN_MAKE) ASAN_AFTER_CHECK=$(ASAN_AFTER_CHECK) asan-check

# Linked into the sanitizer build's rdmactl only: LeakSanitizer's scan at exit faults
# far less (tests/asan/bss_hugepages.c says why and how), and a UBSan trap is reported
# (tests/asan/asan_options.c).
ASAN_OBJ := $(BUILD)/tests/asan/bss_hugepages.o $(BUILD)/tests/asan/asan_options.o

asan-build: $(UNIT_BIN) $(LIB_OBJ) $(CMD_OBJ) $(ASAN_OBJ) man $(DCB_DOUBLE_ALL) $(FLAGS_FILE)

asan-check: asan-build
	$(Q)$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $(BUILD)/rdmactl $(LIB_OBJ) $(CMD_OBJ) $(ASAN_OBJ) $(LDLIBS)
	@# Proof that the leak checks below are live in a binary linked like that one.
	$(Q)$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $(BUILD)/tests/leak_probe tests/asan/leak_probe.c $(ASAN_OBJ)
	$(Q)if ASAN_OPTIONS="$${ASAN_OPTIONS:+$$ASAN_OPTIONS:}verify_asan_link_order=0:detect_leaks=1" \
		$(BUILD)/tests/leak_probe 2>$(BUILD)/tests/leak_probe.log || \
		! grep -q 'LeakSanitizer: detected memory leaks' $(BUILD)/tests/leak_probe.log; then \
		cat $(BUILD)/tests/leak_probe.log; \
		echo "asan: LeakSanitizer reported no leak in tests/asan/leak_probe.c"; exit 1; fi
	@# And that undefined behaviour still stops such a binary with a report of its line.
	$(Q)$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $(BUILD)/tests/ub_probe tests/asan/ub_probe.c $(ASAN_OBJ)
	$(Q)if ASAN_OPTIONS="$${ASAN_OPTIONS:+$$ASAN_OPTIONS:}verify_asan_link_order=0" \
		$(BUILD)/tests/ub_probe >/dev/null 2>$(BUILD)/tests/ub_probe.log || \
		! grep -q 'AddressSanitizer: ILL .*ub_probe\.c:[0-9]' $(BUILD)/tests/ub_probe.log; then \
		cat $(BUILD)/tests/ub_probe.log; \
		echo "asan: no report of tests/asan/ub_probe.c's signed overflow"; exit 1; fi
	@# The cli test files that check the tree, not how rdmactl is built, ran in the plain
	@# run.  JSON documents are captured and validated once: here the cli, corrupt and
	@# netns tiers', when the plain run left them to this one.  Leak checks stay on in every
	@# tier (LeakSanitizer at each rdmactl exit): the time goes to BATS_JOBS instead.
	@# Every sanitizer report goes to a file in SANITIZER_LOG_DIR, and a tier with one
	@# fails whatever exit status the report gave its test (tests/run).
	$(Q)CLI_SKIP="$(CLI_TREE)" RDMACTL=$(CURDIR)/$(BUILD)/rdmactl $(CHECK_BATS_JOBS) \
		UNIT_DIR=$(BUILD)/tests SCHEMA_TIERS="$(if $(ASAN_AFTER_CHECK),cli corrupt netns)" \
		SANITIZER_LOG_DIR=$(CURDIR)/$(BUILD)/sanitizer-reports tests/run unit cli corrupt netns

TIDY_FLAGS = -std=gnu11 -Ilib -Icmd $(PKG_CFLAGS) $(VERSION_DEFS)
# Two halves of about the same clang-tidy time (CPU seconds measured on a loaded machine:
# A 191, B 186, cppcheck 10).
TIDY_A := $(filter lib/base/% lib/bench/% lib/bond/% lib/diag/%,$(LIB_SRC))
TIDY_B := $(filter-out $(TIDY_A),$(LIB_SRC)) $(CMD_SRC)

# cppcheck and the two clang-tidy halves at once (CI has two cores; cppcheck takes a
# twentieth of the time); lint fails when any of the three does, after all three ran.
lint:
	$(Q)cppcheck --quiet --error-exitcode=1 --enable=warning,portability,performance \
		--inline-suppr --std=c11 -Ilib -Icmd $(LIB_SRC) $(CMD_SRC) & c=$$!; \
		clang-tidy --quiet $(TIDY_A) -- $(TIDY_FLAGS) & a=$$!; \
		clang-tidy --quiet $(TIDY_B) -- $(TIDY_FLAGS); b=$$?; \
		wait $$a; a=$$?; wait $$c; c=$$?; [ $$a -eq 0 ] && [ $$b -eq 0 ] && [ $$c -eq 0 ]

format-check:
	clang-format --dry-run --Werror $(LIB_SRC) $(CMD_SRC) $(wildcard lib/*/*.h cmd/*.h)

bench: rdmactl
	scripts/bench-port

# Each target FUZZ_SECONDS over its seeds; a crash ends that target's run (the input is kept as
# build-fuzz/crash-TARGET-*), the others still run, and make fails at the end.
fuzz: $(FUZZ_BIN)
	$(Q)bad=; for t in $(FUZZ_TARGETS); do \
		mkdir -p $(FUZZ_BUILD)/corpus/$$t tests/fuzz/corpus/$$t; \
		echo "  FUZZ    $$t ($(FUZZ_SECONDS) s)"; \
		$(FUZZ_BUILD)/fuzz_$$t -max_total_time=$(FUZZ_SECONDS) -max_len=70000 -timeout=10 \
			-print_final_stats=1 -artifact_prefix=$(FUZZ_BUILD)/crash-$$t- \
			$(FUZZ_BUILD)/corpus/$$t tests/fuzz/corpus/$$t >$(FUZZ_BUILD)/fuzz_$$t.log 2>&1 || \
			{ bad="$$bad $$t"; tail -40 $(FUZZ_BUILD)/fuzz_$$t.log; }; \
		sed -n 's/^stat::number_of_executed_units: */          executions: /p' \
			$(FUZZ_BUILD)/fuzz_$$t.log; \
	done; [ -z "$$bad" ] || { echo "fuzz: failed:$$bad (build-fuzz/fuzz_TARGET.log)"; exit 1; }

$(FUZZ_BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	@echo "  FUZZCC  $<"
	$(Q)$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link $(VERSION_DEFS) -MMD -MP \
		-c -o $@ $<

-include $(FUZZ_LIB_OBJ:.o=.d)
.SECONDARY: $(FUZZ_LIB_OBJ)

.SECONDEXPANSION:
$(FUZZ_BUILD)/fuzz_%: $$(or $$(FUZZ_SRC_$$*),tests/fuzz/fuzz_$$*.c) tests/fuzz/fuzz.h $(FUZZ_LIB_OBJ)
	@mkdir -p $(dir $@)
	@echo "  FUZZLD  $@"
	$(Q)$(FUZZ_CC) $(FUZZ_CFLAGS) $(FUZZ_DEF_$*) -fsanitize=fuzzer -o $@ $< $(FUZZ_LIB_OBJ) \
		$(PKG_LIBS) -lm -pthread

# The verbs (one rdmactl-VERB link each) are those the binary names: cmd/verbs.c
# is the only list.  `rdmactl __complete help ''` prints them, one a line.
# Example hosts for --root on machines without RDMA hardware, as the tarballs `diag collect`
# writes (a few dozen KiB each; --root unpacks them privately).  Reproducible: sorted names,
# no times or owners.
HOSTS_TAR := $(EXAMPLE_HOSTS:%=$(BUILD)/hosts/%.tar.gz)
hosts-tar: $(HOSTS_TAR)
$(BUILD)/hosts/%.tar.gz: FORCE
	$(Q)mkdir -p $(@D)
	$(Q)tar --sort=name --mtime=@0 --owner=0 --group=0 --numeric-owner -C testdata/hosts/$* \
		-cf - . | gzip -n9 >$@.tmp && mv $@.tmp $@

# The Debian package, built from a copy of the tracked tree so that dpkg-buildpackage's
# files (debian/rdmactl, ../*.deb) stay out of the checkout: build/deb/rdmactl_*.deb.
deb:
	$(Q)rm -rf $(BUILD)/deb && mkdir -p $(BUILD)/deb/rdmactl-$(VERSION)
	$(Q)git ls-files -z -co --exclude-standard | \
		tar --null -T - -cf - | tar -xf - -C $(BUILD)/deb/rdmactl-$(VERSION)
	$(Q)cd $(BUILD)/deb/rdmactl-$(VERSION) && dpkg-buildpackage -b -us -uc >../build.log 2>&1 || \
		{ tail -30 ../build.log; exit 1; }
	@# Its tags are kept (build/deb/lintian.txt) for scripts/deb-smoke, which fails on
	@# warnings too: lintian runs once a package.
	$(Q)lintian --fail-on error $(BUILD)/deb/rdmactl_$(VERSION)_*.deb >$(BUILD)/deb/lintian.txt || \
		{ cat $(BUILD)/deb/lintian.txt; exit 1; }
	$(Q)cat $(BUILD)/deb/lintian.txt
	$(Q)ls $(BUILD)/deb/rdmactl_$(VERSION)_*.deb

install: rdmactl man hosts-tar
	install -D -m 0755 rdmactl $(DESTDIR)$(SBINDIR)/rdmactl
	for h in $(HOSTS_TAR); do install -D -m 0644 $$h $(DESTDIR)$(DATADIR)/hosts/$$(basename $$h); done
	for r in $(PROM_RULES); do install -D -m 0644 $$r $(DESTDIR)$(DATADIR)/prometheus/$$(basename $$r); done
	for g in $(GRAFANA_DASHBOARDS); do install -D -m 0644 $$g $(DESTDIR)$(DATADIR)/grafana/$$(basename $$g); done
	for s in $(SCHEMAS); do install -D -m 0644 $$s $(DESTDIR)$(DATADIR)/schemas/$$(basename $$s); done
	for m in $(MAN_OUT); do install -D -m 0644 $$m $(DESTDIR)$(MANDIR)/man$${m##*.}/$$(basename $$m); done
	install -D -m 0644 completions/rdmactl.bash $(DESTDIR)$(BASHCOMPDIR)/rdmactl
	install -D -m 0644 completions/_rdmactl $(DESTDIR)$(ZSHCOMPDIR)/_rdmactl
	verbs=$$(./rdmactl __complete help '') && [ -n "$$verbs" ] || \
		{ echo "install: ./rdmactl names no verbs" >&2; exit 1; }; \
	for v in $$verbs; do \
		ln -sf rdmactl $(DESTDIR)$(SBINDIR)/rdmactl-$$v && \
		ln -sf rdmactl $(DESTDIR)$(BASHCOMPDIR)/rdmactl-$$v || exit 1; \
	done

uninstall:
	rm -f $(DESTDIR)$(SBINDIR)/rdmactl $(DESTDIR)$(SBINDIR)/rdmactl-*
	rm -f $(foreach m,$(MAN_OUT),$(DESTDIR)$(MANDIR)/man$(subst .,,$(suffix $(m)))/$(notdir $(m)))
	rm -f $(DESTDIR)$(BASHCOMPDIR)/rdmactl $(DESTDIR)$(BASHCOMPDIR)/rdmactl-*
	rm -f $(DESTDIR)$(ZSHCOMPDIR)/_rdmactl
	rm -rf $(DESTDIR)$(DATADIR)

deps:
	scripts/install-deps

clean:
	rm -rf build build-asan build-fuzz rdmactl

help:
	@echo "targets: all ci check check-layers check-unit check-cli check-corrupt check-netns check-ansible check-lab"
	@echo "         install uninstall deb (the Debian package in build/deb/)"
	@echo "         man asan lint format-check bench deps clean"
	@echo "         fuzz (FUZZ_SECONDS=60 per target: libFuzzer on every parser of outside input; needs clang)"
	@echo "variables: PREFIX DESTDIR SBINDIR MANDIR WERROR=1 V=1 CC"
