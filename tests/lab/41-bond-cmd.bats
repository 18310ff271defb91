#!/usr/bin/env bats
# shellcheck disable=SC2016,SC2154 # '...' expands in the VM; bats' run sets $stderr
# rdmactl bond against the real bonding driver in the VMs: create, show,
# set (a mode change included), del/add, apply a netplan file twice, a
# rollback after a member the kernel refuses, check, and delete.  The tests
# build on each other in file order; teardown_file puts the lab back.

load lab_helper

setup_file() {
	need_lab 2
	[ -z "$LAB_SKIP" ] || return 0
	"$LAB" reset >/dev/null 2>&1 || true
}

setup() {
	skip_unless_lab
	need_rdmactl
}

teardown_file() {
	[ -n "$LAB_SKIP" ] || "$LAB" reset >/dev/null 2>&1 || true
}

# jq on the JSON a command printed, failing with the document.
expect() { jq -e "$1" <<<"$output" >/dev/null || fail "not ($1): $output"; }

@test "bond create: active-backup over eth0,eth1 on a, then show -j says so" {
	run --separate-stderr on a ./rdmactl -j bond create bond0 mode active-backup \
		members eth0,eth1 miimon 100 primary eth0
	assert_success
	expect '.changed == true and .bonds[0].bond == "bond0" and .bonds[0].before == null'
	expect '[.bonds[0].steps[].op] | index("create") == 0 and (map(select(. == "enslave")) | length) == 2'
	run --separate-stderr on a 'grep -E "^(Bonding Mode|Primary Slave|Slave Interface)" /proc/net/bonding/bond0'
	assert_success
	assert_line "Bonding Mode: fault-tolerance (active-backup)"
	assert_line "Primary Slave: eth0 (primary_reselect always)"
	assert_line "Slave Interface: eth1"
	# The bond's operstate follows its carrier through the kernel's linkwatch,
	# which may put it off for up to a second (carrier true, operstate down).
	in_vm a 'wait_for 5 operstate_is bond0 up'
	run --separate-stderr on a ./rdmactl -j bond show bond0
	assert_success
	expect '.bonds | length == 1'
	expect '.bonds[0] | .mode == "active-backup" and .miimon_ms == 100 and .primary == "eth0" and .admin_up'
	expect '[.bonds[0].members[].netdev] == ["eth0", "eth1"]'
	# Each netdev's own state, in port show's names; mii_status is the bond's verdict.
	expect '.bonds[0].operstate == "up" and all(.bonds[0].members[]; .admin_up == true
		and .carrier == true and .operstate == "up" and .mii_status == "up"
		and (.rate_gbps | type == "number" or type == "null"))'
	expect '.bonds[0].rdma.roce_lag == false and (.bonds[0].rdma.reason | test("bound to members"))'
}

@test "bond create again: the same bond, nothing sent" {
	run --separate-stderr on a ./rdmactl -j bond create bond0 mode active-backup \
		members eth0,eth1 miimon 100 primary eth0
	assert_success
	expect '.changed == false and (.bonds[0].steps | length) == 0'
}

@test "bond show in text: mode, members, and which is active" {
	run --separate-stderr on a 'sleep 1; ./rdmactl bond show'
	assert_success
	assert_line --partial "bond0: active-backup up"
	assert_line --regexp '^  eth0 +active +up'
	assert_line --regexp '^  eth1 +backup +up'
}

@test "bond set: miimon and updelay change while up; lacp-rate is not sent in active-backup" {
	run --separate-stderr on a ./rdmactl -j bond set bond0 miimon 200 updelay 400 lacp-rate fast
	assert_success
	expect '.changed == true and .bonds[0].skipped == ["lacp-rate"]'
	expect '.bonds[0].after.miimon_ms == 200 and .bonds[0].after.updelay_ms == 400'
	run --separate-stderr on a cat /sys/class/net/bond0/bonding/miimon /sys/class/net/bond0/bonding/updelay
	assert_output $'200\n400'
	run --separate-stderr on a ./rdmactl -j bond set bond0 miimon 200 updelay 400
	assert_success
	expect '.changed == false'
}

@test "bond set mode: members released, bond down, mode set, members back, bond up" {
	run --separate-stderr on a ./rdmactl -j bond set bond0 mode balance-xor xmit-hash layer3+4
	assert_success
	expect '.changed == true and .bonds[0].after.mode == "balance-xor" and .bonds[0].after.xmit_hash_policy == "layer3+4"'
	expect '[.bonds[0].after.members[].netdev] == ["eth0", "eth1"] and .bonds[0].after.admin_up'
	expect '[.bonds[0].steps[].op] | index("release") < index("set") and rindex("enslave") > index("set")'
	run --separate-stderr on a ./rdmactl -j bond set bond0 mode active-backup primary eth0
	assert_success
	expect '.bonds[0].after.mode == "active-backup" and .bonds[0].after.primary == "eth0"'
}

