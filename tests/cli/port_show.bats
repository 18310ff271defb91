#!/usr/bin/env bats
# port show on every fixture host, in text, JSON and YAML
load ../helpers

HOSTNAMES="cx6dx cx6dx-lag ib-hdr rxe degraded"

@test "port show: JSON and YAML of every fixture parse and agree" {
	for h in $HOSTNAMES; do
		run --separate-stderr rd "$h" -j port
		assert_success
		echo "$output" | json_valid
		json=$(echo "$output" | jq -S .)
		run --separate-stderr rd "$h" --yaml port
		assert_success
		yaml=$(echo "$output" | yaml_to_json | jq -S .)
		[ "$json" = "$yaml" ] || { echo "JSON and YAML differ for $h"; false; }
		[ "$(echo "$json" | jq .schema)" = 3 ]
	done
}

@test "port show: every port object has the documented keys" {
	for h in $HOSTNAMES; do
		run --separate-stderr rd "$h" -j port
		assert_success
		for key in device port link_layer state phys_state rate_gbps netdev mtu_bytes \
			active_mtu_bytes fw_ver pci numa_node; do
			n=$(echo "$output" | jq "[.ports[] | has(\"$key\")] | all")
			[ "$n" = true ] || { echo "$h: key $key missing"; false; }
		done
	done
}

@test "port show: cx6dx has two ACTIVE 100G RoCE ports with their netdevs" {
	run --separate-stderr rd cx6dx -j port
	assert_success
	[ "$(echo "$output" | jq -c '[.ports[] | [.device, .port, .state, .phys_state, .rate_gbps, .netdev, .mtu_bytes, .active_mtu_bytes]]')" = \
	  '[["mlx5_0",1,"ACTIVE","LINK_UP",100,"ens1f0np0",9000,4096],["mlx5_1",1,"ACTIVE","LINK_UP",100,"ens1f1np1",9000,4096]]' ]
	[ "$(echo "$output" | jq -r '.ports[0] | [.fw_ver, .pci, .numa_node, .driver, .link_layer, .rate_lanes] | @tsv')" = \
	  "$(printf '22.39.1002\t0000:3b:00.0\t0\tmlx5_core\tEthernet\t2X HDR')" ]
	[ "$(echo "$output" | jq '.ports[0].pcie.degraded')" = false ]
}

@test "port show: text names the ports, netdevs and MTUs" {
	run rd cx6dx port
	assert_success
	assert_line --partial "mlx5_0/1  Ethernet  ACTIVE LINK_UP  100 Gb/s (2X HDR)"
	assert_line --partial "netdev ens1f0np0 up  mtu 9000  active_mtu 4096"
	assert_line --partial "pci 0000:3b:00.1  numa 0"
	assert_line "    pcie 16.0 GT/s x16 (max 16.0 GT/s x16)"
}

@test "port show: RoCE LAG reports the bond master and its slaves" {
	run --separate-stderr rd cx6dx-lag -j port
	assert_success
	[ "$(echo "$output" | jq -c '.ports | length')" = 1 ]
	[ "$(echo "$output" | jq -c '.ports[0] | [.device, .netdev, .bond_mode, .members]')" = \
	  '["mlx5_bond_0","bond0","802.3ad",["ens1f0np0","ens1f1np1"]]' ]
}

@test "port show: a bond slave name selects the LAG port" {
	run --separate-stderr rd cx6dx-lag -j port ens1f1np1
	assert_success
	[ "$(echo "$output" | jq -r '.ports[0].device')" = mlx5_bond_0 ]
}

@test "port show: InfiniBand port has lid, no derived active MTU, IPoIB netdev" {
	run --separate-stderr rd ib-hdr -j port
	assert_success
	[ "$(echo "$output" | jq -c '.ports[0] | [.link_layer, .rate_gbps, .lid, .sm_lid, .active_mtu_bytes, .netdev, .numa_node]')" = \
	  '["InfiniBand",200,26,1,null,"ib0",1]' ]
}

@test "port show: rxe ports have no PCI device and use the rxe header size" {
	run --separate-stderr rd rxe -j port
	assert_success
	[ "$(echo "$output" | jq -c '[.ports[] | [.device, .driver, .pci, .numa_node, .netdev, .mtu_bytes, .active_mtu_bytes, .active_mtu_limited]]')" = \
	  '[["rxe0","rdma_rxe",null,null,"eth0",1500,1024,true],["rxe1","rdma_rxe",null,null,"eth1",1500,1024,true]]' ]
	run rd rxe port rxe0
	assert_output --partial "4176 gives 4096"
}

@test "port show: degraded host flags PCIe, the down port and the wasted MTU" {
	run --separate-stderr rd degraded -j port
	assert_success
	[ "$(echo "$output" | jq -c '[.ports[] | [.device, .state, .phys_state, .operstate, .mtu_bytes, .active_mtu_bytes, .active_mtu_limited, .pcie.degraded, .pcie.current_width, .pcie.max_width]]')" = \
	  '[["mlx5_0","ACTIVE","LINK_UP","up",1500,1024,true,true,8,16],["mlx5_1","DOWN","DISABLED","down",9000,4096,false,true,8,16]]' ]
	run rd degraded port
	assert_output --partial "DEGRADED"
	assert_output --partial "netdev MTU 1500 limits RDMA MTU; 4192 gives 4096"
}

@test "port show: DEV, DEV/PORT and NETDEV select ports" {
	run --separate-stderr rd cx6dx -j port mlx5_1
	[ "$(echo "$output" | jq -c '[.ports[].device]')" = '["mlx5_1"]' ]
	run --separate-stderr rd cx6dx -j port show mlx5_0/1
	[ "$(echo "$output" | jq -c '[.ports[].device]')" = '["mlx5_0"]' ]
	run --separate-stderr rd cx6dx -j port ens1f1np1
	[ "$(echo "$output" | jq -c '[.ports[].device]')" = '["mlx5_1"]' ]
}

