#!/usr/bin/env bats
# exit codes and messages for bad input: usage errors exit 2, failures exit 1
load ../helpers

@test "no verb prints help on stderr and exits 2; --help on stdout lists every exit status" {
	run --separate-stderr "$RDMACTL"
	assert_failure 2
	[ -z "$output" ] || fail "stdout: $output"
	[[ $stderr == *"usage: rdmactl"* ]] || fail "$stderr"
	run --separate-stderr "$RDMACTL" --help
	assert_success
	[ -z "$stderr" ]
	assert_output --partial "usage: rdmactl"
	# Wrapped at 80 columns: read as one paragraph.
	[[ "$(tr '\n' ' ' <<<"$output")" == *"0 success, 1 failure, 2 usage error, 3 warnings and no failure (bond check, diag), 4 a --dry-run that would change something."* ]] ||
		fail "$output"
}

@test "unknown verb: exit 2 with a hint" {
	run "$RDMACTL" prot
	assert_failure 2
	assert_output --partial "unknown verb 'prot'; did you mean 'port'?"
	run "$RDMACTL" frobnicate
	assert_failure 2
	assert_output --partial "unknown verb 'frobnicate'"
}

@test "unknown action, keyword or option: exit 2" {
	run rd cx6dx port shwo
	assert_failure 2
	assert_output --partial "unknown action 'shwo'; did you mean 'show'?"
	run rd cx6dx port stats mlx5_0 intervall 1
	assert_failure 2
	assert_output --partial "unknown keyword 'intervall'; did you mean 'interval'?"
	run "$RDMACTL" --bogus port
	assert_failure 2
	assert_output --partial "unknown or incomplete option '--bogus'"
	run "$RDMACTL" -Z port
	assert_failure 2
	assert_output --partial "unknown option '-Z'"
	run rd cx6dx port gids mlx5_0 mlx5_1
	assert_failure 2
	assert_output --partial "unexpected argument 'mlx5_1'"
}

@test "bad values: exit 2 and name the value" {
	run rd cx6dx port stats interval 0
	assert_failure 2
	assert_output --partial "'interval 0': must be more than 0 seconds"
	run rd cx6dx port stats interval x
	assert_failure 2
	run rd cx6dx port stats count 3
	assert_failure 2
	assert_output --partial "'count' needs 'interval'"
	run rd cx6dx port stats interval
	assert_failure 2
	assert_output --partial "'interval' needs a value SEC"
	run rd cx6dx port stats interval 1 interval 2
	assert_failure 2
	assert_output --partial "given twice"
	run "$RDMACTL" --color=sometimes port
	assert_failure 2
	run "$RDMACTL" -j --yaml port
	assert_failure 2
}

@test "unknown device, port or netdev: exit 1 with a message" {
	run rd cx6dx port mlx5_9
	assert_failure 1
	# No errno text where it says nothing more ("No such device").
	assert_output "rdmactl: port: no RDMA device or network interface 'mlx5_9' (did you mean 'mlx5_0'?)"
	run rd cx6dx port nosuchdev
	assert_failure 1
	assert_output "rdmactl: port: no RDMA device or network interface 'nosuchdev'"
	run rd cx6dx port mlx5_0/2
	assert_failure 1
	assert_output "rdmactl: port: RDMA device 'mlx5_0' has no port 2"
	run rd cx6dx port gids lo
	assert_failure 1
	assert_output "rdmactl: port: network interface 'lo' has no RDMA port"
}

