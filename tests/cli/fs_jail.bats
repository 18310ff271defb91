#!/usr/bin/env bats
# --root is a jail: links out of a bundle read nothing of this host, a FIFO never hangs
load ../helpers

MLX5_0=sys/devices/pci0000:00/0000:00:02.0/0000:3b:00.0/infiniband/mlx5_0
MLX5_1=sys/devices/pci0000:00/0000:00:02.0/0000:3b:00.1/infiniband/mlx5_1
NET1=sys/devices/pci0000:00/0000:00:02.0/0000:3b:00.1/net/ens1f1np1

setup() {
	T=$(mktemp -d)
	cp -a "$HOSTS/cx6dx" "$T/bad"
	cp -a "$HOSTS/cx6dx" "$T/base"
	echo "HOSTSECRET-$$-$RANDOM" >"$T/secret"
	export RDC_TEST_ENV_MARK="ENVMARK-$$-$RANDOM"
}

teardown() {
	rm -rf "$T"
}

# Replace FILE of bundle DIR by a symlink to TARGET.
relink() {
	rm -rf "${1:?}/$2"
	ln -s "$3" "$1/$2"
}

# The port listing of bundle DIR: stdout in $out_DIR, stderr in $err_DIR, status in $rc_DIR.
port_of() {
	local rc=0
	timeout 10 "$RDMACTL" --root "$T/$1" -j port >"$T/$1.out" 2>"$T/$1.err" || rc=$?
	[ "$rc" -ne 124 ] || { echo "rdmactl --root $1 -j port hung"; return 1; }
	echo "$rc" >"$T/$1.rc"
}

# Same status, same JSON; and where the base warned about a file, so does the bad bundle.
same_as_base() {
	local f
	[ "$(cat "$T/bad.rc")" = "$(cat "$T/base.rc")" ] ||
		{ echo "exit $(cat "$T/bad.rc"), base $(cat "$T/base.rc")"; return 1; }
	echo "=== bad"; cat "$T/bad.out" "$T/bad.err"
	echo "=== base"; cat "$T/base.out" "$T/base.err"
	json_valid <"$T/bad.out"
	[ "$(jq -S . "$T/bad.out")" = "$(jq -S . "$T/base.out")" ]
	for f in "$@"; do
		if grep -q "$f" "$T/base.err"; then
			grep -q "$f" "$T/bad.err" || { echo "no warning naming $f"; return 1; }
		fi
	done
}

no_host_data() {
	local h
	! grep -q "HOSTSECRET" "$T/bad.out" "$T/bad.err"
	! grep -q "$RDC_TEST_ENV_MARK" "$T/bad.out" "$T/bad.err"
	! grep -q "PATH=" "$T/bad.out" "$T/bad.err"
	h=$(cat /etc/hostname 2>/dev/null || true)
	if [ "${#h}" -ge 6 ]; then
		! grep -qF "\"$h\"" "$T/bad.out"
	fi
}

@test "--root: links out of the bundle read nothing of this host" {
	relink "$T/bad" "$MLX5_0/fw_ver" /etc/hostname
	relink "$T/bad" "$MLX5_0/board_id" /proc/self/environ
	relink "$T/bad" "$MLX5_0/hca_type" "$T/secret"
	relink "$T/bad" "$MLX5_1/fw_ver" "../../../../../../../../../../../../../..$T/secret"
	relink "$T/bad" "$MLX5_1/board_id" ../../../../../../../../../../../../../../proc/self/environ
	# The same files, as links to nothing: what "resolved inside the root" must equal.
	for f in "$MLX5_0/fw_ver" "$MLX5_0/board_id" "$MLX5_0/hca_type" "$MLX5_1/fw_ver" \
		"$MLX5_1/board_id"; do
		relink "$T/base" "$f" /nonexistent
	done
	port_of bad
	port_of base
	no_host_data
	same_as_base fw_ver board_id hca_type
	[ "$(jq -c '[.ports[] | .fw_ver, .board_id, .hca_type]' "$T/bad.out")" = \
	  '[null,null,null,null,null,"MT4125"]' ]
}

@test "--root: a directory linked out of the bundle is not listed" {
	mkdir "$T/outside"
	cp -a "$T/bad/$MLX5_0" "$T/outside/mlx5_9" # a whole device, out of the bundle
	relink "$T/bad" sys/class/infiniband "$T/outside"
	relink "$T/base" sys/class/infiniband /nonexistent
	port_of bad
	port_of base
	! grep -q mlx5_9 "$T/bad.out" "$T/bad.err"
	same_as_base
}

@test "--root: absolute links inside the bundle resolve below the root" {
	relink "$T/bad" sys/class/infiniband/mlx5_0 \
		/sys/devices/pci0000:00/0000:00:02.0/0000:3b:00.0/infiniband/mlx5_0
	port_of bad
	port_of base
	same_as_base
	[ "$(jq -r '.ports[0].fw_ver' "$T/bad.out")" = 22.39.1002 ]
}

@test "--root: a FIFO in the bundle never hangs, reads as an unreadable file" {
	for f in "$MLX5_1/board_id" "$MLX5_0/ports/1/state" "$NET1/mtu"; do
		rm "$T/bad/$f" "$T/base/$f"
		mkfifo "$T/bad/$f"
		mkdir "$T/base/$f" # exists, cannot be read
	done
	port_of bad
	port_of base
	same_as_base board_id ports/1/state mtu
}

