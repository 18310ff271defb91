#!/usr/bin/env bats
# Undo journals and --confirm (cmd/write.h, base/journal.h) on the DCB NIC
# double: a write killed at each of its steps is named by the next write and
# undone by `rdmactl undo`; --confirm SEC restores unless `rdmactl confirm`.
load ../helpers

DOUBLE=$TOP/build/dcb-double

setup() {
	[ -e "$DOUBLE/libdcbdouble.so" ] || fail "dcb double not built (make -f tests/dcb-double/double.mk)"
	[ "$(id -u)" -eq 0 ] || skip "journals are kept for root's writes only"
	export LD_PRELOAD=$DOUBLE/libdcbdouble.so
	export DCB_DOUBLE_DEVS=eth9,eth8
	export DCB_DOUBLE_STATE=$BATS_TEST_TMPDIR/state
	export DCB_DOUBLE_LOG=$BATS_TEST_TMPDIR/log
	# This test's own journals and locks: a journal left by one case is not the next one's.
	export RDMACTL_RUN_DIR=$BATS_TEST_TMPDIR/run RDMACTL_LOCK_DIR=$BATS_TEST_TMPDIR/lock
}

teardown() {
	# A watcher still waiting for its deadline is this test's: stop it.
	pkill -KILL -f -- "--confirm [0-9]+ pfc .*eth9" 2>/dev/null || true
}

# The NIC as dcbnl sees it (as tests/cli/pfc.bats reads it).
nic_state() {
	"$DOUBLE/dcb-double-ctl" show |
		jq -S 'del(.fault) | del(.. | .requests?, .indications?) | del(.devices[].dscp2prio)'
}

journals() {
	find "$RDMACTL_RUN_DIR" -name '*.undo' 2>/dev/null | wc -l
}

# Poll until "$@" succeeds, for up to $1 seconds.
wait_until() {
	local limit=$1 i
	shift
	for ((i = 0; i < limit * 10; i++)); do
		"$@" && return 0
		sleep 0.1
	done
	return 1
}

state_is() {
	[ "$(nic_state)" = "$1" ]
}

@test "undo: pfc apply killed after each of its requests is named by the next write and undone" {
	local before steps k
	# How many changing requests a whole apply sends.
	run "$RDMACTL" pfc apply dev eth9 profile roce-lossless
	assert_success
	steps=$(grep -cE '^(SET|DEL)' "$DCB_DOUBLE_LOG")
	[ "$steps" -ge 3 ] || fail "only $steps requests"
	for ((k = 1; k <= steps; k++)); do
		rm -f "$DCB_DOUBLE_STATE"
		before=$(nic_state)
		DCB_DOUBLE_KILL=$k run "$RDMACTL" pfc apply dev eth9 profile roce-lossless
		[ "$status" -eq 137 ] || fail "step $k: exit $status, not killed"
		[ "$(journals)" -eq 1 ] || fail "step $k: $(journals) journals"
		! state_is "$before" || fail "step $k: nothing had changed"
		# The next write on eth9 names the interrupted one and sends nothing.
		: >"$DCB_DOUBLE_LOG"
		run --separate-stderr "$RDMACTL" pfc set dev eth9 prio-pfc 3:on
		assert_failure 1
		[[ $stderr == *"'eth9' has a change that did not finish: 'rdmactl pfc apply dev eth9 profile roce-lossless' (pid "*"'rdmactl undo eth9' puts back the state before it"* ]] ||
			fail "step $k: $stderr"
		[ "$(grep -cE '^(SET|DEL)' "$DCB_DOUBLE_LOG")" -eq 0 ]
		run --separate-stderr "$RDMACTL" -j undo list
		assert_success
		[ "$(jq -r '.journals[0].state' <<<"$output")" = applying ]
		[ "$(jq -c '.journals[0].netdevs' <<<"$output")" = '["eth9"]' ]
		run --separate-stderr "$RDMACTL" undo eth9
		assert_success
		assert_line "1 change undone: the state before is back"
		assert_line --partial "rdmactl pfc apply dev eth9 profile roce-lossless (applying, pid "
		state_is "$before" || fail "step $k: not restored: $(diff <(echo "$before") <(nic_state))"
		[ "$(journals)" -eq 0 ]
	done
}

