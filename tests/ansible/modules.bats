#!/usr/bin/env bats
# shellcheck disable=SC2016 # the in_netns scripts expand in the namespace's shell
# The collection's modules against the dcbnl NIC double and a veth pair in a
# private network namespace, run by ansible-playbook (connection local).
load ansible_helper

setup() {
	need_ansible
	need_netns
	[ -e "$DOUBLE_SO" ] || fail "dcb double not built (make -f tests/dcb-double/double.mk)"
	ansible_env
}

@test "pfc: the profile applies, the second run changes nothing and sends no SET" {
	run in_netns '
		mod pfc first "{\"dev\": \"veth0\", \"profile\": \"roce-lossless\"}" >/dev/null
		: >"$DCB_DOUBLE_LOG"
		mod pfc second "{\"dev\": \"veth0\", \"profile\": \"roce-lossless\"}"'
	assert_success
	[ "$(res first '[.failed, .changed, .dry_run, .dcb_supported, .rdmactl.changed]')" = '[false,true,false,true,true]' ]
	[ "$(res second '[.failed, .changed, .rdmactl.changed]')" = '[false,false,false]' ]
	[ "$(sets)" = 0 ]
	[ "$(nic | jq -c '[.trust, .pfc.prio_pfc]')" = '["dscp",[false,false,false,true,false,false,false,false]]' ] ||
		fail "$(nic)"
}

@test "pfc: check mode runs --dry-run: would change, changes nothing, sends nothing" {
	run in_netns '
		mod pfc check "{\"dev\": \"veth0\", \"profile\": \"roce-lossless\", \"prio\": 4}" --check'
	assert_success
	[ "$(res check '[.failed, .changed, .dry_run, (.cmd | index("--dry-run") > 0)]')" = '[false,true,true,true]' ]
	[ "$(sets)" = 0 ]
	[ "$(nic | jq -r .trust)" = pcp ]
}

@test "pfc: diff mode shows rdmactl's before and after" {
	run in_netns '
		mod pfc diff "{\"dev\": \"veth0\", \"profile\": \"roce-lossless\"}" --check --diff'
	assert_success
	assert_line -- '--- before'
	assert_line -- '+++ after'
	assert_output --regexp '\-.*"pcp"'
	assert_output --regexp '\+.*"dscp"'
	[ "$(res diff '[(.diff.before | keys), .diff.before.veth0.trust.value, .diff.after.veth0.trust.value]')" = \
	  '[["veth0"],"pcp","dscp"]' ] || fail "$(res diff .diff)"
}

@test "pfc: explicit settings become pfc set, read back from the double" {
	run in_netns '
		mod pfc set "{\"dev\": \"veth0\", \"prio_pfc\": [\"all:off\", \"3:on\", \"5:on\"], \"delay\": 32, \"dscp_prio\": [\"26:3\"]}"'
	assert_success
	[ "$(res set '[.failed, .changed, .cmd[2:]]')" = \
	  '[false,true,["pfc","set","dev","veth0","prio-pfc","all:off","3:on","5:on","delay","32","dscp-prio","26:3"]]' ] ||
		fail "$(res set .)"
	[ "$(nic | jq -c '[.pfc.prio_pfc[3], .pfc.prio_pfc[5], .pfc.delay, .trust]')" = '[true,true,32,"dscp"]' ] || fail "$(nic)"
}

