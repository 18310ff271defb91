#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# The dcbnl double (libdcbdouble.so) against iproute2's unmodified dcb, and
# raw requests through dcb-double-probe for what dcb cannot send.
bats_require_minimum_version 1.5.0
load /usr/lib/bats/bats-support/load.bash
load /usr/lib/bats/bats-assert/load.bash

TOP=$(cd "$BATS_TEST_DIRNAME/../.." && pwd)
DD=$TOP/build/dcb-double
SO=$DD/libdcbdouble.so
MKREQ=$BATS_TEST_DIRNAME/mkreq.py
# the system interpreter: a pyenv shim in PATH costs most of a second a call
PY=$(command -v /usr/bin/python3 || command -v python3)

setup_file() {
	# Incremental: a no-op when the top Makefile already built it.
	make -s -C "$TOP" -f tests/dcb-double/double.mk >&2
}

setup() {
	command -v dcb >/dev/null || skip "iproute2's dcb is not installed"
	export DCB_DOUBLE_STATE=$BATS_TEST_TMPDIR/state
	export DCB_DOUBLE_LOG=$BATS_TEST_TMPDIR/log
	export DCB_DOUBLE_DEVS=eth9
	unset DCB_DOUBLE_FAIL DCB_DOUBLE_KERNEL
}

# Run a command with the double preloaded.
pre() { LD_PRELOAD=$SO "$@"; }
ctl() { "$DD/dcb-double-ctl" "$@"; }
# One field of the simulated eth9, as compact JSON.
st() { ctl show eth9 | jq -c "$1"; }
probe() { pre "$DD/dcb-double-probe" "$@"; }
req() { "$PY" "$MKREQ" "$@"; }
need_root() { [ "$(id -u)" -eq 0 ] || skip "SETs need CAP_NET_ADMIN"; }

# ---- what dcb shows for a NIC fresh from boot --------------------------------

@test "pfc show: mlx5 boot defaults (cap 8, cable length 7 as delay, all off)" {
	run -0 pre dcb pfc show dev eth9
	assert_line --index 0 "pfc-cap 8 macsec-bypass off delay 7 "
	assert_line --index 1 "prio-pfc 0:off 1:off 2:off 3:off 4:off 5:off 6:off 7:off "
}

@test "ets show: mlx5e_ets_init() defaults (vendor TSA, 100%, prio 0 on TC1)" {
	run -0 pre dcb ets show dev eth9 tc-tsa tc-bw prio-tc
	assert_line "tc-bw 0:100 1:100 2:100 3:100 4:100 5:100 6:100 7:100 "
	assert_line "tc-tsa 0:vendor 1:vendor 2:vendor 3:vendor 4:vendor 5:vendor 6:vendor 7:vendor "
	assert_line "prio-tc 0:1 1:0 2:2 3:3 4:4 5:5 6:6 7:7 "
}

@test "buffer, maxrate and dcbx show: defaults" {
	run -0 pre dcb buffer show dev eth9
	assert_line "prio-buffer 0:0 1:0 2:0 3:0 4:0 5:0 6:0 7:0 "
	assert_line "buffer-size 0:262016b 1:0b 2:0b 3:0b 4:0b 5:0b 6:0b 7:0b "
	assert_line "total-size 262016b "
	run -0 pre dcb maxrate show dev eth9
	assert_output "tc-maxrate 0:0bit 1:0bit 2:0bit 3:0bit 4:0bit 5:0bit 6:0bit 7:0bit "
	run -0 pre dcb dcbx show dev eth9
	assert_output "host cee ieee "
}

@test "dcb -j pfc show is one JSON object" {
	run -0 pre dcb -j -s pfc show dev eth9
	[ "$(jq -c '[.pfc_cap, .delay, (.prio_pfc | length), (.requests | add)]' <<<"$output")" = "[8,7,8,0]" ]
}

@test "the state file is created on first use and a second process sees it" {
	[ ! -e "$DCB_DOUBLE_STATE" ]
	run -0 pre dcb pfc show dev eth9
	[ -s "$DCB_DOUBLE_STATE" ]
	grep -qx "dev eth9" "$DCB_DOUBLE_STATE"
	[ "$(st .trust)" = '"pcp"' ]
}

