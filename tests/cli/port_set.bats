#!/usr/bin/env bats
# port set under --root and --replay: a dry run plans against the captured host (issue 13 item 3)
load ../helpers

@test "port set --dry-run under --root plans from the bundle's sysfs, exit 0" {
	run --separate-stderr rd cx6dx --dry-run port set ens1f0np0 mtu 4200
	assert_failure 4 # would change
	[ "$output" = "ens1f0np0: mtu 9000 -> 4200 (dry run: nothing sent)" ] || fail "$output"
	[ -z "$stderr" ]
	run --separate-stderr rd cx6dx --dry-run -j port set mlx5_1 mtu 4200 down
	assert_failure 4 # would change
	[ "$(echo "$output" | jq -c '[.netdev, .changed, .dry_run, .before.mtu_bytes, .before.admin_up, .after.mtu_bytes, .after.admin_up]')" = \
	  '["ens1f1np1",true,true,9000,true,4200,false]' ] || fail "$output"
	# The planned state is the state the plan leads to: a link taken down is down.
	[ "$(echo "$output" | jq -c '[.before.operstate, .after.operstate]')" = '["up","down"]' ] || fail "$output"
	# Nothing to change: said so, nothing sent.
	run --separate-stderr rd cx6dx --dry-run port set ens1f0np0 mtu 9000 up
	assert_success
	[ "$output" = "ens1f0np0: already mtu 9000, up (nothing sent)" ] || fail "$output"
}

@test "port set --dry-run under --root takes a VLAN (itself) or an address (the netdev holding it)" {
	run --separate-stderr rd cx6dx --dry-run -j port set ens1f0np0.100 mtu 4200
	assert_failure 4 # would change
	[ "$(echo "$output" | jq -c '[.netdev, .before.mtu_bytes]')" = '["ens1f0np0.100",9000]' ]
	run --separate-stderr rd cx6dx --dry-run -j port set 192.168.100.11 mtu 4200
	assert_failure 4 # would change
	[ "$(echo "$output" | jq -r .netdev)" = ens1f0np0.100 ]
	run --separate-stderr rd cx6dx --dry-run -j port set 192.168.10.11 mtu 4200
	assert_failure 4 # would change
	[ "$(echo "$output" | jq -r .netdev)" = ens1f0np0 ]
	run --separate-stderr rd cx6dx --dry-run port set 10.9.9.9 mtu 4200
	assert_failure 1
	[[ "$stderr" == *"no RDMA port has address 10.9.9.9"* ]] || fail "$stderr"
}

@test "port set under --root: the real write is still refused, exit 1, before anything is read" {
	run --separate-stderr rd cx6dx port set ens1f0np0 mtu 4200
	assert_failure 1
	[ "$stderr" = "rdmactl: port: writes are refused under --root and --replay" ]
	[ -z "$output" ]
}

@test "port set --dry-run: the bundle's admin state comes from flags (IFF_UP), unreadable flags fail" {
	H=$BATS_TEST_TMPDIR/host
	cp -a "$HOSTS/cx6dx" "$H"
	echo 0x1002 >"$H/sys/class/net/ens1f1np1/flags"
	run --separate-stderr "$RDMACTL" --root "$H" --dry-run -j port set ens1f1np1 up
	assert_failure 4 # would change
	[ "$(echo "$output" | jq -c '[.changed, .before.admin_up, .after.admin_up]')" = '[true,false,true]' ]
	echo garbage >"$H/sys/class/net/ens1f1np1/flags"
	run --separate-stderr "$RDMACTL" --root "$H" --dry-run port set ens1f1np1 up
	assert_failure 1
	[[ "$stderr" == *"/sys/class/net/ens1f1np1/flags"* ]] || fail "$stderr"
}

@test "port set --dry-run under --replay: a recording without the link's answer falls back to sysfs" {
	printf '# rdmactl kernel recording v1\n' >"$BATS_TEST_TMPDIR/empty.rec"
	run --separate-stderr "$RDMACTL" --replay "$BATS_TEST_TMPDIR/empty.rec" --dry-run -j port set lo mtu 65535
	assert_failure 4 # would change
	[ "$(echo "$output" | jq -c '[.netdev, .dry_run, .after.mtu_bytes]')" = '["lo",true,65535]' ] || fail "$output $stderr"
	run --separate-stderr "$RDMACTL" --replay "$BATS_TEST_TMPDIR/empty.rec" port set lo mtu 65535
	assert_failure 1
	[[ "$stderr" == *"writes are refused"* ]]
}

@test "port set --dry-run: before and after carry the carrier as port show reads it (issue 23)" {
	run --separate-stderr rd degraded --dry-run -j port set ens1f1np1 mtu 4200
	assert_failure 4 # would change
	[ "$(echo "$output" | jq -c '[.before.admin_up, .before.carrier, .before.operstate, .after.carrier]')" = \
	  '[true,false,"down",false]' ] || fail "$output"
	show=$(rd degraded -j port show ens1f1np1 | jq -c '.ports[0] | {mtu_bytes, admin_up, carrier, operstate}')
	[ "$(echo "$output" | jq -c '.before')" = "$show" ] || fail "$output vs $show"
	# Nothing changes: after is before, carrier too.
	run --separate-stderr rd degraded --dry-run -j port set ens1f0np0 mtu 1500
	assert_success
	[ "$(echo "$output" | jq -c '[.before.carrier, .after.carrier]')" = '[true,true]' ] || fail "$output"
	# Taken down: no carrier to read then (the kernel's EINVAL); brought up: it depends on the link.
	run --separate-stderr rd degraded --dry-run -j port set ens1f0np0 down
	assert_failure 4
	[ "$(echo "$output" | jq -c '[.before.carrier, .after.admin_up, .after.carrier]')" = '[true,false,null]' ] || fail "$output"
	H=$BATS_TEST_TMPDIR/host
	cp -a "$HOSTS/degraded" "$H"
	echo 0x1002 >"$H/sys/class/net/ens1f1np1/flags"
	rm "$H/sys/class/net/ens1f1np1/carrier"
	run --separate-stderr "$RDMACTL" --root "$H" --dry-run -j port set ens1f1np1 up
	assert_failure 4
	[ "$(echo "$output" | jq -c '[.before.admin_up, .before.carrier, .after.admin_up, .after.carrier]')" = \
	  '[false,null,true,null]' ] || fail "$output"
}