@test "pfc: structured options (pfc_prios, dicts) become the same pfc set words; bad keys are refused; DSCP names pass" {
	# One ansible-playbook run for all ten forms (steps: in order, on the same double).
	run in_netns '
		steps pfc <<-"EOF"
			set     -     {"dev": "veth0", "pfc_prios": [5, 3], "delay": 32, "dscp_prio": {"48": 6, "26": 3}, "tc_tsa": {"all": "ets"}, "tc_bw": {"3": 50, "0": 50, "all": 0}}
			again   -     {"dev": "veth0", "prio_pfc": {"all": false, "3": true, "5": true}, "dscp_prio": "26:3,48:6"}
			badkey  -     {"dev": "veth0", "dscp_prio": {"26:3": 3}}
			name    check {"dev": "veth0", "dscp_prio": {"AF31": 3, "26": 3}}
			badprio -     {"dev": "veth0", "pfc_prios": [8]}
			both    -     {"dev": "veth0", "pfc_prios": [3], "prio_pfc": ["3:on"]}
			type    -     {"dev": "veth0", "tc_bw": 50}
			base60  -     {"dev": "veth0", "dscp_prio": [1563]}
			nullval -     {"dev": "veth0", "dscp_prio": {"26": null}}
			off     check {"dev": "veth0", "pfc_prios": []}
		EOF'
	assert_success
	[ "$(res set '[.failed, .changed, .cmd[2:]]')" = \
	  '[false,true,["pfc","set","dev","veth0","prio-pfc","all:off","3:on","5:on","delay","32","tc-tsa","all:ets","tc-bw","all:0","0:50","3:50","dscp-prio","26:3","48:6"]]' ] ||
		fail "$(res set .)"
	[ "$(nic | jq -c '[.pfc.prio_pfc[3], .pfc.prio_pfc[5], .pfc.prio_pfc[0], .pfc.delay, .trust]')" = '[true,true,false,32,"dscp"]' ] || fail "$(nic)"
	# The dict and the words say the same: nothing left to change.
	[ "$(res again '[.failed, .changed, .cmd[6:]]')" = \
	  '[false,false,["prio-pfc","all:off","3:on","5:on","dscp-prio","26:3","48:6"]]' ] || fail "$(res again .)"
	res badkey .msg | grep -qF "dscp_prio: key '26:3' is not one word without a colon" || fail "$(res badkey .msg)"
	# A DSCP name is rdmactl's to read (AF31 is 26), after the numbers.
	[ "$(res name '[.failed, .changed, .cmd[-3:]]')" = '[false,false,["dscp-prio","26:3","AF31:3"]]' ] || fail "$(res name .)"
	# Check mode is per step: rdmactl's --dry-run for name and off only.
	[ "$(jq -sc 'map(.dry_run)' "$OUT"/{set,again,name,off}.json)" = '[false,false,true,true]' ]
	res badprio .msg | grep -qF 'pfc_prios: priorities are 0-7, not [8]' || fail "$(res badprio .msg)"
	res both .msg | grep -qF 'mutually exclusive: pfc_prios|prio_pfc' || fail "$(res both .msg)"
	res type .msg | grep -qF 'tc_bw must be a list of KEY:VALUE words or a dict, not int' || fail "$(res type .msg)"
	res base60 .msg | grep -qF 'dscp_prio: 1563 is not a KEY:VALUE word; quote it' || fail "$(res base60 .msg)"
	res nullval .msg | grep -qF 'dscp_prio: the value of 26 must be one word, a number or a bool, not None' ||
		fail "$(res nullval .msg)"
	# No lossless priority at all: PFC off everywhere (would change 3 and 5).
	[ "$(res off '[.failed, .changed, .cmd[-2:]]')" = '[false,true,["prio-pfc","all:off"]]' ] || fail "$(res off .)"
}

@test "pfc: a netdev without DCB fails with rdmactl's message and error id, or is reported with no_dcb skip" {
	run in_netns '
		steps pfc <<-"EOF"
			fail - {"dev": "veth1", "profile": "roce-lossless"}
			skip - {"dev": "veth1", "profile": "roce-lossless", "no_dcb": "skip"}
		EOF'
	assert_success
	# Classified by rdmactl's error id, never its English; output and id always there.
	[ "$(res fail '[.failed, .rc, .dcb_supported, .error_id, .errno, .error_object, (.stderr | length > 0)]')" = \
	  '[true,1,false,"no-dcb",95,"veth1",true]' ] || fail "$(res fail .)"
	[ "$(res fail '.stdout | fromjson | .error.id')" = '"no-dcb"' ]
	[ "$(res fail .msg)" = "\"rdmactl: pfc: cannot read DCB of 'veth1': Operation not supported (its driver implements no dcbnl operations; virtual devices such as veth and virtio, and most VFs, have no DCB support)\"" ] ||
		fail "$(res fail .msg)"
	[ "$(res skip '[.failed, .changed, .dcb_supported, .error_id]')" = '[false,false,false,"no-dcb"]' ]
	res skip .msg | grep -q 'no dcbnl operations'
}

@test "pfc: argument_spec refuses a profile with settings, profile options alone, and bad choices" {
	run in_netns '
		steps pfc <<-"EOF"
			both   - {"dev": "veth0", "profile": "roce-lossless", "trust": "dscp"}
			alone  - {"dev": "veth0", "trust": "dscp", "prio": 3}
			choice - {"dev": "veth0", "trust": "cos"}
			range  - {"dev": "veth0", "profile": "roce-lossless", "dscp": 64}
		EOF'
	assert_success
	res both .msg | grep -q 'mutually exclusive: profile|trust'
	res alone .msg | grep -q "missing parameter(s) required by 'prio': profile" || fail "$(res alone .msg)"
	res choice .msg | grep -q 'value of trust must be one of: dscp, pcp, got: cos'
	res range .msg | grep -q 'dscp must be 0-63, not 64'
	[ "$(sets)" = "no log" ] || [ "$(sets)" = 0 ]
}

