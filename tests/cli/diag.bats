#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# diag: the check table, its grammar, the policy file, findings on fixture hosts, bundles
load ../helpers

setup() {
	command -v jq >/dev/null || skip "jq not installed"
}

# The check ids of `diag list -j`, one per line.
check_ids() {
	"$RDMACTL" -j diag list | jq -r '.checks[].id'
}

@test "diag list: at least 32 checks, ids unique, each with threshold and source" {
	run -0 "$RDMACTL" -j diag list
	echo "$output" | json_valid
	n=$(echo "$output" | jq '.checks | length')
	[ "$n" -ge 32 ]
	[ "$(echo "$output" | jq -r '.checks[].id' | sort -u | wc -l)" -eq "$n" ]
	echo "$output" | jq -e '.checks | all(.threshold != "" and .reads != "" and .title != "")'
	echo "$output" | jq -e '.checks | all(.severity == "fail" or .severity == "warn" or .severity == "info")'
	echo "$output" | jq -e '.policy | length >= 10'
	run -0 "$RDMACTL" diag list
	assert_output --partial "link.crc-errors"
	assert_output --partial "policy keys"
}

@test "diag list: every check id and policy key is in the man page" {
	man=$TOP/man/rdmactl-diag.8.scd
	for id in $(check_ids); do
		grep -qF "*$id*" "$man" || fail "$id not in rdmactl-diag(8)"
	done
	for key in $("$RDMACTL" -j diag list | jq -r '.policy[].key'); do
		grep -qE "^\|  $key\$" "$man" || fail "policy key $key not in rdmactl-diag(8)"
	done
}

@test "diag list: the man page's policy defaults are the code's" {
	man=$TOP/man/rdmactl-diag.8.scd
	"$RDMACTL" -j diag list | jq -r '.policy[] | "\(.key) \(.default)"' | while read -r key def; do
		got=$(awk -v k="|  $key" '$0 == k { getline; sub(/^:  /, ""); print; exit }' "$man")
		[ "$got" = "$def" ] || fail "$key: man says '$got', code '$def'"
	done
}

@test "diag: unknown check or family is a usage error before anything is read" {
	run -2 rd cx6dx diag check qos.nope
	assert_output --partial "'qos.nope' is no check id or family"
	run -2 rd cx6dx diag skip lnk
	assert_output --partial "'lnk' is no check id or family"
	run -2 rd cx6dx diag check
	assert_output --partial "'check' needs"
	run -2 rd cx6dx diag prio 4
	assert_output --partial "belong to 'profile roce-lossless'"
	run -2 rd cx6dx diag profile lossy
	run -2 rd cx6dx diag interval 0.01
	run -2 rd cx6dx diag interval 90000
	run -2 rd cx6dx diag interval 5 interval 6
}

@test "diag: a device that does not exist is an error" {
	run -1 rd cx6dx diag interval 0 mlx9_9
	assert_output --partial "mlx9_9"
}

@test "diag -f: policy errors name the line and nothing runs" {
	p=$BATS_TEST_TMPDIR/policy.yaml
	printf 'roce-prio: 3\nroce-prio: 4\n' >"$p"
	run -1 rd cx6dx diag interval 0 -f "$p"
	assert_output --partial "line 2: 'roce-prio' given twice"
	printf 'pause-pct: 3\n' >"$p"
	run -1 rd cx6dx diag interval 0 -f "$p"
	assert_output --partial "line 1: 'pause-pct' is no policy key"
	run -1 rd cx6dx diag interval 0 -f "$BATS_TEST_TMPDIR/missing.yaml"
	assert_output --partial "cannot open"
	printf 'roce-prio: 3\n' | rd cx6dx -j diag interval 0 -f - | json_valid
}