@test "a name that cannot be one is a usage error (exit 2), as the man page says; typos get a did-you-mean" {
	local name
	for name in 'mlx5_0/x' 'mlx5_0/0' 'mlx5_0/1/2' 'a b' "$(printf 'x%.0s' {1..80})"; do
		run --separate-stderr rd cx6dx port show "$name"
		assert_equal "$status" 2
		[[ $stderr == *"'$name' is not DEV, DEV/PORT or a netdev name (nor an IP address)"* ]] ||
			fail "$name: $stderr"
		[[ $stderr == *"see 'rdmactl help port'"* ]] || fail "$stderr"
		[[ $stderr != *"Invalid argument"* ]] || fail "errno text: $stderr"
	done
	run --separate-stderr rd cx6dx port stats ens1f1np
	assert_failure 1
	assert_equal "$stderr" "rdmactl: port: no RDMA device or network interface 'ens1f1np' (did you mean 'ens1f1np1'?)"
	run --separate-stderr rd cx6dx port gids mlx5_1/l
	assert_equal "$status" 2
	run --separate-stderr rd cx6dx port mlx6_0/1
	assert_failure 1
	[[ $stderr == *"(did you mean 'mlx5_0/1'?)" ]] || fail "$stderr"
}

@test "missing or unusable --root: exit 1 with the path" {
	run "$RDMACTL" --root /nonexistent/dir port
	assert_failure 1
	assert_output "rdmactl: port: cannot use root '/nonexistent/dir': No such file or directory"
	run "$RDMACTL" --root "$HOSTS/README.md" port
	assert_failure 1
	assert_output --partial "Not a directory"
	mkdir -p "$BATS_TEST_TMPDIR/locked"
	chmod 000 "$BATS_TEST_TMPDIR/locked"
	if [ "$(id -u)" -ne 0 ]; then
		run "$RDMACTL" --root "$BATS_TEST_TMPDIR/locked" port
		assert_failure 1
		assert_output --partial "Permission denied"
	fi
	chmod 755 "$BATS_TEST_TMPDIR/locked"
}

@test "an empty root has no RDMA devices: an empty list, said on stderr, exit 1" {
	run --separate-stderr "$RDMACTL" --root "$BATS_TEST_TMPDIR" -j port
	assert_failure 1
	[ "$output" = '{"schema":3,"kind":"port-show","ports":[],"netns_mode":null}' ]
	[ "$stderr" = "rdmactl: port: no RDMA devices found" ]
}

@test "writes under --root and --replay are refused, nothing read or sent" {
	run rd cx6dx port set ens1f0np0 mtu 1500
	assert_failure 1
	assert_output --partial "writes are refused under --root"
	# A dry run plans against the captured host instead.
	run rd cx6dx --dry-run port set ens1f0np0 mtu 1500
	assert_failure 4 # would change
	assert_output "ens1f0np0: mtu 9000 -> 1500 (dry run: nothing sent)"
	# A usage error is still a usage error under --root.
	run rd cx6dx port set ens1f0np0 mtu 15
	assert_failure 2
	run rd cx6dx port set ens1f0np0 up down
	assert_failure 2
	printf '# rdmactl kernel recording v1\n' >"$BATS_TEST_TMPDIR/empty.rec"
	run "$RDMACTL" --replay "$BATS_TEST_TMPDIR/empty.rec" port set lo up
	assert_failure 1
	assert_output --partial "writes are refused"
}

@test "port set: argument errors exit 2 before touching anything" {
	run "$RDMACTL" port set
	assert_failure 2
	assert_output --partial "missing argument"
	run "$RDMACTL" port set lo
	assert_failure 2
	assert_output --partial "nothing to set"
	run "$RDMACTL" port set lo up down
	assert_failure 2
	assert_output --partial "'up' and 'down' exclude each other"
	run "$RDMACTL" port set lo mtu 67
	assert_failure 2
	assert_output --partial "out of range 68-65535"
	run "$RDMACTL" port set lo mtu 9k
	assert_failure 2
	assert_output --partial "not a number"
}