# ---- PFC -------------------------------------------------------------------------

@test "pfc set prio 3 on: show reflects it; delay 0 keeps the cable length" {
	need_root
	run -0 pre dcb pfc set dev eth9 prio-pfc all:off 3:on delay 0
	run -0 pre dcb pfc show dev eth9
	assert_line --index 0 "pfc-cap 8 macsec-bypass off delay 7 "
	assert_line --index 1 "prio-pfc 0:off 1:off 2:off 3:on 4:off 5:off 6:off 7:off "
	[ "$(st .pfc.pfc_en)" = 8 ]
}

@test "pfc -s: frame counters only on the priority with PFC on" {
	need_root
	run -0 pre dcb pfc set dev eth9 prio-pfc 3:on
	run -0 pre dcb -s pfc show dev eth9
	assert_line "requests 0:0 1:0 2:0 3:1234 4:0 5:0 6:0 7:0 "
	assert_line "indications 0:0 1:0 2:0 3:987 4:0 5:0 6:0 7:0 "
	run -0 ctl counters eth9 3 5000 4000
	run -0 pre dcb -s pfc show dev eth9
	assert_line "requests 0:0 1:0 2:0 3:5000 4:0 5:0 6:0 7:0 "
}

@test "pfc delay 1..999 is stored as the cable length" {
	need_root
	run -0 pre dcb pfc set dev eth9 delay 30
	[ "$(st .pfc.delay)" = 30 ]
	run -0 pre dcb pfc set dev eth9 delay 1000
	[ "$(st .pfc.delay)" = 30 ]
}

# ---- ETS -------------------------------------------------------------------------

@test "ets set the RoCE profile; show reads back what mlx5 reports" {
	need_root
	run -0 pre dcb ets set dev eth9 prio-tc 3:3 6:6 tc-tsa all:strict 0:ets 3:ets tc-bw all:0 0:50 3:50
	run -0 pre dcb ets show dev eth9 tc-tsa tc-bw prio-tc
	assert_line "tc-tsa 0:ets 1:strict 2:strict 3:ets 4:strict 5:strict 6:strict 7:strict "
	# firmware keeps 100% on strict TCs and mlx5e_dcbnl_ieee_getets() reports it
	assert_line "tc-bw 0:50 1:100 2:100 3:50 4:100 5:100 6:100 7:100 "
	assert_line "prio-tc 0:1 1:0 2:2 3:3 4:4 5:5 6:6 7:7 "
	[ "$(st .ets.fw_tc_group)" = "[0,1,2,0,3,4,5,6]" ]
}

@test "ets: the 100% mlx5 reports on non-ETS TCs makes dcb's read-modify-write refuse" {
	need_root
	# dcb's own check (the sum of all tc-bw must be 100), before anything is sent
	run -1 pre dcb ets set dev eth9 prio-tc 2:3
	assert_output --partial "sum to 800%"
	run -1 grep -q "^SET" "$DCB_DOUBLE_LOG"
}

@test "ets: the kernel refuses bandwidth on a non-ETS TC (current kernels only)" {
	need_root
	r=$(req set eth9 --ets 0,2,2,2,2,2,2,2/10,20,20,20,10,10,10,10/0,0,0,0,0,0,0,0)
	run -0 probe send "$r"
	assert_line --index 0 --regexp '^MSG .*05000d00ea000000$'
	DCB_DOUBLE_KERNEL=6.1 run -0 probe send "$r"
	assert_line --index 0 --regexp '^MSG .*05000d0000000000$'
}