@test "diag: JSON shape on every fixture host, exit status follows the worst finding" {
	for host in "$HOSTS"/*/; do
		host=$(basename "$host")
		run rd "$host" -j diag interval 0
		[ "$status" -le 3 ] && [ "$status" -ne 2 ] || fail "$host: exit $status: $output"
		out=$output
		echo "$out" | json_valid || fail "$host: not JSON"
		worst=$(echo "$out" | jq -r '[.findings[].severity] | if any(. == "fail") then 1
			elif any(. == "warn") then 3 else 0 end')
		[ "$worst" = "$status" ] || fail "$host: exit $status, findings say $worst"
		echo "$out" | jq -e '.findings | all(.id and .severity and .title and (.evidence | type == "array"))' >/dev/null ||
			fail "$host: a finding lacks its keys"
		echo "$out" | jq -e '.skipped | all(.id and .reason)' >/dev/null || fail "$host: skipped without reason"
		echo "$out" | jq -e '.summary.checks_run >= 32' >/dev/null || fail "$host: summary"
	done
}

@test "diag: seed-gateway reports exactly the course's problems, each with its fix" {
	run -1 rd seed-gateway -j diag
	echo "$output" | json_valid
	got=$(echo "$output" | jq -r '[.findings[] | "\(.id) \(.netdev // "-")"] | sort | join(",")')
	want="bond.none -,link.crc-errors ens1f1np1,link.flapping ens1f1np1,link.mtu ens1f1np1,"
	want+="link.pre-fec-ber ens1f1np1,links.mtu-differs -,links.traffic-imbalance ens1f1np1"
	[ "$got" = "$want" ] || fail "findings: $got"
	# the window is the bundle's second sample: every view of the flap moved
	echo "$output" | jq -e '.interval_s == 5'
	echo "$output" | jq -e '.findings[] | select(.id == "link.flapping") | .evidence |
		(map(.name) | index("link_downed") != null and index("carrier_changes") != null)'
	# each counter typed: its total now, how much it moved, over the 5 s window
	echo "$output" | jq -e '.findings[] | select(.id == "link.flapping") | .evidence[] |
		select(.name == "carrier_changes") | (.value | type == "number") and .delta >= 1 and
		.window_s == 5 and .since_reset == false'
	echo "$output" | jq -e '.findings[] | select(.id == "links.traffic-imbalance") | .evidence |
		any(.name == "share_pct" and (.value | type == "number") and .value > 90 and
			.detail == "ens1f1np1")'
	echo "$output" | jq -e '.findings[] | select(.id == "links.traffic-imbalance") | .title |
		test("ens1f1np1 carried 98%")'
	echo "$output" | jq -e '.findings | all(.fix != null and .fix != "" and .why != "")'
	run -1 rd seed-gateway diag
	assert_output --partial "rdmactl port set ens1f1np1 mtu 9000"
	assert_output --partial "rdmactl bond create bond0 mode 802.3ad members ens1f0np0,ens1f1np1"
	refute_output --partial "sampling counters" # offline: no wait announced
}

@test "diag: clean-2port finds nothing and exits 0, with and without a window" {
	run -0 rd clean-2port -j diag interval 0
	echo "$output" | jq -e '.findings == []'
	run -0 rd clean-2port -j diag
	echo "$output" | jq -e '.findings == [] and .summary.fail == 0 and .summary.warn == 0'
	run -0 rd clean-2port diag
	assert_line --regexp '^2 ports, [0-9]+ checks: 0 failed, 0 warnings, 0 notes'
}

@test "diag: YAML is the same document" {
	a=$(rd cx6dx -j diag interval 0 | jq -S .) || true
	b=$(rd cx6dx --yaml diag interval 0 | yaml_to_json | jq -S .) || true
	[ "$a" = "$b" ]
}

@test "diag: check and skip choose what runs" {
	run rd cx6dx -j diag interval 0 check qos
	[ "$status" -ne 2 ]
	all=$("$RDMACTL" -j diag list | jq '[.checks[] | select(.family == "qos")] | length')
	[ "$(echo "$output" | jq .summary.checks_run)" -eq "$all" ]
	echo "$output" | jq -e '[.findings[].id, .skipped[].id] | all(startswith("qos."))'
	run rd cx6dx -j diag interval 0 skip qos link
	echo "$output" | jq -e '[.findings[].id, .skipped[].id] | all(startswith("qos.") or startswith("link.") | not)'
}

@test "diag: text groups by port and ends with one summary line" {
	run rd cx6dx diag interval 0
	[ "$status" -ne 2 ]
	assert_line --regexp '^[0-9]+ ports, [0-9]+ checks: [0-9]+ failed, [0-9]+ warnings, [0-9]+ notes, [0-9]+ skipped$'
	[ "${lines[-1]}" = "$(echo "$output" | tail -n1)" ]
	echo "${lines[-1]}" | grep -q "checks:"
}

@test "diag -b: one line per finding with its object, skipped checks in one line, JSON as without -b" {
	run --separate-stderr rd lag-mistakes -b diag interval 0
	[ "$status" -eq 1 ] || fail "exit $status: $stderr"
	nfind=$(rd lag-mistakes -j diag interval 0 | jq '.findings | length')
	[ "$nfind" -ge 5 ]
	# Each finding starts a line "SEV ID OBJECT: ..."; continuation lines are indented.
	[ "$(grep -cE '^(fail|warn|info) +[a-z]+\.[a-z0-9-]+ [^ ]+: ' <<<"$output")" -eq "$nfind" ] || fail "$output"
	refute_output --partial "why:"
	refute_output --partial "fix:"
	assert_line --regexp '^fail +bond\.mode-no-roce-lag bond1: '
	assert_line --regexp '^[0-9]+ checks skipped: -v lists them with why$'
	# Lines that are neither a finding, a continuation, the skip line nor the summary: none.
	[ -z "$(grep -vE '^(fail|warn|info) |^      [^ ]|checks skipped: |^[0-9]+ ports, ' <<<"$output")" ] || fail "$output"
	# -b after the verb is the same; JSON and YAML do not change with it.
	run -1 rd lag-mistakes diag -b interval 0
	[ "$(grep -cE '^(fail|warn|info) ' <<<"$output")" -eq "$nfind" ]
	[ "$(rd lag-mistakes -j -b diag interval 0)" = "$(rd lag-mistakes -j diag interval 0)" ]
	[ "$(rd lag-mistakes --yaml -b -v diag interval 0)" = "$(rd lag-mistakes --yaml diag interval 0)" ]
}

@test "diag: skipped checks are one line in text, each listed with -v, none with -q; JSON lists them all" {
	n=$(rd cx6dx -j diag interval 0 | jq '.skipped | length')
	[ "$n" -ge 2 ]
	run -3 rd cx6dx diag interval 0
	assert_line "$n checks skipped: -v lists them with why"
	refute_line --regexp '^  skip '
	run -3 rd cx6dx -v diag interval 0
	[ "$(grep -c '^  skip ' <<<"$output")" -eq "$n" ] || fail "$output"
	refute_output --partial "checks skipped:"
	run -3 rd cx6dx -q diag interval 0
	refute_output --partial "skipped:"
	refute_line --regexp '^  skip '
}

@test "diag --root: an interval the bundle cannot give is an error naming what it has; unasked, the bundle's own window" {
	# One sample (cx6dx): no window at all.
	run --separate-stderr rd cx6dx -j diag interval 30
	assert_failure 2
	[ "$(jq -r .error.id <<<"$output")" = usage ] || fail "$output"
	[[ $stderr == *"interval 30 s: the bundle holds one sample, no window to measure rates over (leave out the interval)"* ]] || fail "$stderr"
	run --separate-stderr rd cx6dx -j diag
	[ "$status" -ne 2 ] || fail "$stderr"
	jq -e '.interval_s == 0' <<<"$output"
	# Two samples 5 s apart (seed-gateway): 30 is refused, 5 (or about 5) and nothing give 5.
	run --separate-stderr rd seed-gateway -j diag interval 30
	assert_failure 2
	[[ $stderr == *"interval 30 s: the bundle's two samples are 5 s apart (use interval 5, or leave it out)"* ]] || fail "$stderr"
	for args in "" "interval 5" "interval 5.2"; do
		# shellcheck disable=SC2086
		run --separate-stderr rd seed-gateway -j diag $args
		[ "$status" -ne 2 ] || fail "'$args': $stderr"
		jq -e '.interval_s == 5' <<<"$output" || fail "'$args': $output"
	done
	run --separate-stderr rd seed-gateway -j diag interval 0
	jq -e '.interval_s == 0' <<<"$output"
	# diag metrics reads the same way.
	run --separate-stderr rd cx6dx diag metrics interval 30
	assert_failure 2
	[[ $stderr == *"the bundle holds one sample"* ]] || fail "$stderr"
}

@test "diag: no title, reason or value is cut on any fixture, in JSON or text" {
	for h in "$HOSTS"/*/; do
		h=$(basename "$h")
		out=$(rd "$h" -j diag interval 0 2>/dev/null) || true
		[ "$(jq -r .kind <<<"$out")" = diag-run ] || fail "$h: $out"
		# Whole: none needed the " ..." a string too long for its field ends with.
		# (evidence values are typed: only the words can be cut; details are words too)
		jq -e '[.findings[] | .title, .why, .fix, (.evidence[] | .value | strings),
			(.evidence[].detail | strings)] + [.skipped[].reason]
			| all(endswith(" ...") | not)' <<<"$out" >/dev/null || fail "$h: cut: $out"
	done
	# The longest reason: the kernel's word, our hint, whole (it was cut at 160 bytes).
	run --separate-stderr rd rxe-bond -j diag interval 0
	jq -e '[.skipped[].reason | select(startswith("DCB not read"))] | length > 0 and
		all(endswith("have no DCB support)"))' <<<"$output" || fail "$output"
	run --separate-stderr rd rxe-bond -v diag interval 0
	assert_output --partial "have no DCB support)"
}

