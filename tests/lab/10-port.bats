#!/usr/bin/env bats
# shellcheck disable=SC2016,SC2154 # '...' expands in the VM; bats' run sets $stderr
# rdmactl port on real Soft-RoCE devices: states, netdevs, MTUs, GIDs.

load lab_helper

setup_file() { need_lab 1; }

setup() {
	skip_unless_lab
	need_rdmactl
}

@test "rdmactl port: rxeK ACTIVE on ethK, Ethernet, 25 Gb/s, MTUs" {
	local h n k links
	links=$(on a 'echo $LAB_LINKS')
	for h in a b; do
		run --separate-stderr on "$h" ./rdmactl -j port
		assert_success
		for n in $(seq "$links"); do
			k=$((n - 1))
			jq -e --arg d "rxe$k" --arg nd "eth$k" '
				[.ports[] | select(.device == $d)] | length == 1 and (.[0] |
				.port == 1 and .link_layer == "Ethernet" and .state == "ACTIVE" and
				.phys_state == "LINK_UP" and .netdev == $nd and .mtu_bytes == 1500 and
				.admin_up == true and .carrier == true and .operstate == "up" and
				.active_mtu_bytes == 1024 and .rate_gbps == 25)' <<<"$output" ||
				fail "rxe$k on $h: $(jq -c --arg d "rxe$k" '.ports[] | select(.device == $d)' <<<"$output")"
		done
	done
}

@test "rdmactl port gids: the RoCE v2 GID of 198.18.n.x on rxe(n-1)" {
	local h n k x ip idx long links kernel gids
	links=$(on a 'echo $LAB_LINKS')
	for h in a b; do
		x=1
		[ "$h" = b ] && x=2
		# One trip per host: what the kernel says ("rxeK index long-gid"
		# lines), then 'rdmactl -j port gids rxeK' for each K.
		run --separate-stderr in_vm "$h" "
			for n in \$(seq $links); do
				k=\$((n - 1)); i=\$(v2_gid_index rxe\$k 198.18.\$n.$x) || exit 1
				echo rxe\$k \$i \$(</sys/class/infiniband/rxe\$k/ports/1/gids/\$i)
			done
			echo ---
			for n in \$(seq $links); do ./rdmactl -j port gids rxe\$((n - 1)) || exit 1; done"
		assert_success
		kernel=$(sed '/^---$/,$d' <<<"$output")
		gids=$(sed '1,/^---$/d' <<<"$output")
		for n in $(seq "$links"); do
			k=$((n - 1))
			ip=198.18.$n.$x
			read -r _ idx long < <(grep "^rxe$k " <<<"$kernel")
			# The GID as ::ffff:a.b.c.d or in sysfs' long form; the index is
			# the kernel's (what ib_write_bw -x takes).
			jq -s -e --arg d "rxe$k" --arg ip "$ip" --arg nd "eth$k" --arg long "$long" --argjson i "$idx" '
				[.[].gids[] | select(.ip == $ip)] | length == 1 and (.[0] |
				.device == $d and .port == 1 and .index == $i and
				(.gid == ("::ffff:" + $ip) or .gid == $long) and
				.type == "RoCE v2" and .netdev == $nd)' <<<"$gids" >/dev/null ||
				fail "no RoCE v2 GID for $ip (index $idx) on rxe$k of $h: $gids"
		done
	done
}

@test "rdmactl port set rxe1/1 mtu: its netdev changes, the kernel's active MTU agrees, and back" {
	run --separate-stderr on a ./rdmactl -j port set rxe1/1 mtu 4200
	assert_success
	jq -e '.netdev == "eth1" and .changed == true and .before.mtu_bytes == 1500 and .after.mtu_bytes == 4200
		and .before.carrier == true and .after.admin_up == true' <<<"$output" || fail "$output"
	# The active MTU rdmactl derives (netdev MTU minus rxe's headers) is the kernel's own.
	run --separate-stderr on a 'cat /sys/class/net/eth1/mtu; ./rdmactl -j port rxe1 | jq .ports[0].active_mtu_bytes;
		ibv_devinfo -d rxe1 | sed -n "s/.*active_mtu:[[:space:]]*\([0-9]*\).*/\1/p"'
	on a ./rdmactl port set eth1 mtu 1500 >/dev/null
	assert_success
	assert_output $'4200\n4096\n4096'
	run --separate-stderr on a ./rdmactl -j port set rxe1 mtu 1500
	assert_success
	jq -e '.changed == false and .after.mtu_bytes == 1500' <<<"$output" || fail "$output"
}