@test "ets: mlx5 validation (bw sum, prio_tc, CBS) answers -EINVAL in the status byte" {
	need_root
	run -0 probe send "$(req set eth9 --ets 2,2,0,0,0,0,0,0/50,40,0,0,0,0,0,0/0,0,0,0,0,0,0,0)"
	assert_line --index 0 --regexp 'ea000000$'
	run -0 probe send "$(req set eth9 --ets 2,0,0,0,0,0,0,0/100,0,0,0,0,0,0,0/0,0,0,8,0,0,0,0)"
	assert_line --index 0 --regexp 'ea000000$'
	run -0 probe send "$(req set eth9 --ets 1,2,0,0,0,0,0,0/0,100,0,0,0,0,0,0/0,0,0,0,0,0,0,0)"
	assert_line --index 0 --regexp 'ea000000$'
	[ "$(st .ets.tc_tsa[0])" = '"vendor"' ]
}

@test "ets: zero-bandwidth ETS TCs share 100% in firmware and read back as 0%" {
	need_root
	run -0 probe send "$(req set eth9 --ets 2,2,2,0,0,0,0,0/60,40,0,0,0,0,0,0/0,1,2,0,0,0,0,0)"
	assert_line --index 0 --regexp '0000000000$'
	[ "$(st .ets.fw_tc_bw)" = "[60,40,100,100,100,100,100,100]" ]
	[ "$(st .ets.fw_tc_group)" = "[1,1,0,2,3,4,5,6]" ]
	[ "$(st .ets.tc_bw)" = "[60,40,0,100,100,100,100,100]" ]
	[ "$(st .ets.tc_tsa[2])" = '"ets"' ]
}

# ---- APP table and trust ---------------------------------------------------------

@test "app add dscp 26:3 48:6 switches trust to dscp; del both goes back to pcp" {
	need_root
	[ "$(st .trust)" = '"pcp"' ]
	run -0 pre dcb app add dev eth9 dscp-prio 26:3 48:6
	[ "$(st .trust)" = '"dscp"' ]
	[ "$(st '[.app[] | [.protocol, .priority]]')" = "[[48,6],[26,3]]" ]
	run -0 pre dcb -N app show dev eth9 dscp-prio
	assert_output "dscp-prio 26:3 48:6 "
	run -0 pre dcb app del dev eth9 dscp-prio 26:3
	[ "$(st .trust)" = '"dscp"' ]
	run -0 pre dcb app del dev eth9 dscp-prio 48:6
	[ "$(st .trust)" = '"pcp"' ]
	[ "$(st '.app | length')" = 0 ]
	# mlx5e_dcbnl_ieee_delapp() resets the map to 0, not to the boot default
	[ "$(st '[.dscp2prio[26], .dscp2prio[48], .dscp2prio[27]]')" = "[0,0,3]" ]
}

@test "app: adding an existing entry succeeds and changes nothing" {
	need_root
	run -0 probe send "$(req set eth9 --app 5:26:3)"
	assert_line --index 0 --regexp '0000000000$'
	run -0 probe send "$(req set eth9 --app 5:26:3)"
	assert_line --index 0 --regexp '0000000000$'
	[ "$(st '.app | length')" = 1 ]
}

@test "app: a new priority for a DSCP replaces the old entry" {
	need_root
	run -0 probe send "$(req set eth9 --app 5:26:3)"
	run -0 probe send "$(req set eth9 --app 5:26:4)"
	[ "$(st '[.app[] | [.protocol, .priority]]')" = "[[26,4]]" ]
}

@test "app: mlx5 refuses other selectors and DSCP >= 64 with -EINVAL" {
	need_root
	run -0 probe send "$(req set eth9 --app 1:0x8906:3)"
	assert_line --index 0 --regexp 'ea000000$'
	run -0 probe send "$(req set eth9 --app 5:64:3)"
	assert_line --index 0 --regexp 'ea000000$'
	run -0 probe send "$(req set eth9 --app 255:3:3)"
	assert_line --index 0 --regexp 'ea000000$'
	[ "$(st .trust)" = '"pcp"' ]
}

@test "app: entries apply in turn; the first bad one stops the rest" {
	need_root
	run -0 probe send "$(req set eth9 --app 5:10:1 --app 1:0x8906:3 --app 5:12:1)"
	assert_line --index 0 --regexp 'ea000000$'
	[ "$(st '[.app[].protocol]')" = "[10]" ]
}