@test "diag: completion offers check ids after check and skip" {
	run -0 "$RDMACTL" __complete diag check link.cr
	assert_output "link.crc-errors"
	run -0 "$RDMACTL" __complete diag skip q
	assert_line "qos"
	run -0 "$RDMACTL" __complete diag check qos ""
	assert_line "interval"
	assert_line "qos.pfc-off"
}

@test "diag collect: refused under --root (it reads the live host), exit 1 as every live-only action" {
	run -1 rd cx6dx diag collect out "$BATS_TEST_TMPDIR/b.tar.gz"
	assert_output --partial "reads the live host"
	[ ! -e "$BATS_TEST_TMPDIR/b.tar.gz" ]
	run --separate-stderr rd cx6dx -j diag collect
	assert_failure 1
	[ "$(jq -r .error.id <<<"$output")" = live-only ] || fail "$output"
	run --separate-stderr rd cx6dx-lag -j bond failover bond0 wait 1 peer 198.18.100.2
	assert_failure 1
	[ "$(jq -r .error.id <<<"$output")" = live-only ] || fail "$output"
}

@test "diag collect out: never through a link, over a device or another user's file; default names never shared" {
	cd "$BATS_TEST_TMPDIR"
	echo precious >target
	ln -s target link.tar.gz
	# Refused before any sampling: the link and its target untouched, nothing left.
	run -1 "$RDMACTL" diag collect out link.tar.gz interval 0
	assert_output --partial "cannot write 'link.tar.gz': it is a symbolic link"
	[ "$(cat target)" = precious ] && [ -L link.tar.gz ]
	run -1 "$RDMACTL" diag collect out /dev/null interval 0
	assert_output --partial "it is a device"
	[ -c /dev/null ]
	if [ "$(id -u)" -eq 0 ]; then
		echo theirs >theirs.tar.gz
		chown 65534 theirs.tar.gz
		chmod 666 theirs.tar.gz
		run -1 "$RDMACTL" diag collect out theirs.tar.gz interval 0
		assert_output --partial "it belongs to user 65534, not to us"
		[ "$(cat theirs.tar.gz)" = theirs ]
	fi
	# A bundle over our own older one: replaced whole, 0600 whatever the umask.
	echo old >own.tar.gz
	chmod 666 own.tar.gz
	run -0 bash -c "umask 000 && '$RDMACTL' diag collect out own.tar.gz interval 0 >/dev/null"
	[ "$(stat -c %a own.tar.gz)" = 600 ]
	tar -tzf own.tar.gz | grep -qx './kernel.rec'
	# Two default-named collects at once: two bundles, whatever second they fall in.
	mkdir two && cd two
	"$RDMACTL" -j diag collect interval 0 >a.json &
	"$RDMACTL" -j diag collect interval 0 >b.json
	wait $!
	[ "$(jq -r .out a.json)" != "$(jq -r .out b.json)" ]
	[ "$(ls rdmactl-bundle-*.tar.gz | wc -l)" -eq 2 ]
	for f in rdmactl-bundle-*.tar.gz; do tar -tzf "$f" | grep -qx './kernel.rec'; done
	# No temporary file beside them.
	[ -z "$(ls -A | grep -v -e '^rdmactl-bundle-' -e '\.json$')" ]
}

