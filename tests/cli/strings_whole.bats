#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# Issue 23 item 1: no string is ever cut.  JSON carries every finding's text whole (nothing
# ends " ..." or mid-word); text wraps it at the width (80 when stdout is no terminal) with a
# hanging indent, and the wrapped lines say the same words as the JSON.
load ../helpers

FIXTURES=$TOP/testdata/hosts

@test "strings whole: no JSON string of diag or bond check ends cut (' ...')" {
	local h out
	for h in "$FIXTURES"/*/; do
		out=$("$RDMACTL" --root "$h" -j diag 2>/dev/null) || true # 1 or 3: it found something
		jq -e '[.. | strings | select(endswith(" ...") or endswith("..."))] | length == 0' \
			<<<"$out" >/dev/null || fail "$h: $(jq -c '[.. | strings | select(endswith("..."))]' <<<"$out")"
		out=$("$RDMACTL" --root "$h" -j bond check 2>/dev/null) || true
		[ -z "$out" ] || jq -e '[.. | strings | select(endswith("..."))] | length == 0' \
			<<<"$out" >/dev/null || fail "$h: bond check: $out"
	done
}

# Lines past 80 columns that are more than one unbreakable unit (a word, a source path, or a
# quoted command, which stays whole so that it can be copied).
too_wide() {
	awk -v q="'" 'length($0) > 80 {
		t = $0; sub(/^ +/, "", t)
		if (t !~ / / || (substr(t, 1, 1) == q && index(substr(t, 2), q) + 1 >= length(t) - 2)) next
		print
	}'
}

# bond check's own header line ("bond0: active-backup, failover within ... survives 0.537 s
# (timeout >= 12 survives)") wraps between its phrases like the findings' lines.
@test "strings whole: text lines fit 80 columns, only one unbreakable unit runs past" {
	local h args out
	for h in "$FIXTURES"/*/; do
		for args in "diag" "-b diag" "-v diag"; do
			# shellcheck disable=SC2086
			out=$("$RDMACTL" --root "$h" $args 2>/dev/null | too_wide) || true
			[ -z "$out" ] || fail "$h $args: lines past 80 columns: $out"
		done
		out=$("$RDMACTL" --root "$h" bond check 2>/dev/null | too_wide) || true
		[ -z "$out" ] || fail "$h bond check: lines past 80 columns: $out"
	done
}