@test "port show: busybox link rdmactl-port runs the port verb" {
	ln -sf "$RDMACTL" "$BATS_TEST_TMPDIR/rdmactl-port"
	run --separate-stderr "$BATS_TEST_TMPDIR/rdmactl-port" --root "$HOSTS/cx6dx" -j show mlx5_0
	assert_success
	[ "$(echo "$output" | jq -r '.ports[0].device')" = mlx5_0 ]
}

@test "port show: --pretty JSON is the same document" {
	a=$(rd cx6dx -j port | jq -S .)
	b=$(rd cx6dx -j --pretty port | jq -S .)
	[ "$a" = "$b" ]
	[ "$(rd cx6dx -j --pretty port | wc -l)" -gt 10 ]
}

@test "port show: colour only when asked, never in JSON" {
	run rd cx6dx --color=always port
	assert_output --partial $'\033[32mACTIVE'
	run rd cx6dx port
	refute_output --partial $'\033['
	run rd cx6dx --color=always -j port
	refute_output --partial $'\033['
	NO_COLOR= run rd cx6dx --color=never port
	refute_output --partial $'\033['
}

@test "port show: a host without RDMA says so on stderr and exits 1 (the JSON document stays)" {
	mkdir "$BATS_TEST_TMPDIR/empty"
	run --separate-stderr "$RDMACTL" --root "$BATS_TEST_TMPDIR/empty" -j port
	assert_failure 1
	[ "$output" = '{"schema":3,"kind":"port-show","ports":[],"netns_mode":null}' ]
	[ "$stderr" = "rdmactl: port: no RDMA devices found" ]
	run --separate-stderr "$RDMACTL" --root "$BATS_TEST_TMPDIR/empty" -q port show
	assert_failure 1
	[ "$stderr" = "rdmactl: port: no RDMA devices found" ]
}

@test "port show: each netdev has bond show's trio admin_up, carrier, operstate (issue 23)" {
	for h in $HOSTNAMES; do
		run --separate-stderr rd "$h" -j port
		assert_success
		[ "$(echo "$output" | jq '[.ports[] | (.admin_up | type) == "boolean" and (.carrier | type) == "boolean"] | all')" = true ] ||
			fail "$h: $output"
	done
	run --separate-stderr rd degraded -j port
	assert_success
	[ "$(echo "$output" | jq -c '[.ports[] | [.netdev, .admin_up, .carrier, .operstate]]')" = \
	  '[["ens1f0np0",true,true,"up"],["ens1f1np1",true,false,"down"]]' ] || fail "$output"
	# The LAG port's netdev is the bond: its own state.
	run --separate-stderr rd cx6dx-lag -j port
	[ "$(echo "$output" | jq -c '.ports[0] | [.netdev, .admin_up, .carrier, .operstate]')" = '["bond0",true,true,"up"]' ]
	# Text says why the link is down, in bond show's words; a link that is up says nothing more.
	run rd degraded port
	assert_line "    netdev ens1f1np1 down  mtu 9000  active_mtu 4096  no-carrier"
	assert_line "    netdev ens1f0np0 up  mtu 1500  active_mtu 1024"
	run rd degraded -b port
	assert_line --regexp '^mlx5_1/1 .* ens1f1np1  no-carrier  9000  4096$'
	assert_line --regexp '^mlx5_0/1 .* ens1f0np0  up          1500  1024!$'
}

@test "port show: an admin-down netdev has admin_up false and carrier null (the kernel says EINVAL)" {
	H=$BATS_TEST_TMPDIR/host
	cp -a "$HOSTS/degraded" "$H"
	# IFF_UP clear; carrier cannot be read while down: no file stands for the EINVAL.
	echo 0x1002 >"$H/sys/class/net/ens1f1np1/flags"
	rm "$H/sys/class/net/ens1f1np1/carrier"
	run --separate-stderr "$RDMACTL" --root "$H" -j port mlx5_1
	assert_success
	[ "$(echo "$output" | jq -c '.ports[0] | [.admin_up, .carrier, .operstate]')" = '[false,null,"down"]' ] || fail "$output"
	[ -z "$stderr" ]
	run "$RDMACTL" --root "$H" port mlx5_1
	assert_line "    netdev ens1f1np1 down  mtu 9000  active_mtu 4096  admin-down"
	run "$RDMACTL" --root "$H" -b port mlx5_1
	assert_line --partial "ens1f1np1  admin-down  9000"
	# A carrier file that holds no 0 or 1 is unknown too, as bond show reads it.
	echo 0x1003 >"$H/sys/class/net/ens1f1np1/flags"
	echo garbage >"$H/sys/class/net/ens1f1np1/carrier"
	run --separate-stderr "$RDMACTL" --root "$H" -j port mlx5_1
	[ "$(echo "$output" | jq -c '.ports[0] | [.admin_up, .carrier]')" = '[true,null]' ] || fail "$output"
}

@test "port show: flags that hold no number are reported, admin_up null, exit 1" {
	H=$BATS_TEST_TMPDIR/host
	cp -a "$HOSTS/cx6dx" "$H"
	echo garbage >"$H/sys/class/net/ens1f0np0/flags"
	run --separate-stderr "$RDMACTL" --root "$H" -j port mlx5_0
	assert_failure 1
	[ "$(echo "$output" | jq -c '.ports[0] | [.admin_up, .carrier, .operstate]')" = '[null,true,"up"]' ] || fail "$output"
	[[ "$stderr" == *"'/sys/class/net/ens1f0np0/flags' holds 'garbage', not hexadecimal flags"* ]] || fail "$stderr"
}
