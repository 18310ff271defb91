# shellcheck shell=bash
# Helpers for the ansible tier (tests/ansible/*.bats): the collection in
# ansible_collections/rdmactl/roce run by ansible-playbook on this machine
# (connection local), against fixture hosts (--root), and against the dcbnl
# NIC double and veth pairs in a private network namespace.
load ../helpers

# shellcheck disable=SC2034 # COLL is for the tests
COLL=$TOP/ansible_collections/rdmactl/roce
PLAY=$TOP/tests/ansible/play
export DOUBLE_SO=$TOP/build/dcb-double/libdcbdouble.so
export RDMACTL

need_ansible() {
	command -v ansible-playbook >/dev/null || skip "needs ansible-playbook (Debian package ansible-core)"
}

# Ansible's files in the test's folder; only this checkout's collection.
ansible_env() {
	export ANSIBLE_COLLECTIONS_PATH=$TOP ANSIBLE_COLLECTIONS_SCAN_SYS_PATH=false
	export ANSIBLE_HOME=$BATS_TEST_TMPDIR/ansible-home ANSIBLE_LOCAL_TEMP=$BATS_TEST_TMPDIR/ansible-local
	export ANSIBLE_REMOTE_TEMP=$BATS_TEST_TMPDIR/ansible-remote ANSIBLE_NOCOLOR=1
	export ANSIBLE_RETRY_FILES_ENABLED=false ANSIBLE_DEPRECATION_WARNINGS=false
	export ANSIBLE_LOCALHOST_WARNING=false ANSIBLE_INVENTORY_UNPARSED_WARNING=false
	export OUT=$BATS_TEST_TMPDIR
}

# play PLAYBOOK [ARGS...]: ansible-playbook on localhost, connection local, with
# the python that runs ansible (it has ansible's modules), results under $OUT.
play() {
	ansible-playbook -i localhost, -c local -e 'ansible_python_interpreter={{ ansible_playbook_python }}' \
		-e "out=$OUT" "$@"
}
export -f play

# mod MODULE NAME ARGS_JSON [ARGS...]: one task of MODULE with ARGS_JSON; its
# result in $OUT/NAME.json.
mod() {
	local m=$1 name=$2 a=$3
	shift 3
	play "$PLAY/$m.yml" -e "res_name=$name" -e "{\"a\": $a}" "$@"
}
export -f mod

# steps MODULE: MODULE's task once per line of stdin, "NAME CHECK ARGS_JSON" (CHECK:
# check for check mode, - for none), in order, in one ansible-playbook run
# (play/MODULE_steps.yml); each result in $OUT/NAME.json, the keys mod's has.
steps() {
	local m=$1
	jq -Rn '{steps: [inputs | select(test("\\S")) |
		capture("^\\s*(?<name>\\S+)\\s+(?<check>\\S+)\\s+(?<a>.*)$") // error("steps: not NAME CHECK ARGS_JSON: \(.)") |
		if .check == "check" or .check == "-" then . else error("steps: CHECK is check or -, not \(.check)") end |
		.a |= fromjson | .check = (.check == "check")]}' >"$OUT/steps-$m.json" || return
	play "$PLAY/${m}_steps.yml" -e "@$OUT/steps-$m.json"
}
export -f steps

# res NAME JQ: JQ on the result NAME (compact).
res() {
	jq -c "$2" "$OUT/$1.json"
}

# in_netns SCRIPT: SCRIPT in a fresh network and mount namespace with its own
# sysfs and a veth pair veth0/veth1; the dcbnl double answers for veth0 (its
# state and request log in the test's folder); play and mod are there.
in_netns() {
	export DCB_DOUBLE_DEVS=veth0 DCB_DOUBLE_STATE=$BATS_TEST_TMPDIR/nic.state
	export DCB_DOUBLE_LOG=$BATS_TEST_TMPDIR/nic.log PLAY
	"${NETNS[@]}" bash -euc '
		mount -t sysfs sysfs /sys
		ip link add veth0 type veth peer name veth1
		'"$1"
}

# The double's NIC as rdmactl's JSON does not show it.
nic() {
	"$TOP/build/dcb-double/dcb-double-ctl" --state "$BATS_TEST_TMPDIR/nic.state" show veth0
}

# How many changing requests the double answered (an empty log proves nothing).
sets() {
	[ -s "$BATS_TEST_TMPDIR/nic.log" ] || { echo "no log"; return 1; }
	grep -cE '^(SET|DEL)' "$BATS_TEST_TMPDIR/nic.log" || true
}
