#!/usr/bin/env bats
# shellcheck disable=SC2016 # the in_netns scripts expand in the namespace's shell
# The collection's playbooks and modules on this machine: on fixture hosts
# (--root; check mode, as writes are refused there) and against the dcbnl NIC
# double in a private network namespace. tests/lab/80-ansible.bats runs them
# against the lab VMs.
load ansible_helper

setup() {
	need_ansible
	ansible_env
}

@test "facts on a fixture host: ports, GIDs, DCB, bonds and diag's summary" {
	mod facts cx6dx "{\"root\": \"$HOSTS/cx6dx\"}"
	[ "$(res cx6dx '.ansible_facts.rdmactl | [.rdma_netdevs, .ipv4, (.ports | length), (.gids | length > 0), (.dcb | map(.netdev)), .no_dcb, .bonds, .errors, (.diag.summary | keys)]')" = \
	  '[["ens1f0np0","ens1f1np1"],["192.168.10.11","192.168.100.11","192.168.20.11"],2,true,["ens1f0np0","ens1f1np1"],[],[],{},["fail","info","warn"]]' ] ||
		fail "$(res cx6dx .ansible_facts.rdmactl)"
	mod facts broken "{\"root\": \"$HOSTS/lossless-broken\", \"gather\": [\"diag\"]}"
	[ "$(res broken '.ansible_facts.rdmactl.diag | [.summary.fail, (.findings | map(select(.severity == "fail")) | length), (.findings[0] | keys)]')" = \
	  '[2,2,["device","id","netdev","port","severity","title"]]' ] || fail "$(res broken .ansible_facts.rdmactl.diag)"
	mod facts lag "{\"root\": \"$HOSTS/cx6dx-lag\", \"gather\": [\"bonds\"]}"
	[ "$(res lag '.ansible_facts.rdmactl | [(.bonds | length), .bonds[0].bond, (keys | sort)]')" = '[1,"bond0",["bonds","errors"]]' ]
}

@test "bond in check mode on fixture hosts: the netplan schema converges or plans a create" {
	local a='{"name": "bond0", "interfaces": ["ens1f0np0", "ens1f1np1"], "parameters": {"mode": "802.3ad", "mii-monitor-interval": "100", "lacp-rate": "fast", "transmit-hash-policy": "layer3+4"}'
	mod bond same "$a, \"root\": \"$HOSTS/cx6dx-lag\"}" --check --diff
	[ "$(res same '[.failed, .changed, .dry_run]')" = '[false,false,true]' ] || fail "$(res same .)"
	mod bond new "$a, \"root\": \"$HOSTS/cx6dx\"}" --check
	[ "$(res new '[.failed, .changed, .dry_run, .cmd[-4:]]')" = '[false,true,true,["bond","apply","-f","-"]]' ] || fail "$(res new .)"
	res new .netplan | grep -q 'mii-monitor-interval: \\"100\\"'
	mod bond bad "{\"name\": \"bond0\", \"parameters\": {\"mode\": \"802.3ad\", \"lacp-rate\": \"often\"}, \"root\": \"$HOSTS/cx6dx\"}" --check
	res bad .msg | grep -q 'lacp_rate must be one of: fast, slow' || fail "$(res bad .msg)"
}

@test "lossless.yml in check mode on a fixture: would change, then fails the host on diag's failures" {
	run play "$COLL/playbooks/lossless.yml" --check -e "rdmactl_bin=$RDMACTL" -e "rdmactl_root=$HOSTS/lossless-broken"
	assert_failure 2
	assert_output --regexp 'changed: \[localhost\] => \(item=ens1f0np0\)'
	assert_output --partial '"localhost: fail qos.'
	assert_output --regexp 'localhost: diag found 2 failure\(s\), 11 warning\(s\): '
	assert_output --regexp 'localhost +: ok=[0-9]+ +changed=1 .* failed=1 '
}

