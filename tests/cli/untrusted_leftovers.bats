#!/usr/bin/env bats
# Untrusted input (issue 12), leftovers from review: diag and bench hear about
# unreadable GID slots instead of losing them, an unreadable operstate is "?"
# in diag's evidence, strict replay is judged by the command's end (not at
# exit), and a bundle's kernel.rec resolves inside the --root jail.
load ../helpers

IB=sys/devices/pci0000:00/0000:00:02.0/0000:3b:00.0/infiniband/mlx5_0
ND=sys/devices/pci0000:00/0000:00:02.0/0000:3b:00.0/net/ens1f0np0

setup() {
	H=$BATS_TEST_TMPDIR/host
	cp -a "$HOSTS/cx6dx" "$H"
}

rh() {
	"$RDMACTL" --root "$H" "$@"
}

# Make a file exist but fail to read: a directory in its place.
unreadable() {
	rm -f "$H/$1"
	mkdir "$H/$1"
}

@test "leftovers: diag does not call a GID missing that sits in an unreadable slot" {
	# Slot 3 is the RoCE v2 GID of 192.168.10.11; slot 2 its RoCE v1 twin.
	unreadable "$IB/ports/1/gids/3"
	run --separate-stderr rh -j diag check transport.gid-missing
	echo "$output" | json_valid
	[ "$(echo "$output" | jq '.findings | length')" = 0 ] || fail "$output"
	[ "$(echo "$output" | jq -r '.skipped[0].reason')" = "GID slot(s) 3 could not be read" ] ||
		fail "$output"
	# The slot is named on stderr and the run says it could not read everything.
	assert_equal "$status" 1
	[[ $stderr == *"gids/3"* ]] || fail "$stderr"
	# The same table read whole is judged as before.
	run --separate-stderr "$RDMACTL" --root "$HOSTS/cx6dx" -j diag check transport.gid-missing
	[ "$(echo "$output" | jq '.skipped | length')" = 0 ] || fail "$output"
}

@test "leftovers: an unreadable operstate is null in diag's evidence (? in the title), never empty" {
	printf '0\n' >"$H/$ND/carrier"
	unreadable "$ND/operstate"
	run --separate-stderr rh -j diag check link.no-carrier
	echo "$output" | json_valid
	[ "$(echo "$output" | jq -r '.findings[0].title')" = "ens1f0np0 is up but has no carrier (operstate ?)" ] ||
		fail "$output"
	# Schema 3: a value that could not be read is null, never a placeholder string.
	echo "$output" | jq -e '[.findings[0].evidence[] | select(.name == "operstate")] |
		length == 1 and (.[0] | .value == null and .source == "/sys/class/net/ens1f0np0/operstate")' \
		>/dev/null || fail "$output"
	assert_equal "$status" 1
	[[ $stderr == *"/sys/class/net/ens1f0np0/operstate"* ]] || fail "$stderr"
	# Text says why instead of an empty value.
	run --separate-stderr rh diag check link.no-carrier
	assert_output --partial "operstate = not read"
	# port shows it as null with a warning naming the file (exit 1).
	run --separate-stderr rh -j port mlx5_0
	assert_equal "$status" 1
	[ "$(echo "$output" | jq -r '.ports[0].operstate')" = null ]
	[[ $stderr == *"/sys/class/net/ens1f0np0/operstate"* ]] || fail "$stderr"
}

@test "leftovers: a bundle's kernel.rec link resolves inside the root, never on the host" {
	local outside=$BATS_TEST_TMPDIR/outside.rec
	# The same absolute path names the bundle's good recording inside the root
	# and a host file that is no recording outside it.
	printf 'HOSTSECRET\n' >"$outside"
	mkdir -p "$H/$BATS_TEST_TMPDIR"
	mv "$H/kernel.rec" "$H/$outside"
	ln -s "$outside" "$H/kernel.rec"
	run --separate-stderr rh -j port
	assert_success
	echo "$output" | json_valid
	[[ $stderr != *HOSTSECRET* && $stderr != *"kernel recording"* ]] || fail "$stderr"
	# Where the bundle lacks the target there is no recording, and still no host file.
	rm "$H/$outside"
	run --separate-stderr rh -j port
	assert_success
	[[ $stderr != *"kernel recording"* ]] || fail "$stderr"
}

@test "leftovers: strict replay is judged after the output and keeps a failing exit status" {
	# The strict lines follow the output, which was written whole.
	RDMACTL_REPLAY_STRICT=1 run --separate-stderr "$RDMACTL" --root "$HOSTS/cx6dx" -j port
	assert_equal "$status" 1
	jq -e '.schema == 3' <<<"$output" >/dev/null
	[[ $stderr == "rdmactl: strict replay: "* ]] || fail "$stderr"
	# A usage error stays a usage error.
	RDMACTL_REPLAY_STRICT=1 run --separate-stderr "$RDMACTL" --root "$HOSTS/cx6dx" port stats interval 0
	assert_equal "$status" 2
}

