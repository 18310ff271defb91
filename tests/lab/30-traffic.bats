#!/usr/bin/env bats
# shellcheck disable=SC2016,SC2154 # '...' expands in the VM; bats' run sets $stderr
# RDMA traffic between the VMs: ib_write_bw over each link's rxe devices,
# with the RoCE v2 GID of the link's IPv4 address (-x).

load lab_helper

setup_file() { need_lab 1; }

setup() { skip_unless_lab; }

teardown() {
	diagnose_failure
	restore_links
}

@test "ib_write_bw across every link at once (servers on a, clients on b)" {
	local n links specs=() bw
	links=$(on a 'echo $LAB_LINKS')
	for n in $(seq "$links"); do
		specs+=("rxe$((n - 1)):198.18.$n.1:rxe$((n - 1)):198.18.$n.2:$((18515 + n))")
	done
	run write_bw "-D 2" "${specs[@]}"
	assert_success
	assert_output --partial "Link type       : Ethernet"
	bw=$(bw_averages "$output")
	for n in $(seq "$links"); do
		awk -v d="rxe$((n - 1))" '$1 == d && $3 > 0 { ok = 1 } END { exit !ok }' <<<"$bw" ||
			fail "link $n: no bandwidth in: $output"
	done
}

@test "with link 1's cable pulled, RDMA still runs over link 2" {
	[ "$(on a 'echo $LAB_LINKS')" -ge 2 ] || skip "needs 2 links"
	"$LAB" link 1 down
	# -n: a short run, the point is that it connects and completes.
	run write_bw "-n 50" rxe1:198.18.2.1:rxe1:198.18.2.2:18530
	assert_success
}
