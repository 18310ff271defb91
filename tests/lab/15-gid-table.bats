#!/usr/bin/env bats
# shellcheck disable=SC2016,SC2154 # '...' expands in the VM; bats' run sets $stderr
# The live GID table (issue 24 item 4): on the running kernel `port gids`
# reads each device's table with one ibv_query_gid_table(); under --record
# (as under --root, and as `diag collect` reads) it reads sysfs, slot by slot.
# For the same kernel state both print the same bytes, text and JSON, in the
# root namespace and in one given with -n, where a netdev's ifindex is its own
# namespace's and may name another netdev here.
#
# Run: scripts/lab up links 2; bats tests/lab/15-gid-table.bats

load lab_helper

setup_file() { need_lab 2; }

setup() {
	skip_unless_lab
	need_rdmactl
}

# same_both_ways HOST [-n NS]: on HOST, 'port gids' (JSON, then text) live and
# under --record, compared with cmp(1); the JSON of the live run on stdout.
# The table may move under the reads (a GID being added): the sysfs reading is
# taken before and after the live one, and a try where those two differ is
# taken again (three at most).
same_both_ways() {
	local h=$1
	shift
	on "$h" "
		gids() { ./rdmactl $* \"\$@\" port gids; }
		for try in 1 2 3; do
			gids -j --record /tmp/gids.rec >/tmp/gids.sys1.json || exit 1
			gids --record /tmp/gids.rec >/tmp/gids.sys1.txt || exit 1
			gids -j >/tmp/gids.live.json || exit 1
			gids >/tmp/gids.live.txt || exit 1
			gids -j --record /tmp/gids.rec >/tmp/gids.sys2.json || exit 1
			gids --record /tmp/gids.rec >/tmp/gids.sys2.txt || exit 1
			cmp -s /tmp/gids.sys1.json /tmp/gids.sys2.json &&
				cmp -s /tmp/gids.sys1.txt /tmp/gids.sys2.txt && break
		done
		for f in json txt; do
			cmp /tmp/gids.sys1.\$f /tmp/gids.live.\$f >&2 ||
				{ diff -u /tmp/gids.sys1.\$f /tmp/gids.live.\$f >&2; exit 1; }
		done
		cat /tmp/gids.live.json"
}

# opens HOST ARGS...: the files 'rdmactl ARGS' opened, one per line (strace).
opens() {
	local h=$1
	shift
	on "$h" "command -v strace >/dev/null || { echo 'no strace' >&2; exit 42; }
		strace -f -qq -e trace=open,openat,openat2 -e status=successful -o /tmp/gids.strace \
			./rdmactl $* >/dev/null || exit 1
		sed -n 's/^[0-9]* *open[a-z0-9]*([^\"]*\"\([^\"]*\)\".*/\1/p' /tmp/gids.strace"
}

@test "port gids: one ibv_query_gid_table() per device prints what sysfs reads, on both hosts" {
	local h links
	links=$(on a 'echo $LAB_LINKS')
	for h in a b; do
		run --separate-stderr same_both_ways "$h"
		assert_success
		# Every rxe device, each with its RoCE v2 GID of its link's address.
		jq -e --argjson n "$links" '([.gids[].device] | unique | length) == $n and
			([.gids[] | select(.type == "RoCE v2" and .ip_family == "ipv4" and
				.recommended)] | length) == $n' <<<"$output" ||
			fail "$h: $output"
	done
}

@test "port gids: the live run asks verbs, not the gids/N files; --record reads them" {
	run --separate-stderr opens a -j port gids
	[ "$status" -ne 42 ] || skip "no strace in the VM"
	assert_success
	# The verbs device was opened, and no slot's GID or type file was.
	assert_line --regexp '^/dev/infiniband/uverbs[0-9]+$'
	refute_line --regexp '^/sys/class/infiniband/.*/ports/[0-9]+/gids/[0-9]+$'
	refute_line --regexp '^/sys/class/infiniband/.*/ports/[0-9]+/gid_attrs/types/[0-9]+$'
	# The sysfs path, for contrast: the pattern above does match its reads.
	run --separate-stderr opens a --record /tmp/gids.rec -j port gids
	assert_success
	assert_line --regexp '^/sys/class/infiniband/rxe0/ports/1/gids/[0-9]+$'
	assert_line --regexp '^/sys/class/infiniband/rxe0/ports/1/gid_attrs/types/[0-9]+$'
}

# gv77_elsewhere: on a, a VLAN of eth0 (gv77, 198.18.77.1) moved to namespace
# gidns, keeping its ifindex; the root namespace then gives that ifindex to a
# dummy (gvclash), and gidns gives eth0's ifindex to another (gvclash0): on
# each side, some GID entries carry an ifindex that names the wrong netdev
# there.  Returns when rxe0 has the GID of 198.18.77.1 on gv77; 3 when the
# kernel adds none (after a reset).
gv77_elsewhere() {
	local rc=0
	on a '. tests/lab/guest.bash; set -e
		ip link add link eth0 name gv77 type vlan id 77
		idx=$(cat /sys/class/net/gv77/ifindex)
		eidx=$(cat /sys/class/net/eth0/ifindex)
		ip netns add gidns
		ip link set gv77 netns gidns
		[ "$(ip -n gidns -j link show gv77 | jq .[0].ifindex)" = "$idx" ] ||
			{ echo "gv77 did not keep ifindex $idx in gidns" >&2; exit 1; }
		ip link add gvclash index "$idx" type dummy
		ip -n gidns link add gvclash0 index "$eidx" type dummy
		ip -n gidns addr add 198.18.77.1/24 dev gv77
		ip -n gidns link set gv77 up
		gv77_gid() {
			local g i
			for g in /sys/class/infiniband/rxe0/ports/1/gids/*; do
				i=${g##*/}
				[ "$(<"$g")" = 0000:0000:0000:0000:0000:ffff:c612:4d01 ] || continue
				[ "$(cat /sys/class/infiniband/rxe0/ports/1/gid_attrs/ndevs/"$i" 2>/dev/null)" = gv77 ] &&
					return 0
			done
			return 1
		}
		wait_for 10 gv77_gid 2>/dev/null || exit 3' || rc=$?
	if [ "$rc" -ne 0 ]; then
		"$LAB" reset >/dev/null 2>&1 || true
		[ "$rc" -ne 3 ] || skip "this kernel adds no GID for a VLAN of eth0 in another namespace"
		fail "could not set up gv77 in gidns (exit $rc)"
	fi
}

