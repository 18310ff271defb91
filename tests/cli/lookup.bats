#!/usr/bin/env bats
# Lookups (issue 13 item 4): an IP address or an upper netdev (VLAN, macvlan,
# bond) names its RDMA port wherever a port is named.
load ../helpers

# A copy of cx6dx to change: $H.
copy_cx6dx() {
	H=$BATS_TEST_TMPDIR/host
	cp -a "$HOSTS/cx6dx" "$H"
}

# Add a virtual netdev NAME stacked on LOWER (sysfs: the class link, ifindex, lower_ link).
add_upper() {
	local name=$1 lower=$2 dir=$H/sys/devices/virtual/net/$1
	mkdir -p "$dir"
	echo 42 >"$dir/ifindex"
	echo 4 >"$dir/iflink"
	echo 1500 >"$dir/mtu"
	echo 0x1003 >"$dir/flags"
	echo up >"$dir/operstate"
	ln -s "../../../../class/net/$lower" "$dir/lower_$lower"
	ln -s "../../devices/virtual/net/$name" "$H/sys/class/net/$name"
}

@test "lookup: port gids IPv4 gives the recommended GID first (RoCE v2, IPv4-mapped), then the v1" {
	run --separate-stderr rd cx6dx -j port gids 192.168.10.11
	assert_success
	[ "$(echo "$output" | jq -c '[.gids[] | [.device, .port, .index, .type, .recommended]]')" = \
	  '[["mlx5_0",1,3,"RoCE v2",true],["mlx5_0",1,2,"RoCE v1",false]]' ] || fail "$output"
	[ "$(echo "$output" | jq -r '.gids[0].gid')" = "0000:0000:0000:0000:0000:ffff:c0a8:0a0b" ]
	run rd cx6dx port gids 192.168.10.11
	assert_success
	assert_line --index 1 --regexp '^mlx5_0/1 +3 +::ffff:192\.168\.10\.11 +RoCE v2 +ens1f0np0 +\*$'
	assert_line --partial 'n_gids_found=2'
}

@test "lookup: IPv6, IPv4-mapped and link-local addresses; v2 first" {
	run --separate-stderr rd cx6dx -j port gids 2001:db8:10::11
	assert_success
	[ "$(echo "$output" | jq -c '[.gids[] | .index]')" = '[5,4]' ]
	run --separate-stderr rd cx6dx -j port gids ::ffff:192.168.20.11
	assert_success
	[ "$(echo "$output" | jq -c '[.gids[] | [.device, .index]]')" = '[["mlx5_1",3],["mlx5_1",2]]' ]
	run --separate-stderr rd cx6dx -j port gids fe80::e42:a1ff:fe65:8a11
	assert_success
	[ "$(echo "$output" | jq -c '[.gids[] | [.device, .index, .type]]')" = '[["mlx5_1",1,"RoCE v2"],["mlx5_1",0,"RoCE v1"]]' ]
}

@test "lookup: the VLAN's address and the VLAN itself name mlx5_0/1 and its GIDs" {
	run --separate-stderr rd cx6dx -j port gids 192.168.100.11
	assert_success
	[ "$(echo "$output" | jq -c '[.gids[] | [.device, .index, .netdev]]')" = \
	  '[["mlx5_0",7,"ens1f0np0.100"],["mlx5_0",6,"ens1f0np0.100"]]' ]
	run --separate-stderr rd cx6dx -j port gids ens1f0np0.100
	assert_success
	[ "$(echo "$output" | jq -c '[.gids[] | [.device, .index, .netdev]]')" = \
	  '[["mlx5_0",6,"ens1f0np0.100"],["mlx5_0",7,"ens1f0np0.100"]]' ]
	[ -z "$stderr" ]
}

@test "lookup: port show and port stats take a VLAN or an address" {
	for name in ens1f0np0.100 192.168.10.11 2001:db8:10::11 192.168.100.11; do
		run --separate-stderr rd cx6dx -j port show "$name"
		assert_success
		[ "$(echo "$output" | jq -c '[.ports[] | [.device, .port]]')" = '[["mlx5_0",1]]' ] || fail "$name: $output"
		run --separate-stderr rd cx6dx -j port stats "$name"
		assert_success
		[ "$(echo "$output" | jq -c '[.stats[] | .device]')" = '["mlx5_0"]' ] || fail "$name: $output"
	done
	run --separate-stderr rd cx6dx -j port show 192.168.20.11
	[ "$(echo "$output" | jq -c '[.ports[] | .device]')" = '["mlx5_1"]' ]
}

@test "lookup: an address no port has, or one on a netdev without RDMA, is named in the error" {
	run --separate-stderr rd cx6dx port gids 10.9.9.9
	assert_failure 1
	[[ "$stderr" == "rdmactl: port: no RDMA port has address 10.9.9.9"* ]] || fail "$stderr"
	run --separate-stderr rd cx6dx port show 2001:db8::99
	assert_failure 1
	[[ "$stderr" == *"no RDMA port has address 2001:db8::99"* ]] || fail "$stderr"
	# 127.0.0.1 is in the recorded address dump, on lo.
	run --separate-stderr rd cx6dx port gids 127.0.0.1
	assert_failure 1
	[[ "$stderr" == *"address 127.0.0.1 is on 'lo', which has no RDMA port"* ]] || fail "$stderr"
	run --separate-stderr rd cx6dx port gids 10.1
	assert_failure 1
	[[ "$stderr" == *"no RDMA device or network interface '10.1'"* ]] || fail "$stderr"
}