@test "undo: a journal that cannot be read stops writes, is listed with why, and nothing is sent" {
	mkdir -p -m 0700 "$RDMACTL_RUN_DIR"
	printf 'rdmactl-undo 1\nversion 0.0.0-other\n' >"$RDMACTL_RUN_DIR/net1-2-3.undo"
	run --separate-stderr "$RDMACTL" pfc set dev eth9 prio-pfc 3:on
	assert_failure 1
	[[ $stderr == *"cannot tell whether 'eth9' has a change that did not finish: "*"written by another rdmactl version"* ]] || fail "$stderr"
	[ ! -s "$DCB_DOUBLE_LOG" ] || ! grep -qE '^(SET|DEL)' "$DCB_DOUBLE_LOG"
	run --separate-stderr "$RDMACTL" -j undo list
	assert_success
	jq -e '.journals[0].error | test("another rdmactl version")' <<<"$output"
	jq -e '.journals[0].command == null' <<<"$output"
}

@test "undo: a journal directory others may write is refused before anything is sent" {
	mkdir -p "$RDMACTL_RUN_DIR"
	chmod 0777 "$RDMACTL_RUN_DIR"
	run --separate-stderr "$RDMACTL" pfc set dev eth9 prio-pfc 3:on
	assert_failure 1
	[[ $stderr == *"nothing changed: the undo journal cannot be kept: the undo journal directory '$RDMACTL_RUN_DIR' is not this user's alone (owner 0, mode 0777)"* ]] || fail "$stderr"
	! grep -qE '^(SET|DEL)' "$DCB_DOUBLE_LOG"
	rm -rf "$RDMACTL_RUN_DIR"
	ln -s /tmp "$RDMACTL_RUN_DIR"
	run --separate-stderr "$RDMACTL" pfc set dev eth9 prio-pfc 3:on
	assert_failure 1
	[[ $stderr == *"(a symlink)"* ]] || fail "$stderr"
}

@test "undo: nothing to undo is a success that changed nothing; nothing to confirm is a failure" {
	run --separate-stderr "$RDMACTL" -j undo
	assert_success
	jq -e '.changed == false and .journals == [] and .action == "undo"' <<<"$output"
	run --separate-stderr "$RDMACTL" confirm eth9
	assert_failure 1
	assert_equal "$stderr" "rdmactl: confirm: no change awaits confirmation on eth9 (restored already?)"
	run --separate-stderr "$RDMACTL" undo 'eth9/x'
	assert_failure 2
	assert_equal "$stderr" "rdmactl: undo: 'eth9/x' is not an interface name
see 'rdmactl help undo'"
}

@test "--confirm: not confirmed, the watcher puts the state before back; a finished write leaves no journal" {
	local before
	before=$(nic_state)
	run --separate-stderr "$RDMACTL" --confirm 2 pfc set dev eth9 prio-pfc 3:on
	assert_success
	[[ $stderr == *"rdmactl: pfc: changed; the state before comes back at "*" (in 2 s) unless confirmed: 'rdmactl confirm'" ]] || fail "$stderr"
	! state_is "$before"
	[ "$(journals)" -eq 1 ]
	# The terminal's session can go: the watcher is a session of its own.
	wait_until 20 state_is "$before" || fail "not restored: $(nic_state | jq -c .devices.eth9.pfc)"
	wait_until 5 [ "$(journals)" -eq 0 ]
	# Without --confirm the journal is gone as soon as the write is verified.
	run "$RDMACTL" pfc set dev eth9 prio-pfc 3:on
	assert_success
	[ "$(journals)" -eq 0 ]
}

@test "--confirm: 'rdmactl confirm' keeps the change past its deadline and the watcher leaves" {
	local after
	run --separate-stderr "$RDMACTL" --confirm 2 pfc set dev eth9 prio-pfc 4:on
	assert_success
	after=$(nic_state)
	run --separate-stderr "$RDMACTL" -j confirm
	assert_success
	jq -e '.action == "confirm" and .changed and (.journals | length) == 1 and .journals[0].state == "pending" and .journals[0].deadline_unix_s > .journals[0].started_unix_s' <<<"$output"
	[ "$(journals)" -eq 0 ]
	sleep 3
	state_is "$after"
	! pgrep -f -- "--confirm 2 pfc set dev eth9 prio-pfc 4:on" >/dev/null
}