@test "port gids: in the root namespace, another namespace's ifindex never names a netdev here" {
	local out st
	gv77_elsewhere
	run --separate-stderr same_both_ways a
	out=$output st=$status
	"$LAB" reset >/dev/null 2>&1 || true
	[ "$st" -eq 0 ] || fail "$out $stderr"
	jq -e '[.gids[] | select(.ip == "198.18.77.1")] | length > 0 and
		all(.device == "rxe0" and .netdev == "gv77" and .netdev_in_netns == false)' <<<"$out" ||
		fail "$out"
	jq -e '[.gids[] | select(.netdev == "gvclash")] | length == 0' <<<"$out" || fail "$out"
}

@test "port gids -n: in the namespace, its own netdev by name, eth0 as elsewhere" {
	local out st files
	gv77_elsewhere
	run --separate-stderr same_both_ways a -n gidns
	out=$output st=$status
	run --separate-stderr opens a -n gidns -j port gids
	files=$output
	"$LAB" reset >/dev/null 2>&1 || true
	[ "$st" -eq 0 ] || fail "$out $stderr"
	jq -e '[.gids[] | select(.ip == "198.18.77.1")] | length > 0 and
		all(.netdev == "gv77" and .netdev_in_netns == true)' <<<"$out" || fail "$out"
	jq -e '[.gids[] | select(.ip == "198.18.1.1")] | length > 0 and
		all(.netdev == "eth0" and .netdev_in_netns == false)' <<<"$out" || fail "$out"
	jq -e '[.gids[] | select(.netdev == "gvclash0")] | length == 0' <<<"$out" || fail "$out"
	# Verbs answered there too (shared mode: every namespace sees every device).
	grep -Eq '^/dev/infiniband/uverbs[0-9]+$' <<<"$files" || fail "no verbs device opened: $files"
}
