#!/usr/bin/env bats
# shellcheck disable=SC2154 # bats' run sets $output
# The Ansible collection (ansible_collections/rdmactl/roce) with the two lab VMs
# as managed hosts and this machine as the control node, reached through the
# lab's connection plugin rdmactl_lab (scripts/lab-ansible: scripts/lab run,
# files through the VMs' 9p spool; not part of the collection). Soft-RoCE under TCG is slow: short runs only.
load lab_helper

setup_file() {
	need_lab 2
	[ -z "$LAB_SKIP" ] || return 0
	command -v ansible-playbook >/dev/null || { LAB_SKIP="needs ansible-playbook (Debian package ansible-core)"; return 0; }
	cat >"$BATS_FILE_TMPDIR/inventory.yml" <<-EOF
		lab:
		  hosts:
		    a: {}
		    b: {}
		  vars:
		    ansible_connection: rdmactl_lab
		    ansible_lab_script: $TOP/scripts/lab
		    ansible_python_interpreter: /usr/bin/python3
		    ansible_pipelining: true
		    rdmactl_bin: $TOP/rdmactl
	EOF
}

setup() {
	skip_unless_lab
	need_rdmactl
	export ANSIBLE_COLLECTIONS_PATH=$TOP ANSIBLE_COLLECTIONS_SCAN_SYS_PATH=false ANSIBLE_NOCOLOR=1
	export ANSIBLE_CONNECTION_PLUGINS=$TOP/scripts/lab-ansible/connection_plugins
	export ANSIBLE_HOME=$BATS_TEST_TMPDIR/ansible-home ANSIBLE_LOCAL_TEMP=$BATS_TEST_TMPDIR/ansible-local
	export ANSIBLE_RETRY_FILES_ENABLED=false ANSIBLE_DEPRECATION_WARNINGS=false
}

teardown() {
	diagnose_failure
	# A bench server left by a failed run would hold the port for the next test.
	on a "pkill -INT -f 'rdmactl bench server' || true" >/dev/null 2>&1 || true
}

playbook() {
	local pb=$1
	shift
	ansible-playbook -i "$BATS_FILE_TMPDIR/inventory.yml" "$TOP/ansible_collections/rdmactl/roce/playbooks/$pb" "$@"
}

@test "ansible: bench_pairs.yml pairs a with b, one table for the pair, the fleet summary" {
	run playbook bench_pairs.yml -e bench_duration=2
	# Soft-RoCE under TCG now and then fails a QP ("remote invalid request",
	# seen in 60-bench.bats too): one rerun, said in the log; a second is a failure.
	if ! grep -Eq 'rxe1 \(eth1\) 198\.18\.2\.1 +ok' <<<"$output" ||
		! grep -Eq 'rxe0 \(eth0\) 198\.18\.1\.1 +ok' <<<"$output"; then
		echo "# first run had a failed link, rerunning once:" >&3
		grep -E ' (failed|error)' <<<"$output" | head -3 | sed 's/^/#   /' >&3 || true
		on a "pkill -INT -f 'rdmactl bench server' || true" >/dev/null 2>&1 || true
		run playbook bench_pairs.yml -e bench_duration=2
	fi
	assert_success
	assert_output --partial '"msg": "a: server of b"'
	assert_output --partial '"msg": "b: client of a"'
	assert_output --partial '"b -> a",'
	assert_output --regexp '"  rxe0 \(eth0\) 198\.18\.1\.2  rxe0 \(eth0\) 198\.18\.1\.1 +ok +[0-9]+\.[0-9]{3}"'
	assert_output --regexp '"  rxe1 \(eth1\) 198\.18\.2\.2  rxe1 \(eth1\) 198\.18\.2\.1 +ok +[0-9]+\.[0-9]{3}"'
	assert_output --regexp '"  total +[0-9]+\.[0-9]{3}"'
	assert_output --regexp '"fleet: 1 pair\(s\), 2 link\(s\), [0-9]+\.[0-9]{3} Gb/s in all"'
	assert_output --partial '"worst links:"'
	assert_output --regexp '"  b rxe[01] \(eth[01]\) 198\.18\.[12]\.2 -> a rxe[01] \(eth[01]\) 198\.18\.[12]\.1  ok  [0-9.]+ Gb/s"'
	assert_output --regexp 'a +: ok=[0-9]+ +changed=0 +unreachable=0 +failed=0'
	assert_output --regexp 'b +: ok=[0-9]+ +changed=0 +unreachable=0 +failed=0'
	# The server served its one run and ended.
	run on a "pgrep -f 'rdmactl bench server' || echo none"
	assert_output none
}

@test "ansible: lossless.yml reports per host that virtio has no DCB, then diag passes" {
	run playbook lossless.yml
	assert_success
	assert_output --regexp '"msg": "a: no DCB on eth0, eth1: its driver implements no dcbnl operations \(virtual NICs such as virtio and veth'
	assert_output --regexp '"msg": "b: no DCB on eth0, eth1: its driver implements no dcbnl operations \(virtual NICs such as virtio and veth'
	assert_output --regexp 'ok: \[a\] => \(item=eth0\)'
	assert_output --partial '"a: warn link.mtu eth0: '
	assert_output --regexp 'a +: ok=[0-9]+ +changed=0 +unreachable=0 +failed=0'
	assert_output --regexp 'b +: ok=[0-9]+ +changed=0 +unreachable=0 +failed=0'
}

@test "ansible: collect.yml fetches a diag bundle from each VM that rdmactl --root reads" {
	run playbook collect.yml -e collect_interval=0 -e "collect_dest=$BATS_TEST_TMPDIR/bundles"
	assert_success
	for h in a b; do
		run "$TOP/rdmactl" -j --root "$BATS_TEST_TMPDIR/bundles/$h.tar.gz" port
		assert_success
		[ "$(jq -c '[.ports[] | .device] | sort' <<<"$output")" = '["rxe0","rxe1"]' ] || fail "$h: $output"
	done
	run on a "ls /tmp/rdmactl-bundle-a.tar.gz 2>&1 || echo gone"
	assert_output --partial gone
}