# -b: one finding per line, its title wrapped under a hang of 6; joined again, each line
# ends with the finding's whole title as JSON has it.
titles_whole_in_text() {
	local h=$1 json text title
	json=$("$RDMACTL" --root "$h" -j diag 2>/dev/null) || true
	text=$("$RDMACTL" --root "$h" -b diag 2>/dev/null |
		awk '/^      [^ ]/ { sub(/^ +/, ""); line = line " " $0; next }
		     { if (line != "") print line; line = $0 }
		     END { if (line != "") print line }') || true
	while IFS= read -r title; do
		[ -n "$title" ] || continue
		grep -qF -- ": $title" <<<"$text" || fail "$h: title not whole in text: '$title'
$text"
	done < <(jq -r '.findings[].title' <<<"$json")
}

@test "strings whole: every title wrapped in text is the JSON title, word for word" {
	local h
	for h in "$FIXTURES"/*/; do
		titles_whole_in_text "$h"
	done
}

# The longest RDMA device name the kernel allows: 63 bytes (IB_DEVICE_NAME_MAX 64).
long_device() {
	printf 'mlx5_%s%s' "$(printf 'x%.0s' {1..57})" "$1"
}

# A copy of cx6dx whose two RDMA devices have 63-byte names and whose second one runs
# other firmware, named as bnxt_re names it ("227.0.131.0/pkg 227.1.111.0"):
# host.fw-mismatch names both devices and versions in its title, whose list was cut at
# 160 bytes ("... mlx5_xxx...x1 227.0.131.0/pkg 227").
long_devices_host() {
	local h=$BATS_TEST_TMPDIR/long i dev new target
	cp -a "$FIXTURES/cx6dx" "$h"
	for i in 0 1; do
		dev=mlx5_$i
		new=$(long_device "$i")
		target=$(readlink "$h/sys/class/infiniband/$dev")
		mv "$h/sys/class/infiniband/$target" "$h/sys/class/infiniband/${target%/*}/$new"
		rm "$h/sys/class/infiniband/$dev"
		ln -s "${target%/*}/$new" "$h/sys/class/infiniband/$new"
		[ ! -d "$h/sys/kernel/config/rdma_cm/$dev" ] ||
			mv "$h/sys/kernel/config/rdma_cm/$dev" "$h/sys/kernel/config/rdma_cm/$new"
	done
	echo "227.0.131.0/pkg 227.1.111.0" >"$h/sys/class/infiniband/$new/fw_ver"
	echo "$h"
}

@test "strings whole: a title listing 63-byte device names is whole in JSON and in text" {
	local h json title d0 d1 out
	h=$(long_devices_host)
	d0=$(long_device 0) d1=$(long_device 1)
	[ ${#d0} -eq 63 ] || fail "device name of ${#d0} bytes"
	json=$("$RDMACTL" --root "$h" -j diag 2>/dev/null) || true
	title=$(jq -r '.findings[] | select(.id == "host.fw-mismatch") | .title' <<<"$json")
	[ "$title" = "2 MT4125 adapters run 2 firmware versions: $d0 22.39.1002, $d1 227.0.131.0/pkg 227.1.111.0" ] ||
		fail "title: '$title'"
	jq -e '[.. | strings | select(endswith("..."))] | length == 0' <<<"$json" >/dev/null ||
		fail "cut: $(jq -c '[.. | strings | select(endswith("..."))]' <<<"$json")"
	titles_whole_in_text "$h"
	out=$("$RDMACTL" --root "$h" diag 2>/dev/null | too_wide) || true
	[ -z "$out" ] || fail "lines past 80 columns: $out"
}

# An error record holds a message with a path as long as the kernel takes (PATH_MAX): the
# message was cut at 256 bytes, at a word ("cannot use root ...: No such file or directory").
@test "strings whole: an error naming a 3000-byte path says it whole, in JSON and on stderr" {
	local p=$BATS_TEST_TMPDIR/$(printf 'd%.0s' {1..200}) i
	for i in $(seq 14); do
		p=$p/$(printf 'e%.0s' {1..200})
	done
	[ ${#p} -gt 2900 ] || fail "path of ${#p} bytes"
	run --separate-stderr "$RDMACTL" --root "$p" -j port
	assert_failure 1
	jq -e --arg p "$p" '.kind == "error" and .error.id == "not-found"
		and .error.message == "cannot use root '"'"'\($p)'"'"': No such file or directory"' \
		<<<"$output" >/dev/null || fail "$output"
	run --separate-stderr "$RDMACTL" --root "$p" port
	assert_failure 1
	[ "$stderr" = "rdmactl: port: cannot use root '$p': No such file or directory" ] ||
		fail "$stderr"
}

# A copy of cx6dx whose PCI functions sit under three 200-byte bridge directories (a path of
# over 700 bytes, as deep hierarchies and bundles make them), the first function's link speed
# unreadable as a speed.  Its record named a path cut at 512 bytes (no such file: nothing
# said) or "cannot read '<200 bytes>...'".  The function is read through the device's
# "device" link, which the record names: the long path is the kernel's to resolve.
deep_pci_host() {
	local h=$BATS_TEST_TMPDIR/deep deep l target
	cp -a "$FIXTURES/cx6dx" "$h"
	deep=$(printf 'b%.0s' {1..200})/$(printf 'c%.0s' {1..200})/$(printf 'd%.0s' {1..200})
	mkdir -p "$h/sys/devices/pci0000:00/$deep"
	mv "$h/sys/devices/pci0000:00/0000:00:02.0" "$h/sys/devices/pci0000:00/$deep/"
	find "$h/sys" -type l -lname '*pci0000:00/0000:00:02.0*' | while IFS= read -r l; do
		target=$(readlink "$l")
		ln -sfn "${target/pci0000:00\/0000:00:02.0/pci0000:00/$deep/0000:00:02.0}" "$l"
	done
	echo "fast" >"$h/sys/devices/pci0000:00/$deep/0000:00:02.0/0000:3b:00.0/current_link_speed"
	echo "$h $deep"
}

@test "strings whole: a value under a 700-byte PCI path is read and reported" {
	local h deep
	read -r h deep < <(deep_pci_host)
	run --separate-stderr "$RDMACTL" --root "$h" port mlx5_0
	assert_failure 1
	[ "$stderr" = "rdmactl: port: '/sys/class/infiniband/mlx5_0/device/current_link_speed' holds 'fast', not a PCIe link speed: Invalid argument" ] ||
		fail "$stderr"
	run -0 "$RDMACTL" --root "$h" -j port mlx5_1
	[ "$(jq -r '.ports[0] | "\(.pci) \(.pcie.max_width)"' <<<"$output")" = "0000:3b:00.1 16" ] ||
		fail "$output"
}

# A copy of rxe-bond without its kernel recording (bonds from procfs) where two
# Soft-RoCE devices of 63-byte names are bound to the members, not to the bond:
# the reason bond show gives for no RoCE LAG lists both, once cut at 96 bytes.
@test "strings whole: bond show's RDMA reason names every device bound to a member whole" {
	local h=$BATS_TEST_TMPDIR/rb v d0 d1 f
	cp -a "$FIXTURES/rxe-bond" "$h"
	rm -rf "$h/kernel.rec" "$h/samples"
	v=$h/sys/devices/virtual/infiniband
	d0=$(printf 'r%.0s' {1..62})0 d1=$(printf 'r%.0s' {1..62})1
	mv "$v/rxeb" "$v/$d0"
	cp -a "$v/$d0" "$v/$d1"
	rm "$h/sys/class/infiniband/rxeb"
	ln -s "../../devices/virtual/infiniband/$d0" "$h/sys/class/infiniband/$d0"
	ln -s "../../devices/virtual/infiniband/$d1" "$h/sys/class/infiniband/$d1"
	echo eth0 >"$v/$d0/parent"
	echo eth1 >"$v/$d1/parent"
	for f in "$v/$d0"/ports/1/gid_attrs/ndevs/*; do [ ! -s "$f" ] || echo eth0 >"$f"; done
	for f in "$v/$d1"/ports/1/gid_attrs/ndevs/*; do [ ! -s "$f" ] || echo eth1 >"$f"; done
	run --separate-stderr "$RDMACTL" --root "$h" -j bond show
	assert_success
	[ "$(jq -r '.bonds[0].rdma.reason' <<<"$output")" = \
		"the RDMA devices are bound to members ($d0 on eth0, $d1 on eth1): each sends on its member only" ]
	run --separate-stderr "$RDMACTL" --root "$h" bond show
	assert_success
	[[ $(tr -s ' \n' '  ' <<<"$output") == *"($d0 on eth0, $d1 on eth1): each sends on its member only"* ]]
}

# A copy of cx6dx whose mlx5_0 sits on a device of the auxiliary bus (an SF), its name in the
# "device" link's target: "mlx5_core.sf.2" is that device's name where the PCI address would
# be; "mlx5_core.sf.100", 16 bytes, fits no PCI address and names no function, without a
# word (read through the link, a name too long for the address once read as an error).
@test "strings whole: a device on the auxiliary bus is named by its link, a long name is no error" {
	local h=$BATS_TEST_TMPDIR/sf f
	cp -a "$FIXTURES/cx6dx" "$h"
	f=$h/sys/devices/pci0000:00/0000:00:02.0/0000:3b:00.0
	mkdir "$f/mlx5_core.sf.2" "$f/mlx5_core.sf.100"
	echo 1 >"$f/mlx5_core.sf.2/numa_node"
	echo 1 >"$f/mlx5_core.sf.100/numa_node"
	ln -sfn ../../mlx5_core.sf.2 "$f/infiniband/mlx5_0/device"
	run --separate-stderr "$RDMACTL" --root "$h" -j port mlx5_0
	assert_success
	[ -z "$stderr" ] || fail "$stderr"
	[ "$(jq -c '.ports[0] | [.pci, .numa_node]' <<<"$output")" = '["mlx5_core.sf.2",1]' ] ||
		fail "$output"
	ln -sfn ../../mlx5_core.sf.100 "$f/infiniband/mlx5_0/device"
	run --separate-stderr "$RDMACTL" --root "$h" -j port mlx5_0
	assert_success
	[ -z "$stderr" ] || fail "$stderr"
	[ "$(jq -c '.ports[0] | [.pci, .numa_node, .netdev]' <<<"$output")" = '[null,null,"ens1f0np0"]' ] ||
		fail "$output"
}
