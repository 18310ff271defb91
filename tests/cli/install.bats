#!/usr/bin/env bats
# make install into a staging directory: binary, verb link, man pages, completions
load ../helpers

@test "make install and uninstall with DESTDIR and PREFIX" {
	dest=$BATS_TEST_TMPDIR/stage
	run make -s -C "$TOP" install DESTDIR="$dest" PREFIX=/usr
	assert_success
	for f in usr/sbin/rdmactl usr/share/man/man8/rdmactl.8 \
		usr/share/bash-completion/completions/rdmactl usr/share/zsh/vendor-completions/_rdmactl; do
		[ -e "$dest/$f" ] || { echo "missing $f"; false; }
	done
	# A link, a page and a bash completion link for every verb.
	local v
	for v in port pfc bench; do
		for f in "usr/sbin/rdmactl-$v" "usr/share/man/man8/rdmactl-$v.8" \
			"usr/share/bash-completion/completions/rdmactl-$v"; do
			[ -e "$dest/$f" ] || { echo "missing $f"; false; }
		done
		[ "$(readlink "$dest/usr/sbin/rdmactl-$v")" = rdmactl ]
		[ "$(readlink "$dest/usr/share/bash-completion/completions/rdmactl-$v")" = rdmactl ]
	done
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
