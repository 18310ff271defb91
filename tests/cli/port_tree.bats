#!/usr/bin/env bats
# A sysfs tree built here, by hand, from the kernel's formats (independent of
# scripts/mkhosts), and everything rdmactl reports about it checked.
load ../helpers

# port DEV N STATE PHYS RATE NETDEV: one port of an ibdev under $dev_dir
mkport() {
	local p=$ib/$1/ports/$2
	mkdir -p "$p/gids" "$p/gid_attrs/types" "$p/gid_attrs/ndevs" "$p/counters" "$p/hw_counters"
	echo "$3" >"$p/state"
	echo "$4" >"$p/phys_state"
	echo "$5" >"$p/rate"
	echo Ethernet >"$p/link_layer"
	for i in $(seq 0 15); do
		echo 0000:0000:0000:0000:0000:0000:0000:0000 >"$p/gids/$i"
	done
}

# gid DEV PORT INDEX GID TYPE NETDEV
mkgid() {
	local p=$ib/$1/ports/$2
	echo "$4" >"$p/gids/$3"
	echo "$5" >"$p/gid_attrs/types/$3"
	echo "$6" >"$p/gid_attrs/ndevs/$3"
}

# netdev PCIDIR NAME MTU OPERSTATE
mknetdev() {
	mkdir -p "$1/net/$2"
	echo "$3" >"$1/net/$2/mtu"
	echo "$4" >"$1/net/$2/operstate"
	ln -s "../../${1#"$root"/sys/}/net/$2" "$root/sys/class/net/$2"
}

setup() {
	root=$BATS_TEST_TMPDIR/host
	ib=$root/sys/class/infiniband
	mkdir -p "$ib" "$root/sys/class/net" "$root/sys/bus/pci/drivers/bnxt_en"
	pci=$root/sys/devices/pci0000:80/0000:80:01.0/0000:81:00.0
	mkdir -p "$pci/infiniband/bnxt_re0"
	echo 1 >"$pci/numa_node"
	echo "8.0 GT/s PCIe" >"$pci/current_link_speed"
	echo "16.0 GT/s PCIe" >"$pci/max_link_speed"
	echo 16 >"$pci/current_link_width"
	echo 16 >"$pci/max_link_width"
	ln -s ../../../../bus/pci/drivers/bnxt_en "$pci/driver"
	ln -s ../../devices/pci0000:80/0000:80:01.0/0000:81:00.0/infiniband/bnxt_re0 "$ib/bnxt_re0"
	ln -s ../../../0000:81:00.0 "$pci/infiniband/bnxt_re0/device"
	echo "1: CA" >"$ib/bnxt_re0/node_type"
	echo "218.0.96.0" >"$ib/bnxt_re0/fw_ver"
	echo "BCM957504" >"$ib/bnxt_re0/board_id"
	echo "b226:28ff:fe3c:1a00" >"$ib/bnxt_re0/node_guid"
	mkport bnxt_re0 1 "4: ACTIVE" "5: LinkUp" "50 Gb/sec (1X HDR)"
	mknetdev "$pci" enp129s0f0np0 2000 up
	mkgid bnxt_re0 1 0 fe80:0000:0000:0000:b226:28ff:fe3c:1a00 "IB/RoCE v1" enp129s0f0np0
	mkgid bnxt_re0 1 1 fe80:0000:0000:0000:b226:28ff:fe3c:1a00 "RoCE v2" enp129s0f0np0
	mkgid bnxt_re0 1 9 0000:0000:0000:0000:0000:ffff:0a0a:0a05 "RoCE v2" enp129s0f0np0
	mkgid bnxt_re0 1 11 fd00:0000:0000:0000:0000:0000:0000:0005 "RoCE v2" enp129s0f0np0
	echo 1234 >"$ib/bnxt_re0/ports/1/counters/port_xmit_data"
	echo 77 >"$ib/bnxt_re0/ports/1/counters/symbol_error"
	echo "N/A (no PMA)" >"$ib/bnxt_re0/ports/1/counters/port_xmit_wait"
	echo 5 >"$ib/bnxt_re0/ports/1/hw_counters/rx_atomic_requests"
	echo 3 >"$ib/bnxt_re0/ports/1/hw_counters/out_of_sequence"
	echo 10 >"$ib/bnxt_re0/ports/1/hw_counters/lifespan"
}

@test "hand-built tree: port show reports every field" {
	run --separate-stderr "$RDMACTL" --root "$root" -j port
	assert_success
	[ "$(echo "$output" | jq -c '.ports[0] | [.device, .port, .link_layer, .state, .phys_state, .rate_gbps, .rate_lanes, .netdev, .operstate, .mtu_bytes, .active_mtu_bytes, .active_mtu_limited, .fw_ver, .board_id, .node_guid, .driver, .pci, .numa_node, .pcie.current_speed_gts, .pcie.max_speed_gts, .pcie.degraded]')" = \
	  '["bnxt_re0",1,"Ethernet","ACTIVE","LINK_UP",50,"1X HDR","enp129s0f0np0","up",2000,1024,true,"218.0.96.0","BCM957504","b226:28ff:fe3c:1a00","bnxt_en","0000:81:00.0",1,8,16,true]' ]
}

@test "hand-built tree: no flags and no carrier file: admin_up and carrier null, nothing to report" {
	run --separate-stderr "$RDMACTL" --root "$root" -j port
	assert_success
	[ "$(echo "$output" | jq -c '.ports[0] | [.admin_up, .carrier, .operstate]')" = '[null,null,"up"]' ] || fail "$output"
	[ -z "$stderr" ]
	echo 0x1003 >"$root/sys/class/net/enp129s0f0np0/flags"
	echo 0 >"$root/sys/class/net/enp129s0f0np0/carrier"
	run --separate-stderr "$RDMACTL" --root "$root" -j port
	[ "$(echo "$output" | jq -c '.ports[0] | [.admin_up, .carrier]')" = '[true,false]' ] || fail "$output"
}

@test "hand-built tree: port gids decodes every used entry and skips the rest" {
	run --separate-stderr "$RDMACTL" --root "$root" -j port gids
	assert_success
	[ "$(echo "$output" | jq -c '[.gids[] | [.index, .type, .ip, .netdev, .recommended]]')" = \
	  '[[0,"RoCE v1","fe80::b226:28ff:fe3c:1a00","enp129s0f0np0",false],[1,"RoCE v2","fe80::b226:28ff:fe3c:1a00","enp129s0f0np0",false],[9,"RoCE v2","10.10.10.5","enp129s0f0np0",true],[11,"RoCE v2","fd00::5","enp129s0f0np0",true]]' ]
}

@test "hand-built tree: counters keep the kernel's names and values, skip N/A and lifespan, order RoCE first" {
	run --separate-stderr "$RDMACTL" --root "$root" -j port stats
	assert_success
	[ "$(echo "$output" | jq -c "$JQ_CMAP"'(.stats[0] | cmap).ib')" = '{"port_xmit_data":1234,"symbol_error":77}' ]
	[ "$(echo "$output" | jq -c "$JQ_CMAP"'(.stats[0] | cmap).hw | keys_unsorted')" = '["out_of_sequence","rx_atomic_requests"]' ]
}

@test "hand-built tree: MTU changes are seen as the kernel would derive them" {
	for pair in 1500:1024 4200:4096 9000:4096 4191:2048 1119:512; do
		echo "${pair%%:*}" >"$root/sys/class/net/enp129s0f0np0/mtu"
		[ "$("$RDMACTL" --root "$root" -j port | jq .ports[0].active_mtu_bytes)" = "${pair##*:}" ]
	done
}
