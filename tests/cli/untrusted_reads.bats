#!/usr/bin/env bats
# Untrusted reads (issue 12): what sysfs holds is data, never trusted.  Every
# case copies a fixture and corrupts the copy: invalid UTF-8 and escape
# sequences, files that exist but cannot be read (a directory where a file
# should be: unreadable even for root) or parsed, numbers with leading zeros,
# 64-bit overflow, and interval bounds.  A value the kernel does not offer is
# null without a word; one that cannot be read is null, "?" in text, one line
# on stderr naming the file and why, and exit 1 with everything else printed.
load ../helpers

IB=sys/devices/pci0000:00/0000:00:02.0/0000:3b:00.0/infiniband/mlx5_0
PCI=sys/devices/pci0000:00/0000:00:02.0/0000:3b:00.0

setup() {
	H=$BATS_TEST_TMPDIR/host
	cp -a "$HOSTS/cx6dx" "$H"
}

rh() {
	"$RDMACTL" --root "$H" "$@"
}

# Make a file exist but fail to read: a directory in its place.
unreadable() {
	rm -f "$H/$1"
	mkdir "$H/$1"
}

@test "untrusted: invalid UTF-8 in fw_ver gives valid JSON and YAML (U+FFFD)" {
	printf '22.39\377\376\n' >"$H/$IB/fw_ver"
	run --separate-stderr rh -j port mlx5_0
	assert_success
	echo "$output" | json_valid
	[ "$(echo "$output" | jq -r '.ports[0].fw_ver')" = "22.39"$'\uFFFD\uFFFD' ]
	run --separate-stderr rh --yaml port mlx5_0
	assert_success
	[ "$(echo "$output" | yaml_to_json | jq -r '.ports[0].fw_ver')" = "22.39"$'\uFFFD\uFFFD' ]
}

@test "untrusted: escape sequences in board_id never reach the terminal raw" {
	printf 'MT_\033[2J\033]0;pwned\007X\302\233Y\n' >"$H/$IB/board_id"
	run --separate-stderr rh port mlx5_0
	assert_success
	[[ $output != *$'\033'* ]] || fail "raw ESC in text output"
	[[ $output != *$'\007'* ]] || fail "raw BEL in text output"
	[[ $output != *$'\302\233'* ]] || fail "raw C1 CSI in text output"
	assert_output --partial 'board MT_\x1b[2J\x1b]0;pwned\x07X\xc2\x9bY'
	run --separate-stderr rh -j port mlx5_0
	assert_success
	echo "$output" | json_valid
	[[ $output != *$'\033'* ]] || fail "raw ESC in JSON"
	[ "$(echo "$output" | jq -r '.ports[0].board_id')" = $'MT_\033[2J\033]0;pwned\007X\u009bY' ]
	run --separate-stderr rh --yaml port mlx5_0
	assert_success
	[ "$(echo "$output" | yaml_to_json | jq -r '.ports[0].board_id')" = $'MT_\033[2J\033]0;pwned\007X\u009bY' ]
}

@test "untrusted: a counter name that is not UTF-8 is a valid JSON key and escaped text" {
	printf '7\n' >"$H/$IB/ports/1/hw_counters/bad"$'\377\033'"name"
	run --separate-stderr rh -j port stats mlx5_0/1
	assert_success
	echo "$output" | json_valid
	[ "$(echo "$output" | jq -r "$JQ_CMAP"'(.stats[0] | cmap).hw["bad\uFFFD\u001bname"]')" = 7 ]
	run --separate-stderr rh --yaml port stats mlx5_0/1
	assert_success
	echo "$output" | yaml_to_json >/dev/null
	run --separate-stderr rh port stats mlx5_0/1
	assert_success
	assert_output --partial 'bad\xff\x1bname'
	[[ $output != *$'\033'* ]] || fail "raw ESC in text output"
}

@test "untrusted: one corrupt GID file is a null slot, the rest are listed, exit 1" {
	printf 'not-a-gid\033\n' >"$H/$IB/ports/1/gids/2"
	run --separate-stderr rh -j port gids mlx5_0
	assert_failure 1
	echo "$output" | json_valid
	[ "$(echo "$output" | jq -c '[.gids[] | [.index, .gid, .type]] | .[2]')" = '[2,null,null]' ]
	[ "$(echo "$output" | jq '[.gids[] | select(.recommended == true)] | length')" = 3 ]
	[[ $stderr == *"/sys/class/infiniband/mlx5_0/ports/1/gids/2"*"not a GID"* ]] || fail "$stderr"
	[[ $stderr != *$'\033'* ]] || fail "raw ESC on stderr"
	[ "$(echo "$stderr" | wc -l)" -eq 1 ]
}

@test "untrusted: an unreadable GID slot is listed as null with a warning, exit 1" {
	unreadable "$IB/ports/1/gids/3"
	run --separate-stderr rh -j port gids mlx5_0
	assert_failure 1
	echo "$output" | json_valid
	[ "$(echo "$output" | jq -c '.gids[] | select(.index == 3) | [.gid, .ip, .recommended]')" = '[null,null,null]' ]
	[[ $stderr == *"cannot read '/sys/class/infiniband/mlx5_0/ports/1/gids/3'"* ]] || fail "$stderr"
	run --separate-stderr rh port gids mlx5_0
	assert_failure 1
	assert_output --regexp 'mlx5_0/1 +3 +\? +\? +\?'
}