@test "lossless.yml against the double: applies, reports the veth without DCB, then changes nothing" {
	need_netns
	[ -e "$DOUBLE_SO" ] || fail "dcb double not built (make -f tests/dcb-double/double.mk)"
	run in_netns '
		export LD_PRELOAD=$DOUBLE_SO
		pb() { play "$1" -e "rdmactl_bin=$RDMACTL" -e "{\"lossless_netdevs\": [\"veth0\", \"veth1\"]}"; }
		pb '"$COLL"'/playbooks/lossless.yml
		echo "=== second run"
		pb '"$COLL"'/playbooks/lossless.yml'
	assert_success
	first=${output%%=== second run*} second=${output#*=== second run}
	[[ $first =~ changed:\ \[localhost\]\ =\>\ \(item=veth0\) ]] || fail "$first"
	[[ $first == *'"msg": "localhost: no DCB on veth1: its driver implements no dcbnl operations'* ]] || fail "$first"
	[[ $first == *'localhost: no RDMA ports (rdmactl: port: no RDMA devices found)'* ]] || fail "$first"
	[[ $second =~ localhost\ +:\ ok=[0-9]+\ +changed=0\ +unreachable=0\ +failed=0 ]] || fail "$second"
	[[ $second == *'no DCB on veth1'* ]] || fail "$second"
	[ "$(nic | jq -r .trust)" = dscp ]
}

@test "bench filters: a table per pair with the failed link's error, and the fleet's worst links" {
	run play "$PLAY/filters.yml" -e "report=$TOP/tests/ansible/bench-report.json"
	assert_success
	assert_output --partial '"cli -> srv"'
	assert_output --regexp '"  rxe0 \(eth0\) 198\.18\.1\.2  rxe0 \(eth0\) 198\.18\.1\.1 +failed +0\.002"'
	assert_output --regexp '"  rxe1 \(eth1\) 198\.18\.2\.2  rxe1 \(eth1\) 198\.18\.2\.1 +ok +0\.020"'
	assert_output --partial 'remote invalid request error (status 9) at 0.204 s'
	assert_output --regexp '"  total +0\.022"'
	assert_output --partial '"fleet: 2 pair(s), 2 link(s), 0.022 Gb/s in all"'
	assert_output --regexp '"  cli rxe0 \(eth0\) 198\.18\.1\.2 -> srv rxe0 \(eth0\) 198\.18\.1\.1  failed  0\.002 Gb/s  \(remote invalid'
	refute_output --regexp '"  cli rxe1'
	assert_output --partial '"no report: cli2 -> srv2: exit 1: cannot reach the bench server"'
}

@test "bonded hosts: facts give rdma_ports with their bond; pfc on a bond plans each member" {
	mod facts lagm "{\"root\": \"$HOSTS/lag-mistakes\", \"gather\": [\"ports\"]}"
	[ "$(res lagm '.ansible_facts.rdmactl | [.rdma_netdevs, [.rdma_ports[] | [.device, .netdev, .upper, .bond_mode]]]')" = \
	  '[["ens2f0np0","ens2f1np1","bond0"],[["mlx5_2","ens2f0np0","bond1",null],["mlx5_3","ens2f1np1","bond1",null],["mlx5_bond_0","bond0",null,"802.3ad"]]]' ] ||
		fail "$(res lagm .ansible_facts.rdmactl)"
	mod pfc lagpfc "{\"dev\": \"bond0\", \"profile\": \"roce-lossless\", \"prio\": 4, \"root\": \"$HOSTS/cx6dx-lag\"}" --check
	[ "$(res lagpfc '[.failed, .changed, .netdevs]')" = \
	  '[false,true,[{"netdev":"ens1f0np0","upper":"bond0","relation":"roce_lag","changed":true},{"netdev":"ens1f1np1","upper":"bond0","relation":"roce_lag","changed":true}]]' ] ||
		fail "$(res lagpfc .)"
}

@test "bond: a task that only changes a parameter leaves the members alone; creating one needs them" {
	mod bond slow "{\"name\": \"bond0\", \"parameters\": {\"lacp-rate\": \"slow\"}, \"root\": \"$HOSTS/cx6dx-lag\"}" --check
	[ "$(res slow '[.failed, .changed]')" = '[false,true]' ] || fail "$(res slow .)"
	jq -r .netplan "$OUT/slow.json" | grep -qx '        - "ens1f1np1"' || fail "$(res slow .netplan)"
	# The plan sets the option; no member is released (which would take the RoCE LAG down).
	[ "$(res slow '[.rdmactl.bonds[0].steps[] | select(.text | test("release"))] | length')" = 0 ] || fail "$(res slow .rdmactl)"
	mod bond none "{\"name\": \"bond7\", \"parameters\": {\"mode\": \"802.3ad\"}, \"root\": \"$HOSTS/cx6dx\"}" --check
	res none .msg | grep -q 'interfaces: needed to create bond bond7' || fail "$(res none .)"
}

@test "lossless.yml in check mode on a RoCE LAG host: bond0's member ports' planned changes" {
	run play "$COLL/playbooks/lossless.yml" --check -e "rdmactl_bin=$RDMACTL" \
		-e "rdmactl_root=$HOSTS/cx6dx-lag" -e lossless_prio=4
	assert_output --partial '"msg": "localhost: bond0: ens1f0np0 (roce_lag) would change, ens1f1np1 (roce_lag) would change"'
	refute_output --partial 'no DCB on bond0'
	assert_output --regexp 'localhost +: ok=[0-9]+ +changed=1 '
}

@test "node role: writes pfc.yaml and applies it (a dry run in check mode), sets the metrics arguments; again, nothing" {
	need_netns
	[ -e "$DOUBLE_SO" ] || fail "dcb double not built (make -f tests/dcb-double/double.mk)"
	run in_netns '
		role() { play "$PLAY/node.yml" -e "{\"v\": {\"devices\": [{\"dev\": \"veth0\", \"profile\": \"roce-lossless\", \"prio\": $1}], \"metrics_args\": \"interval 10\"}}" "${@:2}"; }
		role 4 --check
		echo "=== first"
		role 4
		echo "=== second"
		role 4
		echo "=== check, another prio"
		role 5 --check'
	assert_success
	local check=${output%%=== first*} rest=${output#*=== first}
	local first=${rest%%=== second*} second=${rest#*=== second}
	local check2=${second#*=== check, another prio}
	second=${second%%=== check*}
	# Check mode plans what the file will say, and sends nothing.
	[[ $check =~ localhost\ +:\ ok=[0-9]+\ +changed=[1-9] ]] || fail "$check"
	[[ $first =~ changed:\ \[localhost\] ]] || fail "$first"
	[[ $second =~ localhost\ +:\ ok=[0-9]+\ +changed=0\ +unreachable=0\ +failed=0 ]] || fail "$second"
	[[ $check2 =~ localhost\ +:\ ok=[0-9]+\ +changed=[1-9] ]] || fail "$check2"
	# The file is rdmactl.yaml(5), which rdmactl reads back as planned: nothing to change.
	run --separate-stderr "$RDMACTL" --root "$HOSTS/cx6dx" --dry-run -j pfc apply -f "$BATS_TEST_TMPDIR/etc/rdmactl/pfc.yaml"
	assert_failure 1 # no veth0 in cx6dx: the file was read, its device looked for
	[ "$(yq -r '.devices[0].dev, .devices[0].profile, .devices[0].prio' "$BATS_TEST_TMPDIR/etc/rdmactl/pfc.yaml" 2>/dev/null ||
		python3 -c 'import sys, yaml; d = yaml.safe_load(open(sys.argv[1]))["devices"][0]; print(d["dev"]); print(d["profile"]); print(d["prio"])' "$BATS_TEST_TMPDIR/etc/rdmactl/pfc.yaml")" = \
	  "$(printf 'veth0\nroce-lossless\n4')" ]
	grep -qx 'RDMACTL_METRICS_ARGS="interval 10"' "$BATS_TEST_TMPDIR/etc/default/rdmactl"
	# The profile on priority 4 reached the double; the check run for 5 left it there.
	[ "$(nic | jq -c '[.trust, .pfc.pfc_en]')" = '["dscp",16]' ]
}
