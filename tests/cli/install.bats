#!/usr/bin/env bats
# make install into a staging directory: binary, verb link, man pages, completions
load ../helpers

# The verbs of `rdmactl --help` (as complete.bats and man.bats read them).
verbs() {
	"$RDMACTL" --help | sed -n '/^verbs:/,/^$/s/^  \([a-z][a-z0-9-]*\) .*/\1/p'
}

# The names in DIR that start with rdmactl-, sorted, one a line.
links_in() {
	find "$1" -maxdepth 1 -name 'rdmactl-*' -printf '%f\n' | sort
}

@test "make install and uninstall with DESTDIR and PREFIX" {
	dest=$BATS_TEST_TMPDIR/stage
	# -o rdmactl: install the binary the suite runs in; the tests never relink
	# the checkout's ./rdmactl (under make asan the environment holds its
	# BUILD and flags, which would relink it with them).
	run make -s -C "$TOP" -o rdmactl install DESTDIR="$dest" PREFIX=/usr
	assert_success
	for f in usr/sbin/rdmactl usr/share/man/man8/rdmactl.8 \
		usr/share/bash-completion/completions/rdmactl usr/share/zsh/vendor-completions/_rdmactl; do
		[ -e "$dest/$f" ] || { echo "missing $f"; false; }
	done
	# A link, a page and a bash completion link for every verb, and no other links.
	local v want
	want=$(verbs | sed 's/^/rdmactl-/' | sort)
	[ "$(wc -l <<<"$want")" -ge 3 ]
	assert_equal "$(links_in "$dest/usr/sbin")" "$want"
	assert_equal "$(links_in "$dest/usr/share/bash-completion/completions")" "$want"
	for v in $(verbs); do
		for f in "usr/sbin/rdmactl-$v" "usr/share/man/man8/rdmactl-$v.8" \
			"usr/share/bash-completion/completions/rdmactl-$v"; do
			[ -e "$dest/$f" ] || { echo "missing $f"; false; }
		done
		[ "$(readlink "$dest/usr/sbin/rdmactl-$v")" = rdmactl ]
		[ "$(readlink "$dest/usr/share/bash-completion/completions/rdmactl-$v")" = rdmactl ]
	done
	# The JSON Schemas, every one of the checkout's, as they are.
	local s
	for s in "$TOP"/schemas/*.schema.json; do
		cmp "$s" "$dest/usr/share/rdmactl/schemas/${s##*/}"
	done
	assert_equal "$(ls "$dest/usr/share/rdmactl/schemas")" "$(ls "$TOP/schemas")"
	run "$dest/usr/sbin/rdmactl-port" --root "$HOSTS/cx6dx" -j gids mlx5_1
	assert_success
	# As rdmactl-bench, the verb is implied: its help, its usage errors.
	run "$dest/usr/sbin/rdmactl-bench" --help
	assert_success
	assert_line --index 0 --partial "rdmactl bench - "
	run "$dest/usr/sbin/rdmactl-bench" client 127.0.0.1 size 0
	assert_failure 2
	assert_output --partial "'size 0'"
	run make -s -C "$TOP" uninstall DESTDIR="$dest" PREFIX=/usr
	assert_success
	[ -z "$(find "$dest" -type f -o -type l)" ]
}

# A checkout whose ./rdmactl is a stand-in that names the verbs in $VERBS:
# the Makefile must take them from it (make -o rdmactl: the stand-in is not rebuilt).
stub_checkout() {
	unset MAKEFLAGS MFLAGS MAKELEVEL MAKEOVERRIDES BUILD
	SRC=$BATS_TEST_TMPDIR/src
	mkdir -p "$SRC/tests/dcb-double"
	cp "$TOP/Makefile" "$SRC/"
	cp "$TOP/tests/dcb-double/double.mk" "$SRC/tests/dcb-double/"
	cp -r "$TOP/completions" "$SRC/"
	cat >"$SRC/rdmactl" <<-'EOF'
	#!/bin/sh
	[ "$1 $2 $3" = "__complete help " ] && [ $# -eq 3 ] || exit 2
	for v in $VERBS; do echo "$v"; done
	EOF
	chmod +x "$SRC/rdmactl"
}

@test "make install: the links are the verbs the binary names, not a list in the Makefile" {
	stub_checkout
	dest=$BATS_TEST_TMPDIR/stage
	VERBS="alpha beta" run make -s -C "$SRC" -o rdmactl install DESTDIR="$dest" PREFIX=/usr
	assert_success
	assert_equal "$(links_in "$dest/usr/sbin")" "$(printf '%s\n' rdmactl-alpha rdmactl-beta)"
	assert_equal "$(links_in "$dest/usr/share/bash-completion/completions")" \
		"$(printf '%s\n' rdmactl-alpha rdmactl-beta)"
	# A binary that names no verb is an error, not an install without links.
	VERBS="" run make -s -C "$SRC" -o rdmactl install DESTDIR="$BATS_TEST_TMPDIR/stage2" PREFIX=/usr
	assert_failure
	assert_output --partial "./rdmactl names no verbs"
}
