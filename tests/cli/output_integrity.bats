#!/usr/bin/env bats
# Output integrity (issue 22, item 6): a name read from a host (here an RDMA
# device renamed in a copied snapshot) holding a newline, a bidi override
# (U+202E) and a zero-width space cannot forge a row or reorder what a reader
# sees: text escapes them (\x0a, \u202e, \u200b) the same way in every table,
# JSON and YAML carry them as \uXXXX escapes that read back to the same name,
# Prometheus label values as the text \uXXXX; argv echoed in an error too.
load ../helpers

RLO=$'\u202e'
ZWSP=$'\u200b'
NAME=$'mlx5\nFAKE ROW '"${RLO}evil${ZWSP}"

setup() {
	H=$BATS_TEST_TMPDIR/host
	cp -a "$HOSTS/cx6dx" "$H"
	local link=$H/sys/class/infiniband/mlx5_0 target
	target=$(readlink "$link")
	mv "$H/sys/class/infiniband/$target" "$H/sys/class/infiniband/$(dirname "$target")/$NAME"
	rm "$link"
	ln -s "$(dirname "$target")/$NAME" "$H/sys/class/infiniband/$NAME"
}

rh() {
	"$RDMACTL" --root "$H" "$@"
}

# No raw bidi or zero-width character, and no line that starts with the forged row.
clean_text() {
	if grep -q "$RLO\|$ZWSP" <<<"$1"; then
		fail "a raw U+202E or U+200B in: $1"
	fi
	if grep -q '^FAKE ROW' <<<"$1"; then
		fail "a forged row in: $1"
	fi
}

@test "output: a device name with a newline and bidi controls is escaped in every text table" {
	# A window and an empty second sample (it reads the same files: zero rates).
	echo 5 >"$H/WINDOW"
	mkdir -p "$H/samples/2"
	for args in "port" "port gids" "-b port" "port stats interval 5" \
		"diag run interval 0"; do
		# shellcheck disable=SC2086 # the words are the arguments
		run rh $args
		[ "$status" -le 3 ] || fail "$args: exit $status"
		clean_text "$output"
		[[ "$output" == *'mlx5\x0aFAKE ROW \u202eevil\u200b'* ]] || fail "$args: not escaped: $output"
	done
}

@test "output: JSON carries the name as \\uXXXX escapes and reads back the same" {
	run rh -j port gids
	[ "$status" = 0 ]
	clean_text "$output"
	[[ "$output" == *'"mlx5\nFAKE ROW \u202eevil\u200b"'* ]]
	[ "$(jq -r '.gids[0].device' <<<"$output")" = "$NAME" ]
}

@test "output: YAML double-quotes the name with \\u escapes, and a YAML reader gets it back" {
	run rh --yaml port
	[ "$status" = 0 ]
	clean_text "$output"
	[[ "$output" == *'"mlx5\nFAKE ROW \u202eevil\u200b"'* ]] || fail "$output"
	[ "$(yaml_to_json <<<"$output" | jq -r '[.. | strings | select(startswith("mlx5\n"))][0]')" = "$NAME" ]
}

@test "output: Prometheus label values hold the text \\u202e, one sample a line" {
	run rh diag metrics
	[ "$status" -le 1 ]
	clean_text "$output"
	[[ "$output" == *'device="mlx5\nFAKE ROW \\u202eevil\\u200b"'* ]] || fail "$output"
	# Every line is a comment or a sample: nothing the name could have split off.
	run grep -cvE '^(#|[a-zA-Z_:][a-zA-Z0-9_:]*(\{.*\})? )' <<<"$output"
	[ "$output" = 0 ]
}

@test "output: argv echoed in an error is escaped (ESC, bidi)" {
	run "$RDMACTL" $'\e[31mverb'
	[ "$status" = 2 ]
	[[ "$output" == *"'\\x1b[31mverb'"* ]] || fail "$output"
	[[ "$output" != *$'\e'* ]]
	run "$RDMACTL" --root "$HOSTS/cx6dx" port show dev "a${RLO}b"
	[ "$status" -ne 0 ]
	[[ "$output" == *'a\u202eb'* ]] || fail "$output"
	clean_text "$output"
}

@test "output: a full disk under stdout is exit 1 whatever the verdict, and named" {
	for args in "-j diag run interval 0" "port" "--yaml port gids" "diag metrics"; do
		# shellcheck disable=SC2086 # the words are the arguments
		run --separate-stderr "$RDMACTL" --root "$HOSTS/cx6dx" $args
		[ "$status" -le 3 ] || fail "$args: $status"
		# shellcheck disable=SC2086
		run --separate-stderr bash -c '"$@" >/dev/full' _ "$RDMACTL" --root "$HOSTS/cx6dx" $args
		[ "$status" = 1 ] || fail "$args >/dev/full: exit $status"
		[ "$stderr" = "rdmactl: cannot write output: No space left on device" ] || fail "$args: $stderr"
	done
}

@test "output: a message lost to a full stderr turns a success into exit 1" {
	# -v says on stderr which member holds the bond's DCB.
	run --separate-stderr "$RDMACTL" -v --root "$HOSTS/cx6dx-lag" pfc show dev bond0
	assert_success
	[[ $stderr == *"its DCB is ens1f0np0's"* ]] || fail "$stderr"
	run bash -c '"$0" -v --root "$1" pfc show dev bond0 2>/dev/full >/dev/null' "$RDMACTL" "$HOSTS/cx6dx-lag"
	[ "$status" = 1 ] || fail "exit $status"
	# Nothing on stderr to lose: still a success.
	run bash -c '"$0" --root "$1" port 2>/dev/full >/dev/null' "$RDMACTL" "$HOSTS/cx6dx"
	assert_success
}
