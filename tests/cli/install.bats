#!/usr/bin/env bats
# make install into a staging directory: binary, verb link, man pages, completions
load ../helpers

@test "make install and uninstall with DESTDIR and PREFIX" {
	dest=$BATS_TEST_TMPDIR/stage
	run make -s -C "$TOP" install DESTDIR="$dest" PREFIX=/usr
	assert_success
	for f in usr/sbin/rdmactl usr/sbin/rdmactl-port usr/share/man/man8/rdmactl.8 \
		usr/share/man/man8/rdmactl-port.8 usr/share/bash-completion/completions/rdmactl \
		usr/share/bash-completion/completions/rdmactl-port usr/share/zsh/vendor-completions/_rdmactl; do
		[ -e "$dest/$f" ] || { echo "missing $f"; false; }
	done
	[ "$(readlink "$dest/usr/sbin/rdmactl-port")" = rdmactl ]
	run "$dest/usr/sbin/rdmactl-port" --root "$HOSTS/cx6dx" -j gids mlx5_1
	assert_success
	run make -s -C "$TOP" uninstall DESTDIR="$dest" PREFIX=/usr
	assert_success
	[ -z "$(find "$dest" -type f -o -type l)" ]
}