@test "lookup: an address without a GID is found through the address dump (netdev, then port)" {
	copy_cx6dx
	local p=$H/sys/class/infiniband/mlx5_1/ports/1
	for i in 2 3; do
		echo 0000:0000:0000:0000:0000:0000:0000:0000 >"$p/gids/$i"
		rm "$p/gid_attrs/types/$i" "$p/gid_attrs/ndevs/$i"
	done
	run --separate-stderr "$RDMACTL" --root "$H" -j port show 192.168.20.11
	assert_success
	[ "$(echo "$output" | jq -c '[.ports[] | .device]')" = '["mlx5_1"]' ]
	run --separate-stderr "$RDMACTL" --root "$H" -j port gids 192.168.20.11
	assert_failure 1
	[ "$(echo "$output" | jq -c '.gids')" = '[]' ]
	[ "$stderr" = "rdmactl: port: no GID of mlx5_1/1 carries address 192.168.20.11 (it is on 'ens1f1np1')" ]
}

@test "lookup: an upper netdev is found through sysfs lower_* links (macvlan, bond over two ports)" {
	copy_cx6dx
	add_upper mv0 ens1f1np1
	run --separate-stderr "$RDMACTL" --root "$H" -j port show mv0
	assert_success
	[ "$(echo "$output" | jq -c '[.ports[] | .device]')" = '["mlx5_1"]' ]
	# An upper of an upper.
	add_upper mv0.7 mv0
	run --separate-stderr "$RDMACTL" --root "$H" -j port show mv0.7
	[ "$(echo "$output" | jq -c '[.ports[] | .device]')" = '["mlx5_1"]' ]
	# No IP, so no GID of its own: said, exit 1.
	run --separate-stderr "$RDMACTL" --root "$H" port gids mv0
	assert_failure 1
	[ "$stderr" = "rdmactl: port: no GID of mlx5_1/1 is on 'mv0'" ]
	add_upper bond9 ens1f0np0
	ln -s ../../../../class/net/ens1f1np1 "$H/sys/devices/virtual/net/bond9/lower_ens1f1np1"
	run --separate-stderr "$RDMACTL" --root "$H" -j port show bond9
	assert_success
	[ "$(echo "$output" | jq -c '[.ports[] | .device]')" = '["mlx5_0","mlx5_1"]' ]
}

@test "lookup: a VLAN without lower_ link is still found by its GIDs' ndev" {
	copy_cx6dx
	rm "$H/sys/devices/virtual/net/ens1f0np0.100/lower_ens1f0np0"
	run --separate-stderr "$RDMACTL" --root "$H" -j port gids ens1f0np0.100
	assert_success
	[ "$(echo "$output" | jq -c '[.gids[] | .index]')" = '[6,7]' ]
}

@test "lookup: lower_ links that loop end (bounded walk), a netdev with no port is named" {
	copy_cx6dx
	add_upper la lo
	ln -s ../la "$H/sys/devices/virtual/net/la/lower_la"
	run --separate-stderr timeout 10 "$RDMACTL" --root "$H" port show la
	assert_failure 1
	[[ "$stderr" == *"network interface 'la' has no RDMA port"* ]] || fail "$stderr"
}

@test "lookup: diag, which shares the resolver, takes an address or a VLAN too" {
	for name in 192.168.10.11 ens1f0np0.100; do
		run --separate-stderr rd cx6dx -j diag run "$name" interval 0
		[ "$(echo "$output" | jq -c '[.ports[] | .device]')" = '["mlx5_0"]' ] || fail "$name: $output"
	done
	run --separate-stderr rd cx6dx diag run 10.9.9.9 interval 0
	assert_failure 1
	[[ "$stderr" == *"no RDMA port has address 10.9.9.9"* ]] || fail "$stderr"
}

@test "lookup: pfc takes an address or a VLAN and shows (or plans) the DCB of the port's netdev" {
	local name
	for name in 192.168.10.11 ens1f0np0.100 192.168.100.11 mlx5_0/1; do
		run --separate-stderr rd cx6dx -j pfc show dev "$name"
		assert_success
		[ "$(echo "$output" | jq -c '[.netdevs[].netdev]')" = '["ens1f0np0"]' ] || fail "$name: $output"
		run --separate-stderr rd cx6dx -j --dry-run pfc set dev "$name" prio-pfc 4:on
		assert_failure 4 # would change
		[ "$(echo "$output" | jq -c '[.netdevs[].netdev]')" = '["ens1f0np0"]' ] || fail "$name: $output"
	done
	run --separate-stderr rd cx6dx pfc show dev 10.9.9.9
	assert_failure 1
	assert_equal "$stderr" "rdmactl: pfc: no RDMA port has address 10.9.9.9"
}
