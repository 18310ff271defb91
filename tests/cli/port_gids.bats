#!/usr/bin/env bats
# port gids on the fixtures: entries, types, IPs, netdevs, the recommended GID
load ../helpers

@test "port gids: JSON and YAML of every fixture parse and agree" {
	for h in cx6dx cx6dx-lag ib-hdr rxe degraded; do
		run --separate-stderr rd "$h" -j port gids
		assert_success
		echo "$output" | json_valid
		json=$(echo "$output" | jq -S .)
		yaml=$(rd "$h" --yaml port gids | yaml_to_json | jq -S .)
		[ "$json" = "$yaml" ]
		[ "$(echo "$json" | jq '[.gids[] | has("device") and has("port") and has("index") and has("gid") and has("type") and has("netdev") and has("ip")] | all')" = true ]
	done
}

@test "port gids: cx6dx lists v1 and v2 for link-local, IPv4, IPv6 and the VLAN" {
	run --separate-stderr rd cx6dx -j port gids mlx5_0
	assert_success
	[ "$(echo "$output" | jq -c '[.gids[] | [.index, .type, .ip, .netdev]]')" = \
	  '[[0,"RoCE v1","fe80::e42:a1ff:fe65:8a10","ens1f0np0"],[1,"RoCE v2","fe80::e42:a1ff:fe65:8a10","ens1f0np0"],[2,"RoCE v1","192.168.10.11","ens1f0np0"],[3,"RoCE v2","192.168.10.11","ens1f0np0"],[4,"RoCE v1","2001:db8:10::11","ens1f0np0"],[5,"RoCE v2","2001:db8:10::11","ens1f0np0"],[6,"RoCE v1","192.168.100.11","ens1f0np0.100"],[7,"RoCE v2","192.168.100.11","ens1f0np0.100"]]' ]
	[ "$(echo "$output" | jq -r '.gids[3].gid')" = "0000:0000:0000:0000:0000:ffff:c0a8:0a0b" ]
	[ "$(echo "$output" | jq -c '[.gids[] | select(.recommended) | .index]')" = '[3,5,7]' ]
	[ "$(echo "$output" | jq -c '[.gids[] | .ip_family] | unique')" = '["ipv4","ipv6"]' ]
}

@test "port gids: unused slots are skipped (256 slots, 8 used)" {
	[ -e "$HOSTS/cx6dx/sys/class/infiniband/mlx5_0/ports/1/gids/255" ]
	run --separate-stderr rd cx6dx -j port gids mlx5_0/1
	[ "$(echo "$output" | jq '.gids | length')" = 8 ]
}

@test "port gids: text looks like show_gids with a count and a marker" {
	run rd cx6dx port gids ens1f1np1
	assert_success
	assert_line --index 0 --regexp '^PORT +INDEX +GID +TYPE +NETDEV$'
	assert_line --regexp '^mlx5_1/1 +3 +::ffff:192\.168\.20\.11 +RoCE v2 +ens1f1np1 +\*$'
	assert_line --partial 'n_gids_found=4'
}

@test "port gids: InfiniBand GIDs are type IB with no IP and no netdev" {
	run --separate-stderr rd ib-hdr -j port gids
	assert_success
	[ "$(echo "$output" | jq -c '.gids[0] | [.type, .ip, .netdev, .recommended]')" = '["IB",null,null,false]' ]
}

@test "port gids: RoCE LAG GIDs sit on bond0" {
	run --separate-stderr rd cx6dx-lag -j port gids
	[ "$(echo "$output" | jq -c '[.gids[].netdev] | unique')" = '["bond0"]' ]
	[ "$(echo "$output" | jq -r '.gids[] | select(.recommended) | .ip')" = 192.168.30.11 ]
}

@test "port gids: rxe GIDs carry the lab addresses" {
	run --separate-stderr rd rxe -j port gids rxe0
	[ "$(echo "$output" | jq -r '.gids[] | select(.recommended) | [.index, .ip] | @tsv')" = "$(printf '3\t198.18.1.1')" ]
}

@test "port gids: a host without RDMA says so on stderr and exits 1" {
	mkdir "$BATS_TEST_TMPDIR/empty"
	run --separate-stderr "$RDMACTL" --root "$BATS_TEST_TMPDIR/empty" -j port gids
	assert_failure 1
	[ "$output" = '{"schema":3,"kind":"port-gids","gids":[]}' ]
	[ "$stderr" = "rdmactl: port: no RDMA devices found" ]
}