@test "leftovers: a FIFO in a GID's type or ndev file is an unreadable slot, never an unused one" {
	local d
	d=$(readlink -f "$H/sys/class/infiniband/mlx5_0")/ports/1/gid_attrs
	rm "$d/types/3"
	mkfifo "$d/types/3"
	run --separate-stderr timeout 10 "$RDMACTL" --root "$H" -j port gids mlx5_0
	assert_equal "$status" 1
	echo "$output" | json_valid
	# Slot 3 is still listed (null type), and named on stderr.
	jq -e '[.gids[] | select(.index == 3)] | length == 1' <<<"$output" || fail "$output"
	[[ $stderr == *"gid_attrs/types/3"* ]] || fail "$stderr"
}

@test "leftovers: kernel counter names that YAML reads as null, bool or int stay strings" {
	local d name
	d=$(readlink -f "$H/sys/class/infiniband/mlx5_0")/ports/1/hw_counters
	for name in null on 123 yes; do printf '5\n' >"$d/$name"; done
	run --separate-stderr "$RDMACTL" --root "$H" --yaml port stats mlx5_0
	assert_success
	python3 -c '
import sys, yaml
hw = {c["name"]: c["value"] for c in yaml.safe_load(sys.stdin)["stats"][0]["counters"] if c["group"] == "hw"}
for name in ("null", "on", "123", "yes"):
    assert hw.get(name) == 5, (name, sorted(map(str, hw)))
' <<<"$output" || fail "$output"
}

@test "leftovers: every unreadable counter is null in port stats, not only the first six" {
	local d name n=0
	d=$(readlink -f "$H/sys/class/infiniband/mlx5_0")/ports/1/hw_counters
	for name in duplicate_request implied_nak_seq_err local_ack_timeout_err np_cnp_sent \
		np_ecn_marked_roce_packets out_of_buffer out_of_sequence packet_seq_err req_cqe_error; do
		unreadable "${d#"$H"/}/$name"
		n=$((n + 1))
	done
	run --separate-stderr rh -j port stats mlx5_0
	assert_equal "$status" 1
	jq -e --argjson n "$n" "$JQ_CMAP"'(.stats[0] | cmap).hw | with_entries(select(.value == null)) | length == $n' \
		<<<"$output" || fail "$output"
	[[ $stderr == *"3 more values could not be read"* ]] || fail "$stderr"
}

# The first RTM_GETDCB reply of a recording with its DCB_ATTR_DCB_BUFFER's prio2buffer[4]
# set to 160 (a bit flip the corrupt tier found): written to $1.
buffer_flip() {
	python3 - "$HOSTS/cx6dx/kernel.rec" "$1" <<'PY'
import struct, sys
lines = open(sys.argv[1]).read().split("\n")
for n, line in enumerate(lines):
    if not line.startswith("< "):
        continue
    b = bytearray.fromhex(line[2:])
    if struct.unpack_from("<H", b, 4)[0] != 78:  # RTM_GETDCB
        continue
    off = 20
    while off + 4 <= len(b):
        alen, atype = struct.unpack_from("<HH", b, off)
        if atype & 0x3fff == 13:  # DCB_ATTR_IEEE
            sub = off + 4
            while sub + 4 <= off + alen:
                slen, stype = struct.unpack_from("<HH", b, sub)
                if stype == 10:  # DCB_ATTR_DCB_BUFFER: prio2buffer[8] first
                    b[sub + 4 + 4] = 160
                    lines[n] = "< " + b.hex()
                    open(sys.argv[2], "w").write("\n".join(lines))
                    sys.exit(0)
                sub += (slen + 3) & ~3
        off += (alen + 3) & ~3
sys.exit("no DCB buffer attribute found")
PY
}

@test "untrusted: a dcbnl reply with a buffer past 7 is shown without it, said, exit 1" {
	mkdir "$BATS_TEST_TMPDIR/h"
	cp -a "$HOSTS/cx6dx/." "$BATS_TEST_TMPDIR/h/"
	buffer_flip "$BATS_TEST_TMPDIR/h/kernel.rec"
	run --separate-stderr "$RDMACTL" --root "$BATS_TEST_TMPDIR/h" -j pfc show dev ens1f0np0
	assert_failure 1
	[ "$(jq -c '.netdevs[0].buffer' <<<"$output")" = \
	  '{"source":"unknown","reason":"the dcbnl reply'"'"'s values are out of range: left out","prio_buffer":null,"buffer_size_bytes":null,"total_size_bytes":null}' ]
	[[ $stderr == *"ens1f0np0: the dcbnl reply's buffer section held values no driver can"* ]] || fail "$stderr"
}
