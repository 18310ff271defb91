#!/usr/bin/env bats
# Text for people (issue 13, item 6): fits 80 columns when stdout is not a
# terminal, column widths come from the data, --brief is one line a port or bond
load ../helpers

WIDTH=80

# Every fixture host in testdata/hosts (each a directory with sys/).
hosts() {
	local d
	for d in "$HOSTS"/*/; do
		[ -d "$d/sys" ] && basename "$d"
	done
}

# The verbs, as the binary's own table names them.
verbs() {
	"$RDMACTL" __complete help ''
}

# Lines of stdin wider than $WIDTH columns (UTF-8 characters), as "LEN: LINE".
# The exceptions, narrow and explicit, are lines that hold one thing nothing
# can break after their indent: a single word (a sysfs path in a finding's
# evidence), or a single quoted command (a finding's fix, 'rdmactl bond
# create ...', kept whole to be copied; punctuation may follow the quote).
too_wide() {
	LC_ALL=C.UTF-8 awk -v w="$WIDTH" '
		length($0) > w {
			rest = $0; sub(/^ +/, "", rest)
			if (rest !~ / /) next
			if (rest ~ /^\x27[^\x27]*\x27[^ ]*$/) next
			print length($0) ": " $0
		}'
}

# Run rdmactl ARGS... and fail, naming them, when a line of stdout is too wide.
# shellcheck disable=SC2154 # run sets stderr
fits() {
	local wide
	run --separate-stderr "$RDMACTL" "$@"
	[ "$status" -le 3 ] || fail "rdmactl $* exited $status: $stderr"
	wide=$(too_wide <<<"$output")
	[ -z "$wide" ] || fail "rdmactl $*: lines wider than $WIDTH columns:
$wide"
}

# A copy of cx6dx whose mlx5_0 is called $1 (in sysfs only: the kernel
# recording does not name RDMA devices).
long_name_host() {
	local name=$1 h=$BATS_TEST_TMPDIR/long dev
	cp -a "$HOSTS/cx6dx" "$h"
	dev=$(readlink "$h/sys/class/infiniband/mlx5_0")
	# The link is ../../devices/...: relative to sys/class/infiniband.
	mv "$h/sys/${dev#../../}" "$h/sys/${dev#../../}/../$name"
	ln -s "${dev%/mlx5_0}/$name" "$h/sys/class/infiniband/$name"
	rm "$h/sys/class/infiniband/mlx5_0"
	echo "$h"
}

@test "text width: port, port gids, port stats fit 80 columns on every fixture" {
	for h in $(hosts); do
		fits --root "$HOSTS/$h" port
		fits --root "$HOSTS/$h" port gids
		fits --root "$HOSTS/$h" port stats
		fits --root "$HOSTS/$h" -b port
	done
}

@test "text width: bond show (full and brief) fits 80 columns on every fixture" {
	for h in $(hosts); do
		fits --root "$HOSTS/$h" bond show
		fits --root "$HOSTS/$h" -b bond show
	done
}

@test "text width: help and help VERB fit 80 columns, long lines wrap under their text" {
	fits help
	for v in $(verbs); do
		fits help "$v"
	done
	# 'help bench' was 128 wide: the link keyword's help continues under itself.
	run "$RDMACTL" help bench
	assert_success
	assert_line --regexp '^ {25}[^ ]'
	# A long synopsis breaks between bracketed groups, not inside one.
	run "$RDMACTL" help diag
	assert_success
	assert_line --regexp '^ +\[-f POLICY\.yaml\]$'
}

@test "text width: diag list fits 80 columns" {
	fits --root "$HOSTS/cx6dx" diag list
}

@test "text width: diag fits 80 columns on every fixture" {
	for h in $(hosts); do
		fits --root "$HOSTS/$h" diag
	done
}

@test "text width: on a terminal the width is the terminal's (\$COLUMNS where it says none)" {
	command -v script >/dev/null || skip "needs script(1) for a terminal"
	# Not a terminal: 80 whatever $COLUMNS says, so pipes and files are reproducible.
	COLUMNS=60 run "$RDMACTL" help bench
	assert_success
	[ -n "$(WIDTH=60 too_wide <<<"$output")" ] || fail "a pipe got \$COLUMNS' width"
	# A pty that reports no size: $COLUMNS.
	run env COLUMNS=60 script -qec "stty cols 0 rows 0 2>/dev/null; '$RDMACTL' help bench" /dev/null
	assert_success
	output=${output//$'\r'/}
	[ -z "$(WIDTH=60 too_wide <<<"$output")" ] || fail "a 60-column terminal got: $output"
	assert_line --partial "rdmactl bench client HOST"
}

@test "text width: -b port is one line a port with device/port, state, rate, netdev, MTU" {
	for h in $(hosts); do
		run --separate-stderr rd "$h" -j port
		json=$output
		n=$(jq '.ports | length' <<<"$json")
		run --separate-stderr rd "$h" -b port
		[ "$status" -le 1 ] || fail "$h: $stderr"
		assert_line --index 0 --regexp '^PORT +STATE +PHYS +RATE +NETDEV +OPER +MTU +RDMA_MTU$'
		[ "${#lines[@]}" -eq $((n + 1)) ] || fail "$h: $n ports, ${#lines[@]} lines: $output"
		for i in $(seq 0 $((n - 1))); do
			want=$(jq -r ".ports[$i] | [\"\(.device)/\(.port)\", .state // \"-\",
				(if .rate_gbps then \"\(.rate_gbps) Gb/s\" else \"-\" end),
				.netdev // \"-\", (.mtu_bytes // \"-\" | tostring)] | join(\"\t\")" <<<"$json")
			IFS=$'\t' read -r port state rate netdev mtu <<<"$want"
			line=${lines[$((i + 1))]}
			[[ $line == "$port "* ]] || fail "$h: row $i does not start with $port: $line"
			for f in "$state" "$rate" "$netdev" "$mtu"; do
				[[ " $line " == *" $f "* ]] || fail "$h: row $i lacks '$f': $line"
			done
		done
	done
	# JSON and YAML are the same document with and without -b.
	[ "$(rd cx6dx -j port)" = "$(rd cx6dx -b -j port)" ]
	[ "$(rd cx6dx -j port)" = "$(rd cx6dx -j port show -b)" ]
}

@test "text width: bond show -b is one line a bond: mode, state, active, members, RDMA port" {
	run --separate-stderr rd ab-2nic -b bond show
	assert_success
	assert_line --index 0 --regexp '^BOND +MODE +STATE +ACTIVE +MEMBERS +RDMA$'
	assert_line --index 1 --regexp '^bond0 +active-backup +up +ens2f0np0 +ens1f0np0:down,ens2f0np0:up +none$'
	[ "${#lines[@]}" -eq 2 ]
	run --separate-stderr rd lag-mistakes -b bond show
	assert_success
	assert_line --index 1 --regexp '^bond0 +802\.3ad +up +- +ens1f0np0:up,ens1f1np1:up +mlx5_bond_0/1$'
	assert_line --index 2 --regexp '^bond1 +balance-alb +up +ens2f0np0 +ens2f0np0:up,ens2f1np1:up +none$'
	[ "${#lines[@]}" -eq 3 ]
	for h in $(hosts); do
		n=$(rd "$h" -j bond show 2>/dev/null | jq '.bonds | length')
		run --separate-stderr rd "$h" -b bond show
		assert_success
		if [ "$n" -eq 0 ]; then
			assert_output "no bonds"
		else
			[ "${#lines[@]}" -eq $((n + 1)) ] || fail "$h: $n bonds: $output"
		fi
	done
	[ "$(rd cx6dx-lag -j bond show)" = "$(rd cx6dx-lag -b -j bond show)" ]
}

@test "text width: a long device name widens its column, never cut" {
	local h name=mlx5_frontend_0 col
	h=$(long_name_host "$name")
	for args in "-b port" "port gids"; do
		# shellcheck disable=SC2086 # two words on purpose
		run --separate-stderr "$RDMACTL" --root "$h" $args
		assert_success
		assert_line --regexp "^$name/1 "
		# The second column starts at the same place on every line, past the name.
		col=$(grep -v '^n_gids_found=' <<<"$output" | awk '{ match($0, /^[^ ]+ +/); print RLENGTH }' | sort -u)
		[ "$col" = $((${#name} + 4)) ] || fail "columns not aligned ($col): $output"
		[ -z "$(too_wide <<<"$output")" ] || fail "too wide: $output"
	done
	run --separate-stderr "$RDMACTL" --root "$h" port
	assert_success
	assert_line --regexp "^$name/1  Ethernet  ACTIVE LINK_UP  100 Gb/s \(2X HDR\)$"
	[ -z "$(too_wide <<<"$output")" ] || fail "too wide: $output"
}

@test "text width: a port line too long for 80 columns wraps between fields, indented" {
	local h name=mlx5_a_rather_long_rdma_device_name_0
	h=$(long_name_host "$name")
	run --separate-stderr "$RDMACTL" --root "$h" port "$name"
	assert_success
	assert_line --index 0 "$name/1  Ethernet  ACTIVE LINK_UP"
	assert_line --index 1 "    100 Gb/s (2X HDR)"
	[ -z "$(too_wide <<<"$output")" ] || fail "too wide: $output"
	# The MTU note of a limited port goes on a continuation line of its own.
	run --separate-stderr rd degraded port mlx5_0
	assert_success
	assert_line "      (netdev MTU 1500 limits RDMA MTU; 4192 gives 4096)"
}

@test "text width: -b port on 32 ports is 32 lines under one header" {
	local h=$BATS_TEST_TMPDIR/many dev i
	cp -a "$HOSTS/cx6dx" "$h"
	dev=$(readlink "$h/sys/class/infiniband/mlx5_0")
	# 30 more devices like mlx5_0, on the same PCI function and netdev.
	for i in $(seq 2 31); do
		cp -a "$h/sys/${dev#../../}" "$h/sys/${dev#../../}/../mlx5_$i"
		ln -s "${dev%/mlx5_0}/mlx5_$i" "$h/sys/class/infiniband/mlx5_$i"
	done
	run --separate-stderr "$RDMACTL" --root "$h" -b port
	assert_success
	[ "${#lines[@]}" -eq 33 ] || fail "$output"
	assert_line --index 0 --regexp '^PORT +STATE'
	assert_line --index 32 --regexp '^mlx5_31/1 +ACTIVE +LINK_UP +100 Gb/s +ens1f0np0 +up +9000 +4096$'
	[ -z "$(too_wide <<<"$output")" ] || fail "too wide: $output"
}