@test "app del of an entry that is not there is -ENOENT" {
	need_root
	run -0 probe send "$(req del eth9 --app 5:26:3)"
	assert_line --index 0 --regexp 'fe000000$'
}

@test "trust-dscp boot: 64 entries dscp -> dscp>>3, shown by dcb" {
	run -0 ctl trust-dscp eth9
	run -0 pre dcb -N app show dev eth9 dscp-prio
	assert_output --partial "26:3 27:3"
	[ "$(st '.app | length')" = 64 ]
}

@test "parallel dcb processes do not lose updates (the state file is locked)" {
	need_root
	for i in $(seq 0 19); do
		pre dcb app add dev eth9 dscp-prio "$i:1" &
	done
	wait
	[ "$(st '.app | length')" = 20 ]
}

# ---- buffer, maxrate, dcbx -------------------------------------------------------

@test "buffer set within the port buffer; over it or a 0-byte lossless buffer is -EINVAL" {
	need_root
	run -0 pre dcb buffer set dev eth9 prio-buffer 3:1 buffer-size 0:131072 1:130944
	run -0 pre dcb buffer show dev eth9
	assert_line "prio-buffer 0:0 1:0 2:0 3:1 4:0 5:0 6:0 7:0 "
	assert_line "buffer-size 0:128Kb 1:130944b 2:0b 3:0b 4:0b 5:0b 6:0b 7:0b "
	run -0 probe send "$(req set eth9 --buffer 0,0,0,1,0,0,0,0/131072,131072,0,0,0,0,0,0)"
	assert_line --index 0 --regexp 'ea000000$'
	run -0 pre dcb pfc set dev eth9 prio-pfc 3:on
	run -0 probe send "$(req set eth9 --buffer 0,0,0,1,0,0,0,0/131072,0,0,0,0,0,0,0)"
	assert_line --index 0 --regexp 'ea000000$'
	run -0 probe send "$(req set eth9 --buffer 0,0,0,9,0,0,0,0/131072,130944,0,0,0,0,0,0)"
	assert_line --index 0 --regexp 'ea000000$'
	[ "$(st .buffer.buffer_size)" = "[131072,130944,0,0,0,0,0,0]" ]
}

@test "maxrate: mlx5 units (100 Mbit/s up to 25.5G, then 1 Gbit/s), 0 is unlimited" {
	need_root
	run -0 probe send "$(req set eth9 --maxrate 0,25000000,30500000,150,255000000,0,0,0)"
	assert_line --index 0 --regexp '0000000000$'
	[ "$(st .maxrate.tc_maxrate_kbps)" = "[0,25000000,30000000,100000,255000000,0,0,0]" ]
	run -0 probe send "$(req set eth9 --maxrate 0,0,0,0,0,0,0,256000000)"
	assert_line --index 0 --regexp 'ea000000$'
}

@test "dcbx set host ieee; lld-managed is refused (status 1)" {
	need_root
	run -0 pre dcb dcbx set dev eth9 host ieee
	run -0 pre dcb dcbx show dev eth9
	assert_output "host ieee "
	run -1 pre dcb dcbx set dev eth9 lld-managed
	run -0 pre dcb dcbx show dev eth9
	assert_output "host ieee "
}

# ---- devices the double does not own -----------------------------------------------

@test "lo, not in DCB_DOUBLE_DEVS, gets the real kernel's answer" {
	run -1 dcb pfc show dev lo
	assert_output "Attribute read: Operation not supported"
	kernel=$output
	run -1 pre dcb pfc show dev lo
	assert_output "$kernel"
	# nothing was answered by the double, so nothing was logged
	[ ! -e "$DCB_DOUBLE_LOG" ]
}

@test "a name that is no netdev and not in DCB_DOUBLE_DEVS: the kernel's ENODEV" {
	run -1 pre dcb pfc show dev nosuchdev9
	assert_output "Attribute read: No such device"
}

@test "rtnetlink still works under the preload" {
	run -0 ip -j link show lo
	plain=$output
	run -0 pre ip -j link show lo
	assert_output "$plain"
	run -0 pre ip -o addr show dev lo
	assert_output --partial "inet 127.0.0.1/8"
}