@test "untrusted: an unreadable state is null (? in text) with a warning, exit 1" {
	unreadable "$IB/ports/1/state"
	run --separate-stderr rh -j port mlx5_0
	assert_failure 1
	echo "$output" | json_valid
	[ "$(echo "$output" | jq -c '.ports[0] | [.state, .phys_state, .netdev]')" = '[null,"LINK_UP","ens1f0np0"]' ]
	[[ $stderr == *"cannot read '/sys/class/infiniband/mlx5_0/ports/1/state'"* ]] || fail "$stderr"
	[ "$(echo "$stderr" | wc -l)" -eq 1 ]
	run --separate-stderr rh port mlx5_0
	assert_failure 1
	assert_output --partial 'mlx5_0/1  Ethernet  ? LINK_UP'
}

@test "untrusted: a state that is not 'N: NAME' is null with a warning" {
	printf 'garbage\n' >"$H/$IB/ports/1/state"
	run --separate-stderr rh -j port mlx5_0
	assert_failure 1
	[ "$(echo "$output" | jq '.ports[0].state')" = null ]
	[[ $stderr == *"ports/1/state' holds 'garbage', not a port state"* ]] || fail "$stderr"
}

@test "untrusted: unreadable PCIe width is null, not -1" {
	unreadable "$PCI/current_link_width"
	run --separate-stderr rh -j port mlx5_0
	assert_failure 1
	[ "$(echo "$output" | jq -c '.ports[0].pcie | [.current_width, .max_width]')" = '[null,16]' ]
	[[ $stderr == *"current_link_width"* ]] || fail "$stderr"
}

@test "untrusted: a value the kernel does not offer is null without noise" {
	rm "$H/$IB/board_id" "$H/$PCI/current_link_width"
	run --separate-stderr rh -j port mlx5_0
	assert_success
	[ -z "$stderr" ] || fail "noise: $stderr"
	[ "$(echo "$output" | jq -c '.ports[0] | [.board_id, .pcie.current_width]')" = '[null,null]' ]
}

@test "untrusted: a device without ports/ is reported, not dropped, exit 1" {
	rm -r "$H/$IB/ports"
	run --separate-stderr rh -j port
	assert_failure 1
	echo "$output" | json_valid
	[ "$(echo "$output" | jq -c '[.ports[].device]')" = '["mlx5_1"]' ]
	[[ $stderr == *"'/sys/class/infiniband/mlx5_0/ports'"* ]] || fail "$stderr"
	run --separate-stderr rh port mlx5_0
	assert_failure 1
	[[ $stderr == *"'/sys/class/infiniband/mlx5_0/ports'"* ]] || fail "$stderr"
}

@test "untrusted: sysfs numbers are decimal: 010 is ten, not eight" {
	printf '010\n' >"$H/$IB/ports/1/hw_counters/out_of_sequence"
	printf '010\n' >"$H/$IB/ports/1/counters/link_downed"
	run --separate-stderr rh -j port stats mlx5_0/1
	assert_success
	[ "$(echo "$output" | jq -c "$JQ_CMAP"'(.stats[0] | cmap) | [.hw.out_of_sequence, .ib.link_downed]')" = '[10,10]' ]
}

@test "untrusted: a counter that cannot be read or parsed is null with a warning" {
	printf '0x10\n' >"$H/$IB/ports/1/hw_counters/out_of_sequence"
	unreadable "$IB/ports/1/counters/link_downed"
	run --separate-stderr rh -j port stats mlx5_0/1
	assert_failure 1
	echo "$output" | json_valid
	[ "$(echo "$output" | jq -c "$JQ_CMAP"'(.stats[0] | cmap) | [.hw.out_of_sequence, .ib.link_downed, .ib.VL15_dropped != null]')" = '[null,null,true]' ]
	[[ $stderr == *"hw_counters/out_of_sequence' holds '0x10', not a decimal counter"* ]] || fail "$stderr"
	[[ $stderr == *"cannot read '/sys/class/infiniband/mlx5_0/ports/1/counters/link_downed'"* ]] || fail "$stderr"
}

@test "untrusted: port_xmit_data whose bytes (x4) would overflow 64 bits is the kernel's word count, exact" {
	printf '4611686018427387904\n' >"$H/$IB/ports/1/counters/port_xmit_data"
	printf '4611686018427387903\n' >"$H/$IB/ports/1/counters/port_rcv_data"
	run --separate-stderr rh -j port stats mlx5_0/1
	assert_success
	# Schema 3 keeps the kernel's names and values (4-byte words): nothing to multiply, nothing to wrap.
	# jq reads numbers as doubles: check the exact digits in Python.
	[ "$(echo "$output" | python3 -c 'import json,sys; c={x["name"]: x["value"] for x in json.load(sys.stdin)["stats"][0]["counters"] if x["group"] == "ib"}; print(c["port_xmit_data"], c["port_rcv_data"])')" = '4611686018427387904 4611686018427387903' ]
}

@test "untrusted: port stats interval and count have bounds, named in the error" {
	# timeout: an accepted 1e-300 would sample in a busy loop forever.
	for bad in 1e-300 0.005 0 86401 nan; do
		run --separate-stderr timeout 10 "$RDMACTL" --root "$H" port stats interval "$bad"
		[ "$status" -eq 2 ] || fail "interval $bad exits $status"
		[[ $stderr == *"0.01-86400 s"* ]] || fail "interval $bad: $stderr"
	done
	for bad in 0 1000001; do
		run --separate-stderr timeout 10 "$RDMACTL" --root "$H" port stats interval 1 count "$bad"
		[ "$status" -eq 2 ] || fail "count $bad exits $status"
		[[ $stderr == *"1-1000000"* ]] || fail "count $bad: $stderr"
	done
	echo 5 >"$H/WINDOW"
	mkdir -p "$H/samples/2"
	run --separate-stderr rh -j port stats mlx5_0/1 interval 5 count 1
	assert_success
}