@test "bond del and add: eth1 leaves (and is up on its own), then comes back" {
	run --separate-stderr on a ./rdmactl -j bond del bond0 eth1
	assert_success
	expect '.changed == true and [.bonds[0].after.members[].netdev] == ["eth0"]'
	run --separate-stderr on a 'cat /sys/class/net/eth1/flags; test -e /sys/class/net/eth1/master && echo enslaved || echo free'
	assert_success
	assert_line free
	(( $(head -1 <<<"$output") & 1 )) || fail "eth1 is not up after leaving: $output"
	run --separate-stderr on a ./rdmactl -j bond add bond0 eth1
	assert_success
	expect '.changed == true and [.bonds[0].after.members[].netdev] == ["eth0", "eth1"]'
	run --separate-stderr on a ./rdmactl -j bond add bond0 eth1
	expect '.changed == false'
}

@test "bond check on the lab bond: findings with evidence, exit 0 or 3" {
	run --separate-stderr on a ./rdmactl -j bond check bond0
	[ "$status" -eq 0 ] || [ "$status" -eq 3 ] || fail "exit $status: $output $stderr"
	expect '.bonds[0].bond == "bond0" and .bonds[0].failover_s == 0.2 and .bonds[0].qp_survival_s > 0.5'
	expect '[.bonds[0].findings[] | select(.severity == "fail")] | length == 0'
	expect '.bonds[0].findings | all(.evidence | all(.source | length > 0))'
	# Evidence is typed (schema 3): one value each under a name without spaces, whose it
	# is in the detail; the estimate and the window are the numbers the document has.
	# (bond set above left miimon at 200 ms and downdelay 0: the estimate is their sum.)
	expect '[.bonds[0].findings[].evidence[]] | all(.name | test("^[^ ]+$"))'
	expect '.bonds[0] as $b | [$b.findings[] | select(.id == "bond.qp-outlives-failover")
		| .evidence[] | select(.name == "failover_s" or .name == "qp_survival_s" or .name == "miimon_ms")
		| .value] == [200, $b.failover_s, $b.qp_survival_s]'
	# virtio members: what could not be read is null, the member and why in the detail.
	expect '[.bonds[0].findings[] | select(.id | endswith("-skipped")) | .evidence[]
		| select(.name == "pci" or .name == "pfc_en" or .name == "trust")]
		| all(.value == null and (.detail | test("^eth[01]: ")))'
	run --separate-stderr on a ./rdmactl -j bond check bond0 qp-timeout 10
	assert_failure 1
	expect '.bonds[0].findings[] | select(.id == "bond.failover-outlasts-qp") | .evidence as $e
		| ($e[] | select(.name == "qp_timeout") | .value == 10 and (.detail | test("^ACK timeout ")))
		and ($e[] | select(.name == "qp_survival_s") | .value == 0.033554432)'
	run --separate-stderr on a ./rdmactl bond check bond0 qp-timeout 10
	assert_failure 1
	assert_output --partial "bond.failover-outlasts-qp"
}

@test "bond delete: members released and up, the bond gone" {
	run --separate-stderr on a ./rdmactl -j bond delete bond0
	assert_success
	expect '.changed == true and .bonds[0].after == null'
	run --separate-stderr on a 'test -e /sys/class/net/bond0 && echo bond0 || echo gone; cat /sys/class/net/eth0/flags /sys/class/net/eth1/flags'
	assert_line gone
	for f in "${lines[@]:1}"; do (( f & 1 )) || fail "a member is down after delete: $output"; done
	run --separate-stderr on a ./rdmactl -j bond delete bond0
	assert_failure 1
	[[ $stderr == *"no bond 'bond0'"* ]] || fail "$stderr"
}

@test "bond create with a member the kernel refuses: everything put back" {
	run --separate-stderr on a 'cat /sys/class/net/lo/flags /sys/class/net/eth0/flags'
	local before=$output
	# lo is no Ethernet device: the kernel refuses it next to eth0.
	run --separate-stderr on a ./rdmactl bond create bond1 mode active-backup members eth0,lo miimon 100
	assert_failure 1
	[[ $stderr == *"enslave lo to bond1"*"old state restored"* ]] || fail "$stderr"
	run --separate-stderr on a 'test -e /sys/class/net/bond1 && echo bond1 || echo gone; test -e /sys/class/net/eth0/master && echo enslaved || echo free; cat /sys/class/net/lo/flags /sys/class/net/eth0/flags'
	assert_line gone
	assert_line free
	[ "$(tail -2 <<<"$output")" = "$before" ] || fail "flags before: $before, after: $output"
}

