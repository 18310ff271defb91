# SPDX-License-Identifier: GPL-2.0-or-later
# tests/dcb-double/double.mk - the dcbnl test double (see README.md there).
#
# Standalone, from the repository root:   make -f tests/dcb-double/double.mk
# From the top Makefile:                  include tests/dcb-double/double.mk
#   then depend on $(DCB_DOUBLE_SO) (or the dcb-double target).  Including it
#   does not change the including Makefile's default goal.
#
# Builds into $(DCB_DOUBLE_BUILD) (default build/dcb-double):
#   libdcbdouble.so    the LD_PRELOAD shim
#   dcb-double-ctl     show/reset the simulated NICs' state
#   dcb-double-probe   raw dcbnl requests and a fuzzer, for the tests
# DD_SANITIZE=address,undefined builds all three with sanitizers (use another
# DCB_DOUBLE_BUILD for it); WERROR=1 adds -Werror.

DD_STANDALONE := $(if $(filter 1,$(words $(MAKEFILE_LIST))),1)
DD_SAVED_GOAL := $(.DEFAULT_GOAL)
DD_DIR := $(patsubst %/,%,$(dir $(lastword $(MAKEFILE_LIST))))

DCB_DOUBLE_BUILD ?= build/dcb-double
DCB_DOUBLE_SO := $(DCB_DOUBLE_BUILD)/libdcbdouble.so
DCB_DOUBLE_CTL := $(DCB_DOUBLE_BUILD)/dcb-double-ctl
DCB_DOUBLE_PROBE := $(DCB_DOUBLE_BUILD)/dcb-double-probe
DCB_DOUBLE_ALL := $(DCB_DOUBLE_SO) $(DCB_DOUBLE_CTL) $(DCB_DOUBLE_PROBE)

DD_OPT ?= -O2 -g
DD_WARN := -Wall -Wextra -Wformat=2 -Wshadow -Wstrict-prototypes -Wmissing-prototypes \
	-Wold-style-definition -Wvla -Wwrite-strings -Wundef -Wpointer-arith -Wcast-align \
	-Wno-unused-parameter
ifeq ($(WERROR),1)
DD_WARN += -Werror
endif
DD_SAN := $(if $(DD_SANITIZE),-fsanitize=$(DD_SANITIZE) -fno-omit-frame-pointer)
# hidden by default: the shim exports only the functions it wraps
DD_CFLAGS := -std=gnu11 $(DD_WARN) $(DD_OPT) $(DD_SAN) -fPIC -fvisibility=hidden \
	-D_FORTIFY_SOURCE=2 -fstack-protector-strong
DD_HDR := $(DD_DIR)/dd.h

# The flags are a dependency: a change of CC, WERROR, DD_OPT or DD_SANITIZE
# rewrites $(DD_FLAGS_FILE) and so rebuilds the double (as the top Makefile's .flags).
DD_FLAGS_FILE := $(DCB_DOUBLE_BUILD)/.flags
DD_FLAGS_NOW := $(CC) $(DD_CFLAGS) -ldl -lpthread
ifneq ($(strip $(DD_FLAGS_NOW)),$(strip $(shell cat $(DD_FLAGS_FILE) 2>/dev/null)))
$(DD_FLAGS_FILE): dd-flags-force
endif
$(DD_FLAGS_FILE):
	@mkdir -p $(dir $@)
	printf '%s\n' '$(subst ','\'',$(DD_FLAGS_NOW))' >$@

.PHONY: dd-flags-force
dd-flags-force:

$(DCB_DOUBLE_BUILD)/%.o: $(DD_DIR)/%.c $(DD_HDR) $(DD_FLAGS_FILE)
	@mkdir -p $(dir $@)
	$(CC) $(DD_CFLAGS) -c -o $@ $<

$(DCB_DOUBLE_SO): $(addprefix $(DCB_DOUBLE_BUILD)/,shim.o model.o state.o)
	$(CC) $(DD_CFLAGS) -shared -Wl,--no-undefined -o $@ $^ -ldl -lpthread

$(DCB_DOUBLE_CTL): $(addprefix $(DCB_DOUBLE_BUILD)/,ctl.o state.o)
	$(CC) $(DD_CFLAGS) -o $@ $^

$(DCB_DOUBLE_PROBE): $(DCB_DOUBLE_BUILD)/probe.o
	$(CC) $(DD_CFLAGS) -o $@ $^

.PHONY: dcb-double dcb-double-clean
dcb-double: $(DCB_DOUBLE_ALL)

dcb-double-clean:
	rm -rf $(DCB_DOUBLE_BUILD)

ifeq ($(DD_STANDALONE),1)
.DEFAULT_GOAL := dcb-double
clean: dcb-double-clean
.PHONY: clean
else
# give the including Makefile its default goal back (empty: its next target)
.DEFAULT_GOAL := $(DD_SAVED_GOAL)
endif