@test "--confirm: a pending change stops the next write on its netdev, not on another" {
	run --separate-stderr "$RDMACTL" --confirm 60 pfc set dev eth9 prio-pfc 3:on
	assert_success
	run --separate-stderr "$RDMACTL" pfc set dev eth9 prio-pfc 5:on
	assert_failure 1
	[[ $stderr == *"'eth9' has a change awaiting confirmation until "*"'rdmactl confirm eth9' keeps it"* ]] || fail "$stderr"
	run --separate-stderr "$RDMACTL" pfc set dev eth8 prio-pfc 5:on
	assert_success
	run "$RDMACTL" undo eth9
	assert_success
	[ "$(nic_state | jq -c '.devices.eth9.pfc.prio_pfc')" = '[false,false,false,false,false,false,false,false]' ]
}

@test "undo: a value another writer set after the change is left as theirs and named; the rest goes back" {
	local before
	before=$(nic_state)
	run --separate-stderr "$RDMACTL" --confirm 60 pfc apply dev eth9 profile roce-lossless
	assert_success
	# Another tool changes PFC meanwhile.
	dcb pfc set dev eth9 prio-pfc 5:on
	run --separate-stderr "$RDMACTL" undo eth9
	assert_failure 1
	[[ $stderr == *"'eth9': PFC read neither the old values nor that change's: left as they are (another writer's); the rest is restored"* ]] || fail "$stderr"
	# PFC is theirs; ETS, trust and the APP table are as before.
	[ "$(nic_state | jq -c '.devices.eth9.pfc.prio_pfc[5]')" = true ]
	[ "$(nic_state | jq -S '.devices.eth9 | del(.pfc)')" = "$(jq -S '.devices.eth9 | del(.pfc)' <<<"$before")" ]
	[ "$(journals)" -eq 0 ]
}

@test "--confirm: SEC is checked, and only writes take it" {
	run --separate-stderr "$RDMACTL" --confirm 0 pfc set dev eth9 prio-pfc 3:on
	assert_failure 2
	[[ $stderr == *"--confirm: '0' is not a number of seconds (1 to 86400)"* ]]
	run --separate-stderr "$RDMACTL" --confirm 86401 pfc set dev eth9 prio-pfc 3:on
	assert_failure 2
	run --separate-stderr "$RDMACTL" --confirm 10 pfc show dev eth9
	assert_failure 2
	[[ $stderr == *"--confirm SEC is for writes"* ]]
	run --separate-stderr "$RDMACTL" confirm --confirm 10
	assert_failure 2
	! grep -qE '^(SET|DEL)' "$DCB_DOUBLE_LOG" 2>/dev/null
}

@test "--confirm on a terminal: Enter keeps the change, Ctrl-C puts the state before back at once" {
	local before out
	before=$(nic_state)
	# script(1) gives rdmactl a terminal.  What was typed before the question
	# is dropped (it answers nothing), so Enter comes once a second after it.
	out=$({ for i in $(seq 25); do sleep 1; printf '\n'; done; } |
		script -qefc "$RDMACTL --confirm 30 pfc set dev eth9 prio-pfc 3:on" /dev/null)
	[[ $out == *"Enter here (Ctrl-C restores it now)"* ]] || fail "$out"
	[[ $out == *"confirmed: the change stays"* ]] || fail "$out"
	[ "$(journals)" -eq 0 ]
	[ "$(nic_state | jq -c '.devices.eth9.pfc.prio_pfc[3]')" = true ]
	"$RDMACTL" pfc set dev eth9 prio-pfc 3:off
	state_is "$before"
	# Ctrl-C (the terminal's interrupt character) instead: restored now, not in 30 s.
	# Typed once the question is on the terminal (a Ctrl-C before it is dropped with
	# the rest of what was typed early; a loaded host can take more than a second).
	out=$BATS_TEST_TMPDIR/ctrl-c.out
	{
		for i in $(seq 200); do
			! grep -q 'Ctrl-C restores it now' "$out" 2>/dev/null || break
			sleep 0.1
		done
		printf '\003'
		sleep 2
	} | script -qefc "$RDMACTL --confirm 30 pfc set dev eth9 prio-pfc 3:on" /dev/null >"$out" || true
	[[ $(cat "$out") == *"interrupted, old state restored (SIGINT)"* ]] || fail "$(cat "$out")"
	state_is "$before"
	[ "$(journals)" -eq 0 ]
}