@test "port: MTU and up on a veth, then no change; check mode and diff" {
	run in_netns '
		mod port check "{\"dev\": \"veth0\", \"mtu\": 4200, \"state\": \"up\"}" --check --diff
		ip -o link show veth0
		mod port first "{\"dev\": \"veth0\", \"mtu\": 4200, \"state\": \"up\"}"
		mod port second "{\"dev\": \"veth0\", \"mtu\": 4200, \"state\": \"up\"}"
		ip -o link show veth0
		mod port nosuch "{\"dev\": \"nosuch0\", \"mtu\": 4200}"'
	assert_success
	[ "$(res check '[.changed, .dry_run, .diff.before.veth0.admin_up, .diff.after.veth0.admin_up]')" = '[true,true,false,true]' ] ||
		fail "$(res check .)"
	assert_output --regexp 'veth0@veth1: <[^>]*> mtu 1500 .*state DOWN'
	[ "$(res first '[.failed, .changed]')" = '[false,true]' ]
	[ "$(res second '[.failed, .changed]')" = '[false,false]' ]
	assert_output --regexp 'veth0@veth1: <[^>]*UP[^>]*> mtu 4200 '
	[ "$(res nosuch '[.failed, .rc, .error_id, .error_object]')" = '[true,1,"not-found","nosuch0"]' ] ||
		fail "$(res nosuch .)"
	res nosuch .msg | grep -q '^"rdmactl: port: .*nosuch0'
}

@test "netns: a module runs rdmactl in another network namespace (a path, as a container's)" {
	run in_netns '
		unshare -n sleep 300 &
		ns=$!
		trap "kill $ns 2>/dev/null" EXIT
		# $! is the child before unshare(2) has run: a veth moved into its
		# namespace then stays in ours (a CI run of 12-06).  Wait for the new one.
		for i in $(seq 100); do
			[ "$(readlink /proc/$ns/ns/net)" != "$(readlink /proc/self/ns/net)" ] && break
			sleep 0.05
		done
		ip link add veth8 type veth peer name veth9
		ip link set veth9 netns "$ns"
		mod port inner "{\"dev\": \"veth9\", \"mtu\": 4000, \"netns\": \"/proc/$ns/ns/net\"}"
		nsenter -t "$ns" -n ip -o link show veth9
		mod port outer "{\"dev\": \"veth9\", \"mtu\": 4000}"
		mod port bad "{\"dev\": \"veth9\", \"netns\": \"/nonexistent\", \"mtu\": 4000}"'
	assert_success
	[ "$(res inner '[.failed, .changed, (.cmd | index("--netns")) > 0, .cmd[-4:]]')" = \
	  '[false,true,true,["set","veth9","mtu","4000"]]' ] || fail "$(res inner .)"
	assert_output --regexp 'veth9@if[0-9]+: <[^>]*> mtu 4000 '
	[ "$(res outer '[.failed, .error_id]')" = '[true,"not-found"]' ] || fail "$(res outer .)"
	res bad .msg | grep -qF "cannot open network namespace '/nonexistent'" || fail "$(res bad .msg)"
}

@test "bond: state absent of a bond that is not there changes nothing (rdmactl's error id not-found)" {
	run in_netns '
		mod bond gone "{\"name\": \"bond9\", \"state\": \"absent\"}"'
	assert_success
	[ "$(res gone '[.failed, .changed]')" = '[false,false]' ] || fail "$(res gone .)"
	res gone .msg | grep -q "no bond 'bond9'" || fail "$(res gone .)"
}

@test "facts: a diag run that fails before its report is an error of the facts, not an empty report" {
	run in_netns '
		mod facts fd "{\"gather\": [\"diag\"], \"diag_args\": [\"nosuch0\"]}"'
	assert_success
	# diag's exit 1 is also its "failures found": the error document tells them apart.
	[ "$(res fd '.ansible_facts.rdmactl | [(.errors.diag | test("nosuch0")), .diag.findings]')" = '[true,[]]' ] ||
		fail "$(res fd .ansible_facts.rdmactl)"
}

@test "facts: DCB of the double and of a veth, and rdmactl's message for a host without RDMA" {
	run in_netns '
		mod facts f "{\"netdevs\": [\"veth0\", \"veth1\"]}"'
	assert_success
	[ "$(res f '.ansible_facts.rdmactl | [.ports, .rdma_netdevs, .errors.ports, (.dcb | map(.netdev)), .no_dcb, .dcb[0].trust.value, (.diag.summary | keys)]')" = \
	  '[[],[],"rdmactl: port: no RDMA devices found",["veth0","veth1"],["veth1"],"pcp",["fail","info","warn"]]' ] ||
		fail "$(res f .ansible_facts.rdmactl)"
}