# A device node is opened (non-blocking) and closed unread: fstat() on the fd
# comes before any read() (/dev/zero would fill any buffer, /dev/null give
# nothing, /dev/kmsg a line of this host's log).
@test "--root: a device node in the bundle reads as an unreadable file, what it is said" {
	local f
	for f in "$MLX5_1/board_id" "$NET1/mtu" "$MLX5_1/fw_ver"; do
		rm "$T/bad/$f" "$T/base/$f"
		mkdir "$T/base/$f" # exists, cannot be read
	done
	mknod "$T/bad/$MLX5_1/board_id" c 1 5 || skip "mknod refused here"
	mknod "$T/bad/$NET1/mtu" c 1 3
	mknod "$T/bad/$MLX5_1/fw_ver" c 1 11
	port_of bad
	port_of base
	same_as_base board_id mtu fw_ver
	grep -q "board_id'.*a character device, not a regular file" "$T/bad.err"
	grep -q "mtu'.*a character device, not a regular file" "$T/bad.err"
	grep -q "fw_ver'.*a character device, not a regular file" "$T/bad.err"
}

@test "--root: a FIFO as a directory never hangs" {
	rm -rf "$T/bad/$MLX5_0/ports/1/gids" "$T/base/$MLX5_0/ports/1/gids"
	mkfifo "$T/bad/$MLX5_0/ports/1/gids"
	: >"$T/base/$MLX5_0/ports/1/gids" # exists, not a directory
	run --separate-stderr timeout 10 "$RDMACTL" --root "$T/bad" -j port gids mlx5_0
	[ "$status" -ne 124 ]
	bad_status=$status bad_out=$output
	run --separate-stderr timeout 10 "$RDMACTL" --root "$T/base" -j port gids mlx5_0
	[ "$bad_status" = "$status" ]
	[ "$bad_out" = "$output" ]
}

# The walks under --root (docs/HACKING.md, "Listings at the floor"): a whole
# path from the root is opened only to reach a device, its PCI function (by
# its "device" link, without resolving where that leads) and its netdev, and
# the root's own files; every other name is opened from one of their fds or
# a listing's.  No open is tried there first only to be refused (EXDEV), and
# no fd's name is asked of /proc (the sanitizer's runtime asks /proc/self/exe).
@test "--root: port walks from the root only to the devices, their PCI functions and netdevs" {
	command -v strace >/dev/null || skip "no strace (scripts/install-deps test)"
	ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
		strace -qq -o "$T/trace" -e trace=openat2,readlink,readlinkat \
		"$RDMACTL" --root "$BATS_TEST_DIRNAME/../../testdata/hosts/cx6dx" port >/dev/null
	awk '
		/^openat2\(/ && /RESOLVE_IN_ROOT/ {
			match($0, /"[^"]*"/); p = substr($0, RSTART + 1, RLENGTH - 2)
			if (p !~ /^\/(kernel\.rec|sys\/class\/infiniband(\/mlx5_[01](\/device)?)?|sys\/class\/net\/ens1f[01]np[01])$/)
				bad = bad "\n  whole: " p
			whole++
		}
		/^openat2\(/ && /RESOLVE_BENEATH/ { rel++ }
		/= -1 EXDEV/ { bad = bad "\n  refused: " $0 }
		/^readlink(at)?\((AT_FDCWD, )?"\/proc\/self\/fd\// { bad = bad "\n  " $0 }
		END {
			print whole " whole, " rel " from a directory" bad
			exit !(whole && rel > 2 * whole && bad == "")
		}' "$T/trace"
}

# The listing's cost under --root (docs/HACKING.md, "Listings at the floor"):
# each GID file is one openat2() in the jail (its name from the gids
# directory's fd, which its listing left open, or its whole path), one fstat()
# on its fd (the type, before any read; the size, so no read only to meet the
# end), one read() and its close().
@test "--root: a GID file costs openat2, fstat, one read and close" {
	command -v strace >/dev/null || skip "no strace (scripts/install-deps test)"
	# LeakSanitizer cannot run under ptrace (make asan): leaks are other tests' business.
	ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
		strace -qq -o "$T/trace" -e trace=openat2,read,close,fstat,newfstatat,statx \
		"$RDMACTL" --root "$BATS_TEST_DIRNAME/../../testdata/hosts/cx6dx" port gids mlx5_0 >/dev/null
	awk '
		function fd_of(line, a) { split(line, a, /[(,)]/); return a[2] }
		/^openat2\(.*[\/"]gids", .*O_DIRECTORY.* = [0-9]+$/ { dir[$NF] = 1; next }
		/^openat2\(.* = [0-9]+$/ && (/gids\/[0-9]+", / || (fd_of($0) in dir && /^openat2\([0-9]+, "[0-9]+", /)) {
			fd = $NF; gid[fd] = 1; calls[fd] = ""; opened++; next
		}
		/^(newfstatat|fstat|statx|read)\(/ { fd = fd_of($0); if (fd in gid) calls[fd] = calls[fd] substr($0, 1, index($0, "(") - 1) " "; next }
		/^close\(/ {
			fd = fd_of($0)
			delete dir[fd]
			if (fd in gid) {
				if (calls[fd] != "newfstatat read " && bad++ < 3) print "a GID file: " calls[fd]
				delete gid[fd]
			}
		}
		END { print opened " GID files opened"; exit !(opened >= 16 && !bad) }' "$T/trace"
}
