#!/usr/bin/env bats
# `rdmactl port features`: Node Feature Discovery's feature-file lines, on every fixture.
load ../helpers

# A label line NFD's local source turns into feature.node.kubernetes.io/NAME=VALUE:
# a name of our own prefix, a value a Kubernetes label allows (63 characters at most,
# alphanumerics and - _ . inside).
LINE_RE='^rdma\.[a-z0-9.-]+=[A-Za-z0-9]([A-Za-z0-9_.-]{0,61}[A-Za-z0-9])?$'

@test "every fixture: one valid label per line, the JSON's labels the same lines, the facts typed" {
	local host n=0
	for host in "$HOSTS"/*/; do
		host=$(basename "$host")
		run --separate-stderr rd "$host" port features
		[ "$status" -eq 0 ] || fail "$host: exit $status: $stderr"
		[ -n "$output" ] || fail "$host: no lines"
		while IFS= read -r line; do
			[[ $line =~ $LINE_RE ]] || fail "$host: not a label line: '$line'"
		done <<<"$output"
		# Names are unique: NFD keeps one value per label.
		[ "$(cut -d= -f1 <<<"$output" | sort | uniq -d)" = "" ] || fail "$host: a name twice"
		rd "$host" -j port features >"$BATS_TEST_TMPDIR/f.json"
		[ "$(jq -r '.labels[]' "$BATS_TEST_TMPDIR/f.json")" = "$output" ] ||
			fail "$host: JSON labels differ from the text lines"
		jq -e '(.capable | type) == "boolean" and (.ports_count | type) == "number" and
			(.lossless_prios == null or (.lossless_prios | type) == "array")' \
			"$BATS_TEST_TMPDIR/f.json" >/dev/null || fail "$host: $(cat "$BATS_TEST_TMPDIR/f.json")"
		n=$((n + 1))
	done
	[ "$n" -ge 10 ] || fail "only $n fixtures"
}

@test "the facts of known hosts: LAG, InfiniBand, lossless priorities, a DCB-less NIC" {
	run rd cx6dx-lag port features
	assert_success
	assert_line rdma.capable=true
	assert_line rdma.lag=true
	assert_line rdma.roce-v2=true
	assert_line rdma.link-speed-gbps=100
	assert_line rdma.lossless-prios=3
	# Two ports on two PCI functions, not bonded: no LAG.
	run rd cx6dx port features
	assert_line rdma.lag=false
	assert_line rdma.devices=2
	# InfiniBand: no RoCE, and no Ethernet netdev whose PFC could be lossless.
	run rd ib-hdr port features
	assert_line rdma.roce-v2=false
	assert_line rdma.link-speed-gbps=200
	refute_line --regexp '^rdma\.lossless-prios='
	# Several priorities: joined with _, which label values allow (a comma they do not).
	run rd lossless-broken port features
	assert_line rdma.lossless-prios=3_4_6
	# PFC off on a port: the node is not lossless on any priority.
	run rd degraded port features
	assert_line rdma.lossless-prios=none
	run rd degraded -j port features
	[ "$(jq -c .lossless_prios <<<"$output")" = "[]" ]
}

@test "a fact that cannot be known is no line and null, never a guess" {
	# A bundle without a kernel recording: no RDMA netlink, so no netns mode.
	run --separate-stderr rd rxe -j port features
	assert_success
	jq -e '.netns_mode == null and ([.labels[] | select(startswith("rdma.netns-mode="))] == [])' \
		<<<"$output" >/dev/null || fail "$output"
	# rxe's netdevs are virtual: DCB unknown, so no lossless line either.
	jq -e '.lossless_prios == null' <<<"$output" >/dev/null || fail "$output"
}

@test "a host without RDMA devices is labelled not capable, exit 0" {
	mkdir -p "$BATS_TEST_TMPDIR/root/sys/class/net"
	run --separate-stderr "$RDMACTL" --root "$BATS_TEST_TMPDIR/root" port features
	assert_success
	assert_line rdma.capable=false
	assert_line rdma.devices=0
	refute_line --regexp 'link-speed|lossless'
}

@test "out FILE: replaced whole, 0644, nothing printed in text; the JSON names it" {
	local f=$BATS_TEST_TMPDIR/features.d/rdmactl
	mkdir -p "${f%/*}"
	echo stale=1 >"$f"
	run --separate-stderr rd cx6dx-lag port features out "$f"
	assert_success
	assert_output ""
	[ "$(stat -c %a "$f")" = 644 ]
	grep -qx rdma.lag=true "$f"
	! grep -q stale "$f"
	# No temporary file left beside it: NFD reads every file in the folder.
	[ "$(ls -A "${f%/*}")" = rdmactl ]
	run --separate-stderr rd cx6dx-lag -j port features out "$f"
	assert_success
	[ "$(jq -r .file <<<"$output")" = "$f" ]
	[ "$(jq -r '.labels[]' <<<"$output")" = "$(cat "$f")" ]
}

@test "out FILE refuses what it must not replace, and leaves the old file as it was" {
	local f=$BATS_TEST_TMPDIR/target
	echo keep >"$BATS_TEST_TMPDIR/real"
	ln -s "$BATS_TEST_TMPDIR/real" "$f"
	run --separate-stderr rd cx6dx port features out "$f"
	assert_failure 1
	[[ $stderr == *"$f"* ]] || fail "the error does not name the file: $stderr"
	[ "$(cat "$BATS_TEST_TMPDIR/real")" = keep ]
	run --separate-stderr rd cx6dx port features out /dev/null
	assert_failure 1
	run --separate-stderr rd cx6dx port features out "$BATS_TEST_TMPDIR/no/such/dir/f"
	assert_failure 1
	run --separate-stderr rd cx6dx port features surplus
	assert_failure 2
	run --separate-stderr rd cx6dx port features out
	assert_failure 2
}