@test "several devices keep separate state" {
	need_root
	export DCB_DOUBLE_DEVS=eth9,eth10
	run -0 pre dcb pfc set dev eth10 prio-pfc 4:on
	run -0 pre dcb pfc show dev eth9
	assert_line --index 1 --partial "4:off"
	[ "$(ctl show eth10 | jq .pfc.pfc_en)" = 16 ]
}

# ---- fault injection ---------------------------------------------------------------

@test "fault dcbx: dcb dcbx set fails with EIO and the mode stays" {
	need_root
	DCB_DOUBLE_FAIL=dcbx run -1 pre dcb dcbx set dev eth9 host ieee
	assert_output "Attribute write: Input/output error"
	[ "$(st .dcbx.cap)" = 13 ]
}

@test "fault pfc: dcb pfc set leaves the state alone (and dcb 6.1 misses the status)" {
	need_root
	DCB_DOUBLE_FAIL=pfc run pre dcb pfc set dev eth9 prio-pfc 3:on
	# dcb 6.1 stops reading after its GET's reply, so the GET's ACK is what it
	# reads as the SET's answer: it exits 0, as it would on a real kernel.
	[ "$(st .pfc.pfc_en)" = 0 ]
	run -0 grep -c "^SET eth9 " "$DCB_DOUBLE_LOG"
	assert_output 1
	[ "$(ctl show | jq -c .fault)" = '{"spec":"pfc","seen":1}' ]
}

@test "fault pfc: -EIO in the status byte; ETS earlier in the same SET stays applied" {
	need_root
	DCB_DOUBLE_FAIL=pfc run -0 probe send "$(req set eth9 --ets 2,0,0,2,0,0,0,0/50,0,0,50,0,0,0,0/0,0,0,3,0,0,6,0 --pfc 8,0)"
	assert_line --index 0 --regexp '^MSG 1c0000004f00050000000000000000000014000005000d00fb000000$'
	assert_line --index 1 --regexp '^ERR 0 '
	[ "$(st '.ets.tc_tsa[0:4]')" = '["ets","strict","strict","ets"]' ]
	[ "$(st .pfc.pfc_en)" = 0 ]
}

@test "fault KIND:N fails only the Nth SET of that kind, counted across processes" {
	need_root
	export DCB_DOUBLE_FAIL=app-add:2
	run -0 probe send "$(req set eth9 --app 5:26:3)"
	assert_line --index 0 --regexp '0000000000$'
	run -0 probe send "$(req set eth9 --pfc 8,0)"
	run -0 probe send "$(req set eth9 --app 5:48:6)"
	assert_line --index 0 --regexp 'fb000000$'
	run -0 probe send "$(req set eth9 --app 5:48:6)"
	assert_line --index 0 --regexp '0000000000$'
	[ "$(st '[.app[].protocol]')" = "[48,26]" ]
}

@test "fault app-del, maxrate, buffer, ets: each fails its own kind" {
	need_root
	run -0 probe send "$(req set eth9 --app 5:26:3)"
	DCB_DOUBLE_FAIL=app-del run -0 probe send "$(req del eth9 --app 5:26:3)"
	assert_line --index 0 --regexp 'fb000000$'
	[ "$(st .trust)" = '"dscp"' ]
	DCB_DOUBLE_FAIL=maxrate run -0 probe send "$(req set eth9 --maxrate 0,0,0,0,0,0,0,1000000)"
	assert_line --index 0 --regexp 'fb000000$'
	DCB_DOUBLE_FAIL=buffer run -0 probe send "$(req set eth9 --buffer 0,0,0,0,0,0,0,0/1280,0,0,0,0,0,0,0)"
	assert_line --index 0 --regexp 'fb000000$'
	DCB_DOUBLE_FAIL=ets run -0 probe send "$(req set eth9 --ets 2,0,0,0,0,0,0,0/100,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0)"
	assert_line --index 0 --regexp 'fb000000$'
	[ "$(st '[.maxrate.tc_maxrate_kbps[7], .buffer.buffer_size[0], .ets.tc_tsa[0]]')" = '[0,262016,"vendor"]' ]
}