@test "bond create killed after each of its requests: the next write names it, undo puts the links back" {
	# The NIC double (preloaded, no DCB device named) only counts: it kills
	# rdmactl once the kernel carried out its Kth link change.
	run --separate-stderr on a '
		state() {
			test -e /sys/class/net/bond0 && echo bond0 || echo no-bond
			for n in eth0 eth1; do
				echo "$n $(cat /sys/class/net/$n/flags) $(cat /sys/class/net/$n/mtu) $(test -e /sys/class/net/$n/master && echo enslaved)"
				grep " $n\$" /proc/net/if_inet6 | awk "\$4 == \"00\" {print \$1, \$3}" | sort
			done
		}
		create="./rdmactl bond create bond0 mode active-backup members eth0,eth1 miimon 100"
		before=$(state)
		# A dry run that would change something exits 4.
		steps=$({ $create --dry-run -j || [ $? = 4 ]; } | jq ".bonds[0].steps | length")
		echo "steps $steps"
		for k in $(seq "$steps"); do
			rc=0
			(LD_PRELOAD=$PWD/build/dcb-double/libdcbdouble.so DCB_DOUBLE_KILL=$k $create; exit $?) >/dev/null 2>&1 || rc=$?
			# A step that finds its link as wanted sends nothing: fewer requests than steps.
			if [ $rc = 0 ]; then
				echo "requests $((k - 1))"
				./rdmactl bond delete bond0 >/dev/null || exit 1
				[ "$(state)" = "$before" ] || { echo "after delete: $(state) is not $before"; exit 1; }
				break
			fi
			[ $rc = 137 ] || { echo "step $k: exit $rc"; exit 1; }
			rc=0
			./rdmactl bond set bond0 miimon 200 >/dev/null 2>/tmp/err || rc=$?
			[ $rc = 1 ] && grep -qF "has a change that did not finish: '"'"'${create#./}'"'"'" /tmp/err ||
				{ echo "step $k: exit $rc: $(cat /tmp/err)"; exit 1; }
			./rdmactl undo >/tmp/undo.out 2>&1 || { echo "step $k: undo: $(cat /tmp/undo.out)"; exit 1; }
			[ "$(state)" = "$before" ] || { echo "step $k: $(state) is not $before"; exit 1; }
			[ -z "$(ls /run/rdmactl)" ] || { echo "step $k: a journal is left"; exit 1; }
		done
		echo "all undone"'
	assert_success
	assert_line "all undone"
	# Killed after each of at least 5 requests (create, downs, enslaves).
	[ "$(sed -n 's/^requests //p' <<<"$output")" -ge 5 ] || fail "$output"
}

@test "undo: a bond whose mode another writer changed since is left as it is, named, and its journal settled" {
	run --separate-stderr on a '
		./rdmactl --confirm 120 bond create bond9 mode active-backup miimon 100 >/dev/null || exit 1
		echo "journals $(ls /run/rdmactl | grep -c "\.undo$")"
		# Another writer: with bond9 down and without members the kernel takes a mode change.
		ip link set bond9 down && ip link set bond9 type bond mode balance-xor || exit 1
		rc=0
		./rdmactl undo 2>/tmp/err >/dev/null || rc=$?
		echo "undo exit $rc"
		cat /tmp/err
		echo "mode $(cut -d" " -f1 /sys/class/net/bond9/bonding/mode)"
		echo "journals left $(ls /run/rdmactl | grep -c "\.undo$")"
		ip link del bond9'
	assert_success
	assert_line "journals 1"
	assert_line "undo exit 1"
	assert_output --partial "'bond9' reads mode balance-xor, neither what it was nor what that change set: left as it is (another writer's)"
	# Left as the other writer set it, and nothing left to undo.
	assert_line "mode balance-xor"
	assert_line "journals left 0"
}

@test "bond apply -f: a netplan file converges, the second run sends nothing" {
	run on a 'cat >/tmp/bond.yaml <<YAML
network:
  version: 2
  ethernets:
    eth0: {}
  bonds:
    bond0:
      interfaces: [eth0, eth1]
      parameters:
        mode: active-backup
        mii-monitor-interval: 100ms
        primary: eth0
        up-delay: 0
YAML'
	assert_success
	run --separate-stderr on a ./rdmactl -j bond apply -f /tmp/bond.yaml
	[ "$status" -eq 0 ] || fail "exit $status: $stderr"
	expect '.changed == true and .bonds[0].after.mode == "active-backup" and .bonds[0].after.miimon_ms == 100'
	run --separate-stderr on a ./rdmactl -j bond apply -f /tmp/bond.yaml
	assert_success
	expect '.changed == false and (.bonds[0].steps | length) == 0'
	run --separate-stderr on a ./rdmactl --dry-run -j bond set bond0 miimon 300
	assert_failure 4 # would change
	expect '.changed == true and .dry_run == true'
	run --separate-stderr on a cat /sys/class/net/bond0/bonding/miimon
	assert_output 100
}