@test "a malformed recording is rejected with its line number" {
	printf 'not a recording\n' >"$BATS_TEST_TMPDIR/bad.rec"
	run "$RDMACTL" --replay "$BATS_TEST_TMPDIR/bad.rec" port
	assert_failure 1
	assert_output --partial "is not an rdmactl kernel recording"
	printf '# rdmactl kernel recording v1\n> nl 0 zz\n' >"$BATS_TEST_TMPDIR/bad2.rec"
	run "$RDMACTL" --replay "$BATS_TEST_TMPDIR/bad2.rec" port
	assert_failure 1
	assert_output --partial "line 2"
	printf '# rdmactl kernel recording v1\n> nl 99 00\n' >"$BATS_TEST_TMPDIR/bad3.rec"
	run "$RDMACTL" --replay "$BATS_TEST_TMPDIR/bad3.rec" port
	assert_failure 1
	run "$RDMACTL" --replay /nonexistent.rec port
	assert_failure 1
	assert_output --partial "cannot open recording '/nonexistent.rec'"
}

@test "help and version exit 0" {
	run "$RDMACTL" --version
	assert_success
	assert_line --index 0 --regexp '^rdmactl [0-9]+\.[0-9]+\.[0-9]+$'
	run "$RDMACTL" help port
	assert_success
	assert_output --partial "rdmactl port set NETDEV | DEV[/PORT]"
	run "$RDMACTL" port help
	assert_success
	run "$RDMACTL" port --help
	assert_success
	run "$RDMACTL" help nosuch
	assert_failure 2
}

@test "a closed stdout is an error, not silent success" {
	run bash -c "'$RDMACTL' --root '$HOSTS/cx6dx' port gids >/dev/full"
	assert_failure 1
	assert_output --partial "cannot write output"
	# Whatever the verdict: diag on rxe has warnings only (exit 3), a full disk is exit 1.
	run "$RDMACTL" --root "$HOSTS/rxe" -j diag
	assert_failure 3
	run bash -c "'$RDMACTL' --root '$HOSTS/rxe' -j diag >/dev/full"
	assert_failure 1
	assert_output --partial "rdmactl: cannot write output: "
	run bash -c "'$RDMACTL' --root '$HOSTS/rxe' -b port >/dev/full"
	assert_failure 1
	assert_output "rdmactl: cannot write output: No space left on device"
}

@test "-v adds information, -q leaves only errors, and they exclude each other" {
	run --separate-stderr rd rxe -v port stats rxe0
	assert_success
	[ "$stderr" = "rdmactl: port: eth0: no ethtool statistics (no kernel recording in the root directory: No data available)" ]
	run --separate-stderr rd rxe port stats rxe0
	[ -z "$stderr" ]
	# Nothing to show is an error, not a warning: -q does not hide it.
	run --separate-stderr "$RDMACTL" --root "$BATS_TEST_TMPDIR" port
	assert_failure 1
	[ "$stderr" = "rdmactl: port: no RDMA devices found" ]
	run --separate-stderr "$RDMACTL" --root "$BATS_TEST_TMPDIR" -q port
	assert_failure 1
	[ "$stderr" = "rdmactl: port: no RDMA devices found" ]
	run --separate-stderr rd rxe -q port stats rxe0
	assert_success
	[ -z "$stderr" ]
	run "$RDMACTL" -q -v port
	assert_failure 2
	assert_output --partial "-q and -v exclude each other"
}

@test "--record FILE: never through a link, over a device or another user's file; 0600 and whole" {
	cd "$BATS_TEST_TMPDIR"
	run "$RDMACTL" --record /dev/full pfc show
	assert_failure 1
	assert_output --partial "cannot write '/dev/full': it is a device, which rdmactl does not replace"
	echo precious >target
	ln -s target link.rec
	run "$RDMACTL" --record link.rec pfc show
	assert_failure 1
	assert_output --partial "it is a symbolic link"
	[ "$(cat target)" = precious ] && [ -L link.rec ]
	if [ "$(id -u)" -eq 0 ]; then
		echo theirs >theirs.rec
		chown 65534 theirs.rec
		run "$RDMACTL" --record theirs.rec pfc show
		assert_failure 1
		assert_output --partial "belongs to user 65534"
		[ "$(cat theirs.rec)" = theirs ]
	fi
	# Our own file is replaced whole (the verb's own verdict aside: this host may have no RDMA).
	echo old >own.rec
	run bash -c "umask 000 && '$RDMACTL' --record own.rec pfc show >/dev/null 2>&1"
	[ "$(stat -c %a own.rec)" = 600 ]
	[ "$(head -n1 own.rec)" = "# rdmactl kernel recording v1" ]
	[ -z "$(ls -A | grep -v -x -e target -e link.rec -e theirs.rec -e own.rec)" ]
}