# ---- the request log -----------------------------------------------------------------

@test "log: one GET/SET line per answered request, seq and pid zeroed" {
	need_root
	run -0 pre dcb pfc set dev eth9 prio-pfc 3:on
	run -0 cat "$DCB_DOUBLE_LOG"
	assert_line --index 0 --regexp '^GET eth9 [0-9a-f]+$'
	assert_line --index 1 --regexp '^SET eth9 [0-9a-f]+$'
	[ "${#lines[@]}" -eq 2 ]
	for l in "${lines[@]}"; do
		hex=${l##* }
		[ "${hex:16:16}" = 0000000000000000 ]
		# nlmsg_len matches the logged bytes
		len=$((16#${hex:6:2}${hex:4:2}${hex:2:2}${hex:0:2}))
		[ "$len" -eq $((${#hex} / 2)) ]
	done
}

@test "log: the same change sent twice logs the same bytes; a show sends no SET" {
	need_root
	# dcb writes back the PFC counters it read: keep them fixed
	run -0 ctl counters eth9 3 0 0
	run -0 pre dcb pfc set dev eth9 prio-pfc 3:on
	sleep 1 # dcb's seq is time(NULL): make it differ
	run -0 pre dcb pfc set dev eth9 prio-pfc 3:on
	run -0 pre dcb pfc show dev eth9
	run -0 grep "^SET" "$DCB_DOUBLE_LOG"
	[ "${#lines[@]}" -eq 2 ]
	[ "${lines[0]}" = "${lines[1]}" ]
	run -0 tail -1 "$DCB_DOUBLE_LOG"
	assert_output --regexp '^GET '
}

@test "log: dcb's SET bytes equal an independently built request" {
	need_root
	run -0 pre dcb pfc set dev eth9 prio-pfc 3:on
	logged=$(grep "^SET" "$DCB_DOUBLE_LOG" | cut -d' ' -f3)
	built=$(req set eth9 --pfc 8,7,8 --seq 0)
	[ "$logged" = "$built" ]
}

# ---- netlink details --------------------------------------------------------------------

@test "replies look like the kernel's: flags and seq copied, ack after the reply" {
	run -0 probe send "$(req get eth9 --seq 77)"
	# RTM_GETDCB reply, NLM_F_REQUEST|NLM_F_ACK copied, then an NLM_F_CAPPED ack
	assert_line --index 0 --regexp '^MSG [0-9a-f]{8}4e000500'
	assert_line --index 1 "ERR 0 2400000002000001000000000000000000000000200000004e0005004d00000000000000"
	run -0 probe send "$(req get eth9 --flags 0x1)"
	[ "${#lines[@]}" -eq 2 ]
	assert_line --index 1 "TIMEOUT"
}

@test "GET layout: IFNAME, IEEE{ETS,MAXRATE,PFC,BUFFER,APP,REWR}, DCBX" {
	run -0 probe send "$(req get eth9)"
	hex=${lines[0]#MSG }
	run -0 "$PY" - "$hex" <<-'EOF'
		import struct, sys
		b = bytes.fromhex(sys.argv[1])
		def walk(buf):
		    out, off = [], 0
		    while off + 4 <= len(buf):
		        n, t = struct.unpack_from("<HH", buf, off)
		        out.append((t, n, buf[off + 4:off + n]))
		        off += (n + 3) & ~3
		    return out
		top = walk(b[20:])
		print([(t, n) for t, n, _ in top])
		print([(t, n) for t, n, _ in walk(top[1][2])])
	EOF
	assert_line --index 0 "[(1, 9), (13, 332), (14, 5)]"
	assert_line --index 1 "[(1, 63), (7, 68), (2, 140), (10, 48), (3, 4), (32780, 4)]"
	DCB_DOUBLE_KERNEL=6.1 run -0 probe send "$(req get eth9)"
	assert_line --index 0 --regexp '^MSG 70010000'
}

@test "errors follow NETLINK_CAP_ACK: whole request without it, header only with it" {
	run -0 probe send "$(req get eth9 --cmd-num 26)"
	assert_output "ERR -95 34000000020000000000000000000000a1ffffff200000004e0005000100000000000000001a0000090001006574683900000000"
	run -0 probe -c send "$(req get eth9 --cmd-num 26)"
	assert_output "ERR -95 24000000020000010000000000000000a1ffffff200000004e0005000100000000000000"
}

@test "MSG_PEEK|MSG_TRUNC reports the full length and leaves the datagram queued" {
	run -0 probe -p send "$(req get eth9)"
	assert_line --index 0 "PEEK 372"
	assert_line --index 1 --regexp '^MSG 74010000'
	assert_line --index 2 "PEEK 36"
}

@test "without CAP_NET_ADMIN a SET is the kernel's EPERM; a GET is still answered" {
	[ "$(id -u)" -eq 0 ] || skip "needs root to drop a capability"
	run -0 setpriv --bounding-set=-net_admin --inh-caps=-net_admin env LD_PRELOAD="$SO" \
		"$DD/dcb-double-probe" send "$(req set eth9 --pfc 8,0)"
	assert_output --regexp '^ERR -1 '
	run -0 setpriv --bounding-set=-net_admin --inh-caps=-net_admin env LD_PRELOAD="$SO" \
		"$DD/dcb-double-probe" send "$(req get eth9)"
	assert_line --index 0 --regexp '^MSG '
}

# ---- malformed requests --------------------------------------------------------------------

@test "malformed: no IEEE nest -EINVAL, short ETS -ERANGE, short APP entry -ERANGE" {
	need_root
	run -0 probe -c send "$(req set eth9 --no-ieee)"
	assert_output --regexp '^ERR -22 '
	run -0 probe -c send "$(req set eth9 --ieee-raw 1:00112233)"
	assert_output --regexp '^ERR -34 '
	run -0 probe -c send "$(req set eth9 --ieee-raw 3:0500010000)"
	assert_line --index 0 --regexp 'de000000$'
	run -0 probe -c send "$(req sdcbx eth9)"
	assert_output --regexp '^ERR -22 '
}

@test "malformed before the device lookup: the same answer as the kernel's" {
	for r in "$(req get eth9 --ifname-raw 65746839)" \
		"$(req get eth9 --top-raw 14:)" \
		"$(req get eth9 --top-raw 8:00)" \
		"$(req get eth9 --cmd-num 0)" \
		"$(req get eth9 --cmd-num 99)" \
		"$(req get eth9 --flags 0x305)" \
		"$(req get eth9 --len 17 --cut 17)" \
		"$(req get eth9 --len 18 --cut 18)"; do
		kernel=$("$DD/dcb-double-probe" -t 300 send "$r")
		run -0 probe -t 300 send "$r"
		assert_output "$kernel"
	done
	[ ! -e "$DCB_DOUBLE_LOG" ]
}

@test "fuzz: 3000 mutated requests, every answer well formed" {
	need_root
	if unshare -n true 2>/dev/null; then
		run -0 unshare -n env LD_PRELOAD="$SO" "$DD/dcb-double-probe" fuzz 3000 7 eth9
	else
		run -0 pre "$DD/dcb-double-probe" fuzz 3000 7 eth9
	fi
	assert_output "fuzz: 3000 requests, 3000 answered"
}

@test "valgrind: the shim leaks nothing and reads nothing uninitialised" {
	command -v valgrind >/dev/null || skip "valgrind is not installed"
	need_root
	run -0 env LD_PRELOAD="$SO" valgrind -q --error-exitcode=99 --leak-check=full \
		--errors-for-leak-kinds=definite,indirect "$DD/dcb-double-probe" fuzz 300 3 eth9
	run -0 env LD_PRELOAD="$SO" valgrind -q --error-exitcode=99 --leak-check=full \
		--errors-for-leak-kinds=definite,indirect "$DD/dcb-double-probe" -p send "$(req get eth9)"
}