@test "diag collect: a bundle of this host reads back with --root, same findings, nothing secret" {
	cd "$BATS_TEST_TMPDIR"
	run -0 "$RDMACTL" -j diag collect out b.tar.gz interval 0.2
	echo "$output" | jq -e '.out == "b.tar.gz" and .size_bytes > 0'
	[ "$(stat -c %a b.tar.gz)" = 600 ]
	tar -tzf b.tar.gz >list
	grep -qx './kernel.rec' list
	grep -qx './VERSIONS' list
	! grep -E '^\./proc/(self|[0-9]+)/|environ|/etc/|ssh' list
	tar -xzf b.tar.gz ./VERSIONS -O | grep -q "^kernel: $(uname -r)\$"
	# libibverbs is not linked: collect loads it to name rdma-core's version.
	tar -xzf b.tar.gz ./VERSIONS -O | grep -qE '^rdma-core: [0-9]+ \(/.*/libibverbs\.so\.1\.[0-9.]+\)$'
	live=$("$RDMACTL" -j diag interval 0 | jq -c '[.findings[].id] | sort') || true
	mkdir scratch
	offline=$(TMPDIR=$PWD/scratch "$RDMACTL" --root b.tar.gz -j diag interval 0 |
		jq -c '[.findings[].id] | sort') || true
	[ "$live" = "$offline" ]
	# The unpacked tarball is removed when rdmactl exits.
	[ -z "$(ls -A scratch)" ]
}