# ---- error documents (rdmactl(8) ERRORS) ----

@test "-j/--yaml: a failure is an error document on stdout (id, errno, message, object) beside the English" {
	run --separate-stderr rd cx6dx -j port show mlx5_9
	assert_failure 1
	[ "$(jq -c '[.schema, .kind, .error.id, .error.errno, .error.object]' <<<"$output")" = '[3,"error","not-found",19,"mlx5_9"]' ] ||
		fail "$output"
	jq -e '.error.message == "no RDMA device or network interface '\''mlx5_9'\'' (did you mean '\''mlx5_0'\''?)"' <<<"$output" >/dev/null ||
		fail "$output"
	[[ $stderr == "rdmactl: port: no RDMA device or network interface 'mlx5_9'"* ]] || fail "$stderr"
	# A usage error: id usage, no errno, exit 2; -j before an unknown verb counts.
	run --separate-stderr "$RDMACTL" -j prot
	assert_failure 2
	[ "$(jq -c '[.kind, .error.id, .error.errno, .error.object]' <<<"$output")" = '["error","usage",null,null]' ] || fail "$output"
	jq -e '.error.message | startswith("unknown verb '\''prot'\''")' <<<"$output" >/dev/null || fail "$output"
	run --separate-stderr "$RDMACTL" port -j shwo
	assert_failure 2
	[ "$(jq -r .error.id <<<"$output")" = usage ] || fail "$output"
	# A bad option after -j, and no verb at all, are documents too.
	run --separate-stderr "$RDMACTL" -j --bogus port
	assert_failure 2
	[ "$(jq -c '[.error.id, .error.message]' <<<"$output")" = '["usage","unknown or incomplete option '\''--bogus'\''"]' ] ||
		fail "$output"
	run --separate-stderr "$RDMACTL" -j
	assert_failure 2
	[ "$(jq -c '[.error.id, .error.message]' <<<"$output")" = '["usage","no verb given"]' ] || fail "$output"
	# A write under --root, in YAML.
	run --separate-stderr rd cx6dx --yaml pfc set dev ens1f0np0 trust dscp
	assert_failure 1
	assert_line "kind: 'error'"
	assert_line "  id: 'live-only'"
	assert_line "  errno: null"
	# No bond of that name, and a root that is not there.
	run --separate-stderr rd cx6dx-lag -j bond show bond9
	assert_failure 1
	[ "$(jq -c '[.error.id, .error.object]' <<<"$output")" = '["not-found","bond9"]' ] || fail "$output"
	run --separate-stderr "$RDMACTL" -j --root "$BATS_TEST_TMPDIR/nosuch" port
	assert_failure 1
	[ "$(jq -c '[.error.id, .error.errno]' <<<"$output")" = '["not-found",2]' ] || fail "$output"
	# Text: nothing on stdout, the same line on stderr.
	run --separate-stderr rd cx6dx port show mlx5_9
	assert_failure 1
	[ -z "$output" ] || fail "stdout: $output"
}

@test "-j: a run that printed its document prints no error document after it" {
	# An empty root: the empty list is the document, the failure said on stderr.
	run --separate-stderr "$RDMACTL" --root "$BATS_TEST_TMPDIR" -j port show
	assert_failure 1
	[ "$(jq -s -c 'map([.kind, .ports])' <<<"$output")" = '[["port-show",[]]]' ] || fail "$output"
	[ -n "$stderr" ]
}

@test "error ids: lib/base/err.c's table, the error schema's enum and rdmactl(8) ERRORS name the same ids" {
	local code schema page
	code=$(sed -n 's/^\t\[RDC_ERRK_[A-Z_]*\] = "\([a-z-]*\)",$/\1/p' "$TOP/lib/base/err.c" | sort -u)
	schema=$(jq -r '.properties.error.properties.id.enum[]' "$TOP/schemas/error.schema.json" | sort -u)
	page=$(sed -n '/^# ERRORS$/,/^# JSON OUTPUT$/p' "$TOP/man/rdmactl.8.scd" | sed -n 's/^\*\([a-z-]*\)\*$/\1/p' | sort -u)
	[ "$(wc -l <<<"$code")" -ge 15 ] || fail "$code"
	assert_equal "$schema" "$code"
	assert_equal "$page" "$code"
}

@test "exit status comes from the error record's usage flag: a kernel's EINVAL to a DCB read is a failure (1), not a usage error" {
	local h=$BATS_TEST_TMPDIR/h
	cp -r "$HOSTS/cx6dx" "$h"
	# The kernel answers ens1f0np0's DCB_CMD_IEEE_GET with EINVAL (an NLMSG_ERROR of -22).
	awk -v req="> nl 0 240000004e0005008c90296600000000001500000e000100656e733166306e7030000000" '
		$0 == req { print; print "< 24000000020000018c9029661f100000eaffffff240000004e0005008c90296600000000"; skip = 1; next }
		skip && /^</ { next }
		{ skip = 0; print }' "$HOSTS/cx6dx/kernel.rec" >"$h/kernel.rec"
	run --separate-stderr "$RDMACTL" --root "$h" -j --dry-run pfc set dev ens1f0np0 prio-pfc 3:on
	assert_failure 1
	assert_equal "$stderr" "rdmactl: pfc: cannot read DCB of 'ens1f0np0': Invalid argument"
	[ "$(jq -c '[.error.id, .error.errno, .error.object]' <<<"$output")" = '["invalid",22,"ens1f0np0"]' ] || fail "$output"
	run --separate-stderr "$RDMACTL" --root "$h" --dry-run pfc apply dev ens1f0np0 profile roce-lossless
	assert_failure 1
	run --separate-stderr "$RDMACTL" --root "$h" pfc show dev ens1f0np0
	assert_failure 1
	# Values that do not fit the NIC are the caller's: exit 2, on the same host's other port.
	run --separate-stderr "$RDMACTL" --root "$h" -j --dry-run pfc set dev ens1f1np1 tc-bw 0:50 1:40
	assert_failure 2
	[ "$(jq -r .error.id <<<"$output")" = usage ] || fail "$output"
	[[ $stderr == "rdmactl: pfc: 'ens1f1np1': TC 1 is not an ETS TC: its bandwidth must be 0"* ]] || fail "$stderr"
}

@test "--dry-run: exit 4 when the plan would change something, 0 when it is empty; the same report either way" {
	run --separate-stderr rd cx6dx -j --dry-run port set ens1f0np0 mtu 1500
	assert_failure 4
	[ "$(jq -c '[.kind, .changed, .dry_run]' <<<"$output")" = '["port-change",true,true]' ] || fail "$output"
	[ -z "$stderr" ] || fail "$stderr"
	run --separate-stderr rd cx6dx -j --dry-run port set ens1f0np0 mtu 9000
	assert_success
	[ "$(jq -c '[.changed, .dry_run]' <<<"$output")" = '[false,true]' ] || fail "$output"
	# Text too, and for pfc and bond.
	run --separate-stderr rd cx6dx --dry-run pfc set dev ens1f0np0 prio-pfc 3:off
	assert_failure 4
	assert_output --partial "would change (dry run: nothing sent)"
	run --separate-stderr rd cx6dx-lag --dry-run bond set bond0 miimon 100
	assert_success
	# A failure in a dry run is still 1, a usage error 2.
	run --separate-stderr rd cx6dx --dry-run port set mlx5_9 mtu 1500
	assert_failure 1
	run --separate-stderr rd cx6dx --dry-run port set ens1f0np0 mtu 60
	assert_failure 2
}
