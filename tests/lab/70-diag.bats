#!/usr/bin/env bats
# shellcheck disable=SC2016,SC2154 # '...' expands in the VM; bats' run sets $stderr
# rdmactl diag on a real kernel (Soft-RoCE over virtio): findings from live reads, a cable
# pulled inside the sample window, and a support bundle that reads back with the same findings.

load lab_helper

setup_file() { need_lab 2; }

setup() {
	skip_unless_lab
	need_rdmactl
}

teardown() {
	diagnose_failure
	[ -n "${LAB_SKIP:-}" ] || restore_links
	[ -n "${LAB_SKIP:-}" ] || on a 'rm -rf /tmp/diag-bundle /tmp/diag-bundle.tgz' || true
}

@test "rdmactl diag: both rxe ports judged live; no dcbnl on virtio is a skip with its reason" {
	run --separate-stderr on a ./rdmactl -j diag interval 1
	[ "$status" -ne 2 ] && [ "$status" -le 3 ] || fail "exit $status: $stderr"
	jq -e '[.ports[] | "\(.device) \(.netdev)"] | sort == ["rxe0 eth0", "rxe1 eth1"]' <<<"$output" ||
		fail "$output"
	jq -e '.interval_s == 1 and .summary.checks_run >= 32' <<<"$output" || fail "$output"
	jq -e '[.skipped[] | select(.id == "qos.pfc-off")] | length == 2 and
		all(.reason | test("dcbnl"))' <<<"$output" || fail "qos not skipped for dcbnl: $output"
	# The lab's links are healthy and up: nothing about carriers or port state.
	jq -e '[.findings[].id] | all(. != "link.no-carrier" and . != "link.port-not-active")' \
		<<<"$output" || fail "$output"
	worst=$(jq -r '[.findings[].severity] | if any(. == "fail") then 1
		elif any(. == "warn") then 3 else 0 end' <<<"$output")
	[ "$worst" = "$status" ] || fail "exit $status, findings say $worst"
}

@test "rdmactl diag: a cable pulled inside the window is a flap on that link only" {
	on a './rdmactl -j diag eth0 eth1 interval 4 check link.flapping link.no-carrier >/tmp/diag.json 2>/tmp/diag.err; echo $? >/tmp/diag.rc' &
	sleep 1.5
	"$LAB" link 2 down >/dev/null
	sleep 1
	"$LAB" link 2 up >/dev/null
	wait
	run on a 'cat /tmp/diag.rc; cat /tmp/diag.json'
	[ "${lines[0]}" = 1 ] || fail "exit ${lines[0]}: $output"
	json=$(sed 1d <<<"$output")
	# Only the in-window flap is a failure. Earlier lab tests toggle eth0 as well, so its
	# since-boot count may pass the warn level: that is a warning, never a failure.
	jq -e '[.findings[] | select(.id == "link.flapping" and .severity == "fail")] |
		length == 1 and .[0].netdev == "eth1" and .[0].device == "rxe1"' \
		<<<"$json" || fail "$json"
	jq -e '[.findings[] | select(.id == "link.flapping" and .netdev == "eth0")] |
		all(.severity == "warn" and (.title | test("since boot")))' <<<"$json" || fail "$json"
	# The flap as typed evidence: carrier_changes over the window, its total a number.
	jq -e '[.findings[] | select(.id == "link.flapping" and .severity == "fail")][0].evidence |
		any(.name == "carrier_changes" and (.source | test("carrier_changes")) and
			(.value | type == "number") and .delta >= 1 and .window_s > 0 and
			.since_reset == false)' <<<"$json" || fail "$json"
}

@test "rdmactl diag collect: the bundle reads back under --root with the same findings" {
	run --separate-stderr on a './rdmactl -j diag collect out /tmp/diag-bundle.tgz interval 1'
	assert_success
	jq -e '.ports == 2 and .size_bytes > 0' <<<"$output" || fail "$output"
	run on a 'tar -tzf /tmp/diag-bundle.tgz'
	assert_success
	assert_line './kernel.rec'
	assert_line './VERSIONS'
	assert_line './WINDOW'
	assert_line --regexp '^\./samples/2/sys/devices/.*/infiniband/rxe0/ports/1/hw_counters/'
	assert_line --regexp '^\./sys/class/infiniband/rxe1$'
	refute_line --regexp '^\./proc/(self|[0-9]+)/'
	run on a 'tar -xzf /tmp/diag-bundle.tgz ./VERSIONS -O'
	assert_line --regexp '^rdma-core: 44 '
	assert_line --regexp '^port rxe0/1 eth0: driver rdma_rxe '
	# The same findings offline, from the tarball and unpacked: without interval the recorded
	# window is used, not waited; an interval the bundle cannot give is refused, naming it.
	run --separate-stderr on a './rdmactl --root /tmp/diag-bundle.tgz -j diag'
	[ "$status" -ne 2 ] && [ -n "$output" ] || fail "exit $status: $stderr"
	offline=$output
	jq -e '.interval_s > 0.9 and .interval_s < 2 and (.ports | length) == 2' <<<"$offline" || fail "$offline"
	run --separate-stderr on a './rdmactl --root /tmp/diag-bundle.tgz -j diag interval 5'
	[ "$status" -eq 2 ] && [ "$(jq -r .error.id <<<"$output")" = usage ] || fail "exit $status: $output"
	[[ $stderr == *"interval 5 s: the bundle's two samples are 1"*" s apart (use interval 1"* ]] || fail "$stderr"
	run --separate-stderr on a 'mkdir /tmp/diag-bundle && tar -xzf /tmp/diag-bundle.tgz -C /tmp/diag-bundle &&
		./rdmactl --root /tmp/diag-bundle -j diag'
	[ -n "$output" ] || fail "$stderr"
	[ "$(jq -c '[.findings[] | [.id, .netdev]] | sort' <<<"$output")" = \
		"$(jq -c '[.findings[] | [.id, .netdev]] | sort' <<<"$offline")" ] || fail "$output vs $offline"
	run --separate-stderr on a './rdmactl -j diag interval 1'
	live=$output
	[ "$(jq -c '[.findings[] | [.id, .netdev]] | sort' <<<"$live")" = \
		"$(jq -c '[.findings[] | [.id, .netdev]] | sort' <<<"$offline")" ] || fail "live $live offline $offline"
	[ "$(jq -c '[.skipped[] | [.id, .device, .port, .netdev, .bond]] | sort' <<<"$live")" = \
		"$(jq -c '[.skipped[] | [.id, .device, .port, .netdev, .bond]] | sort' <<<"$offline")" ] || fail "skips differ: live $live offline $offline"
}