@test "diag collect: interrupted while sampling (SIGINT, SIGTERM, SIGHUP), nothing is left behind" {
	local sig i rc scr=$BATS_TEST_TMPDIR/scratch here=$BATS_TEST_TMPDIR/here
	mkdir -p "$scr" "$here"
	cd "$here"
	for sig in INT TERM HUP; do
		# As from a terminal: SIGINT's default back (a shell's background job ignores it).
		python3 -c '
import signal, subprocess, sys
p = subprocess.Popen(sys.argv[2:], stderr=open(sys.argv[1], "w"),
                     preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
with open(sys.argv[1] + ".pid", "w") as f:
    f.write(str(p.pid))
sys.exit(p.wait() & 255)
' "$BATS_TEST_TMPDIR/err" env TMPDIR="$scr" "$RDMACTL" diag collect interval 30 &
		# Sampling: its scratch directory is there and the first sample taken.
		for ((i = 0; i < 50; i++)); do
			grep -q collecting "$BATS_TEST_TMPDIR/err" 2>/dev/null && [ -n "$(ls -A "$scr")" ] && break
			sleep 0.1
		done
		[ -n "$(ls -A "$scr")" ] || fail "$sig: no scratch directory was made"
		sleep 0.3
		kill -"$sig" "$(cat "$BATS_TEST_TMPDIR/err.pid")"
		rc=0
		wait $! || rc=$?
		if [ "$sig" = HUP ]; then
			# Ended by the signal (python's -1, & 255): its guard removes the scratch a moment later.
			[ "$rc" -eq 255 ] || fail "HUP: exit $rc"
			for ((i = 0; i < 20; i++)); do
				[ -n "$(ls -A "$scr")" ] || break
				sleep 0.1
			done
		else
			# Stopped cleanly: exit 1, said, everything removed before rdmactl ended.
			[ "$rc" -eq 1 ] || fail "$sig: exit $rc: $(cat "$BATS_TEST_TMPDIR/err")"
			grep -q "interrupted before the second sample" "$BATS_TEST_TMPDIR/err" ||
				fail "$sig: $(cat "$BATS_TEST_TMPDIR/err")"
		fi
		[ -z "$(ls -A "$scr")" ] || fail "$sig: scratch left behind: $(ls -A "$scr")"
		# No bundle and no empty reserved rdmactl-bundle-*.tar.gz.
		[ -z "$(ls -A "$here")" ] || fail "$sig: left here: $(ls -A "$here")"
	done
}
