#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# The Debian package's systemd units and udev rule, without systemd running: each unit's
# command run as systemd would run it (with /etc/default/rdmactl's words) on a fixture host or
# the dcbnl NIC double, systemd-analyze's security review and verify, and the udev rule's
# match keys.  The installed package: scripts/deb-smoke.
load ../helpers

DEB=$TOP/debian
DOUBLE=$TOP/build/dcb-double

# The words systemd makes of UNIT's one ExecStart= for instance INST (may be empty), with the
# variables of the environment file ENV: %i and %I replaced, a word "$VAR" split at
# whitespace (no word when empty or unset), "${VAR}" one word.  One word a line.  The units
# use no quotes, specifiers other than %i/%I, or prefixes (-@+!:), which this checks.
exec_words() {
	local unit=$1 env=$2 inst=${3:-} line
	[ "$(grep -c '^ExecStart=' "$unit")" -eq 1 ] || { echo "not one ExecStart= in $unit" >&2; return 1; }
	line=$(sed -n 's/^ExecStart=//p' "$unit")
	if [[ $line == *[\"\'\\]* || $line == [-@+!:]* ]] || grep -q '%[^iI]' <<<"$line"; then
		echo "ExecStart= of $unit has syntax this helper does not read: $line" >&2
		return 1
	fi
	line=${line//%i/$inst}
	line=${line//%I/$inst}
	(
		set -f
		# Only the file's variables: systemd passes none of this shell's.
		for w in $line; do
			case $w in \$\{*\}) unset "${w:2:-1}" ;; \$*) unset "${w:1}" ;; esac
		done
		set -a
		# shellcheck disable=SC1090 # the file under test
		. "$env"
		set +a
		for w in $line; do
			case $w in
			\$\{*\}) n=${w:2:-1} && printf '%s\n' "${!n-}" ;;
			\$*) n=${w:1} && for x in ${!n-}; do printf '%s\n' "$x"; done ;;
			*) printf '%s\n' "$w" ;;
			esac
		done
	)
}

# UNIT's command as an array CMD: exec_words, then /usr/sbin/rdmactl -> $RDMACTL and the
# paths of the host (/etc/rdmactl/pfc.yaml, the textfile directory) -> ours.
unit_cmd() {
	local unit=$1 env=$2 inst=${3:-} w words
	words=$(exec_words "$unit" "$env" "$inst") || return 1
	CMD=()
	while IFS= read -r w; do
		case $w in
		/usr/sbin/rdmactl) w=$RDMACTL ;;
		/etc/rdmactl/pfc.yaml) w=$BATS_TEST_TMPDIR/pfc.yaml ;;
		/var/lib/prometheus/node-exporter/*) w=$BATS_TEST_TMPDIR/textfile/${w##*/} ;;
		esac
		CMD+=("$w")
	done <<<"$words"
	[ "${CMD[0]}" = "$RDMACTL" ] || { echo "$unit does not run /usr/sbin/rdmactl: ${CMD[0]}" >&2; return 1; }
}

@test "debian/rdmactl-metrics.service: its command runs (on a fixture, into a temporary directory)" {
	local unit=$DEB/rdmactl-metrics.service env=$BATS_TEST_TMPDIR/default
	grep -qx 'Type=oneshot' "$unit"
	grep -qx 'ConditionDirectoryNotEmpty=/sys/class/infiniband' "$unit"
	grep -qx 'ConditionPathIsDirectory=/var/lib/prometheus/node-exporter' "$unit"
	grep -qx 'EnvironmentFile=-/etc/default/rdmactl' "$unit"
	grep -qx 'OnCalendar=minutely' "$DEB/rdmactl-metrics.timer"
	# shellcheck disable=SC2016 # the unit's own $ words
	[[ $(sed -n 's/^ExecStart=//p' "$unit") == "/usr/sbin/rdmactl "*' $RDMACTL_METRICS_ARGS out /var/lib/prometheus/node-exporter/rdmactl.prom' ]]
	mkdir "$BATS_TEST_TMPDIR/textfile"
	# /etc/default/rdmactl as shipped (every variable commented out): no extra word.
	unit_cmd "$unit" "$DEB/rdmactl.default"
	[ "${CMD[*]:1}" = "-q diag metrics out $BATS_TEST_TMPDIR/textfile/rdmactl.prom" ]
	run -0 "$RDMACTL" --root "$HOSTS/cx6dx" "${CMD[@]:1}"
	[ -z "$output" ]
	promtool check metrics <"$BATS_TEST_TMPDIR/textfile/rdmactl.prom"
	grep -qx 'rdmactl_scrape_success 1' "$BATS_TEST_TMPDIR/textfile/rdmactl.prom"
	# As the Ansible role writes it (quoted, several words): each a word of its own.
	printf '%s\n' 'RDMACTL_METRICS_ARGS="ens1f1np1 -f -"' >"$env" # a policy on stdin
	unit_cmd "$unit" "$env"
	[ "${CMD[*]:1}" = "-q diag metrics ens1f1np1 -f - out $BATS_TEST_TMPDIR/textfile/rdmactl.prom" ]
	run -0 "$RDMACTL" --root "$HOSTS/cx6dx" "${CMD[@]:1}" <<<"carrier-changes-warn: 5"
	[ -z "$output" ]
	grep -q 'netdev="ens1f1np1"' "$BATS_TEST_TMPDIR/textfile/rdmactl.prom"
	grep -q 'netdev="ens1f0np0"' "$BATS_TEST_TMPDIR/textfile/rdmactl.prom" && fail "a port not named was exported"
	true
}

@test "/etc/default/rdmactl: every variable the units use, commented out; what Ansible edits" {
	local f=$DEB/rdmactl.default v
	for v in $(grep -ho '\$[A-Z_]*' "$DEB"/rdmactl-*.service | sort -u | tr -d '$'); do
		grep -qx "#$v=\"\"" "$f" || fail "$v is not in $f, commented out"
	done
	# Nothing set: a package's defaults say what the units do without it.
	! grep -qv '^\(#.*\)\?$' "$f" || fail "set in $f: $(grep -v '^\(#.*\)\?$' "$f")"
	for u in "$DEB"/rdmactl-metrics.service "$DEB"/rdmactl-pfc.service "$DEB"/rdmactl-pfc@.service; do
		grep -qx 'EnvironmentFile=-/etc/default/rdmactl' "$u" || fail "$u does not read it"
	done
	# The role's lineinfile (roles/node/tasks/main.yml) finds exactly one line to replace.
	[ "$(grep -cE '^#?\s*RDMACTL_METRICS_ARGS=' "$f")" -eq 1 ]
	# dh_installinit installs debian/rdmactl.default as /etc/default/rdmactl, a conffile.
	[ -z "$(find "$DEB" -maxdepth 1 -name 'rdmactl.init')" ]
}

@test "rdmactl-metrics.service: systemd-analyze security exposure 2.0 or less; the pfc units too" {
	command -v systemd-analyze >/dev/null || skip "no systemd-analyze (package systemd)"
	systemd-analyze --help | grep -q -- '--offline' || skip "systemd-analyze has no --offline (systemd < 250)"
	local u exposure
	for u in rdmactl-metrics.service rdmactl-pfc.service rdmactl-pfc@.service; do
		# --threshold is in tenths: 20 fails above 2.0.
		run systemd-analyze security --offline=yes --threshold=20 "$DEB/$u"
		exposure=$(sed -n 's/^.*Overall exposure level for [^:]*: \([0-9.]*\) .*$/\1/p' <<<"$output")
		[ "$status" -eq 0 ] || fail "$u: exposure $exposure above 2.0: $(grep '✗' <<<"$output")"
		awk -v e="$exposure" 'BEGIN { exit !(e != "" && e <= 2.0) }' || fail "$u: exposure '$exposure'"
	done
	# The metrics unit has no capability at all; the pfc units CAP_NET_ADMIN alone.
	grep -qx 'CapabilityBoundingSet=' "$DEB/rdmactl-metrics.service"
	grep -qx 'CapabilityBoundingSet=CAP_NET_ADMIN' "$DEB/rdmactl-pfc@.service"
	grep -qx 'CapabilityBoundingSet=CAP_NET_ADMIN' "$DEB/rdmactl-pfc.service"
	# Writing /sys (ecn) and configfs (roce-tos) rules out ProtectKernelTunables= for pfc.
	run -1 grep -q '^ProtectKernelTunables=yes' "$DEB/rdmactl-pfc@.service"
}

@test "systemd-analyze verify: every unit, in a root of this machine's units and ours" {
	command -v systemd-analyze >/dev/null || skip "no systemd-analyze (package systemd)"
	local sys root=$BATS_TEST_TMPDIR/root mp=$BATS_TEST_TMPDIR/man man=--man=yes
	for sys in /usr/lib/systemd/system /lib/systemd/system ""; do
		[ -z "$sys" ] || [ -e "$sys/sysinit.target" ] && break
	done
	[ -n "$sys" ] || skip "no systemd units on this machine to verify against (sysinit.target)"
	# verify runs without a running systemd, but needs the units ours depend on and
	# checks that /usr/sbin/rdmactl exists: a root with both (--root).
	mkdir -p "$root/usr/lib/systemd" "$root/usr/sbin" "$root/etc"
	cp -a "$sys" "$root/usr/lib/systemd/"
	ln -s usr/lib "$root/lib"
	cp "$RDMACTL" "$root/usr/sbin/rdmactl"
	cp "$DEB"/rdmactl-*.service "$DEB"/rdmactl-metrics.timer "$root/usr/lib/systemd/system/"
	# Documentation=man:... pages: the built ones.
	if [ -e "$TOP/build/man/rdmactl-pfc.8" ]; then
		mkdir -p "$mp/man5" "$mp/man8"
		ln -s "$TOP"/build/man/*.8 "$mp/man8/"
		ln -s "$TOP"/build/man/*.5 "$mp/man5/"
	else
		man=--man=no
	fi
	run env MANPATH="$mp" systemd-analyze verify --root="$root" "$man" rdmactl-metrics.service \
		rdmactl-metrics.timer rdmactl-pfc.service rdmactl-pfc@eth9.service
	# Warnings (an unknown key, a bad value) do not change the status: none at all.
	[ "$status" -eq 0 ] && [ -z "$output" ] || fail "exit $status: $output"
}

# The dcbnl double (tests/dcb-double) for eth9, eth8 and eth7; a pfc.yaml for eth9 and eth8.
pfc_setup() {
	[ -e "$DOUBLE/libdcbdouble.so" ] || fail "dcb double not built (make -f tests/dcb-double/double.mk)"
	# The double answers a SET only with CAP_NET_ADMIN in CapEff (bit 12), as the kernel does.
	(( 0x$(sed -n 's/^CapEff:\t*//p' /proc/self/status) >> 12 & 1 )) ||
		skip "the NIC double takes changes only with CAP_NET_ADMIN (root)"
	export LD_PRELOAD=$DOUBLE/libdcbdouble.so
	export DCB_DOUBLE_DEVS=eth9,eth8,eth7
	export DCB_DOUBLE_STATE=$BATS_TEST_TMPDIR/state
	export DCB_DOUBLE_LOG=$BATS_TEST_TMPDIR/log
	cat >"$BATS_TEST_TMPDIR/pfc.yaml" <<-'YAML'
	devices:
	  - dev: eth9
	    profile: roce-lossless
	  - dev: eth8
	    prio-pfc: all:off 4:on
	YAML
	# Every device's boot defaults in the state, before any change.
	"$RDMACTL" -j pfc show dev eth9 >/dev/null
	"$RDMACTL" -j pfc show dev eth8 >/dev/null
	"$RDMACTL" -j pfc show dev eth7 >/dev/null
}

# One device of the double's state, without the request counters.
nic() {
	"$DOUBLE/dcb-double-ctl" show | jq -c --arg d "$1" '.devices[$d] | del(.. | .requests?, .indications?)'
}

# The changing requests the double answered since the log was emptied (none: 0).
sets() {
	grep -cE '^(SET|DEL)' "$DCB_DOUBLE_LOG" || true
}

@test "rdmactl-pfc@eth9.service: its command applies eth9's entry only; again, nothing sent" {
	local unit=$DEB/rdmactl-pfc@.service env=$BATS_TEST_TMPDIR/default eth8 eth9
	grep -qx 'Type=oneshot' "$unit"
	grep -qx 'ConditionPathExists=/etc/rdmactl/pfc.yaml' "$unit"
	grep -qx 'BindsTo=sys-subsystem-net-devices-%i.device' "$unit"
	grep -qx 'After=sys-subsystem-net-devices-%i.device' "$unit"
	grep -qx 'Before=network-pre.target' "$unit"
	# Not enabled: udev starts it (debian/rdmactl.udev).
	run -1 grep -q '^\[Install\]' "$unit"
	pfc_setup
	eth8=$(nic eth8) eth9=$(nic eth9)
	unit_cmd "$unit" "$DEB/rdmactl.default" eth9
	[ "${CMD[*]:1}" = "pfc apply -f $BATS_TEST_TMPDIR/pfc.yaml dev eth9" ]
	: >"$DCB_DOUBLE_LOG"
	run -0 "${CMD[@]}"
	assert_output --partial "eth9: changed and verified"
	# The double: eth9 lossless on 3 with DSCP trust, eth8 as it was and never asked.
	[ "$(nic eth9 | jq -c '[.trust, .pfc.prio_pfc, .ets.prio_tc, ([.app[] | select(.selector == 5) | [.protocol, .priority]] | sort)]')" = \
	  '["dscp",[false,false,false,true,false,false,false,false],[0,0,0,3,0,0,6,0],[[26,3],[48,6]]]' ] ||
		fail "eth9: $(nic eth9)"
	[ "$(nic eth9)" != "$eth9" ]
	[ "$(nic eth8)" = "$eth8" ]
	grep -q ' eth8 ' "$DCB_DOUBLE_LOG" && fail "eth8 was asked: $(grep ' eth8 ' "$DCB_DOUBLE_LOG")"
	# Started again (the NIC reappears, a reboot): nothing differs, nothing sent.  With
	# RDMACTL_OPTS as /etc/default/rdmactl may set it, several words.
	printf '%s\n' 'RDMACTL_OPTS="-j -v"' >"$env"
	unit_cmd "$unit" "$env" eth9
	[ "${CMD[*]:1}" = "-j -v pfc apply -f $BATS_TEST_TMPDIR/pfc.yaml dev eth9" ]
	: >"$DCB_DOUBLE_LOG"
	run --separate-stderr -0 "${CMD[@]}"
	[ "$(jq -c '[.changed, [.netdevs[].netdev]]' <<<"$output")" = '[false,["eth9"]]' ]
	[ -s "$DCB_DOUBLE_LOG" ] && [ "$(sets)" = 0 ]
}

@test "rdmactl-pfc@eth7.service: a netdev the file does not name: exit 0, nothing sent" {
	pfc_setup
	local eth7
	eth7=$(nic eth7)
	unit_cmd "$DEB/rdmactl-pfc@.service" "$DEB/rdmactl.default" eth7
	: >"$DCB_DOUBLE_LOG"
	run -0 "${CMD[@]}"
	assert_output --partial "nothing in"
	[ "$(sets)" = 0 ]
	[ "$(nic eth7)" = "$eth7" ]
}

@test "rdmactl-pfc.service: its command applies the whole file; enabled for after the network is up" {
	local unit=$DEB/rdmactl-pfc.service
	grep -qx 'Type=oneshot' "$unit"
	grep -qx 'ConditionPathExists=/etc/rdmactl/pfc.yaml' "$unit"
	grep -qx 'After=network-online.target.*' "$unit"
	grep -qx 'WantedBy=multi-user.target' "$unit"
	# Never started by the package's scripts: installing a package changes no NIC.
	grep -qx '.*dh_installsystemd --name=rdmactl-pfc --no-start rdmactl-pfc.service' "$DEB/rules"
	pfc_setup
	unit_cmd "$unit" "$DEB/rdmactl.default"
	[ "${CMD[*]:1}" = "pfc apply -f $BATS_TEST_TMPDIR/pfc.yaml" ]
	run -0 "${CMD[@]}"
	assert_output --partial "eth9: changed and verified"
	assert_output --partial "eth8: changed and verified"
	[ "$(nic eth8 | jq -c '.pfc.prio_pfc')" = '[false,false,false,false,true,false,false,false]' ]
	# The per-netdev unit after it finds nothing to do.
	unit_cmd "$DEB/rdmactl-pfc@.service" "$DEB/rdmactl.default" eth8
	: >"$DCB_DOUBLE_LOG"
	run -0 "${CMD[@]}"
	[ "$(sets)" = 0 ]
}

# Whether debian/rdmactl.udev's one rule matches a uevent: ACTION SUBSYSTEM DEVPATH (KERNEL
# and $name are DEVPATH's last part).  Its match keys are compared as udev does (== and !=,
# shell glob patterns, | between alternatives); a key this does not know fails the test.
# Prints the rule's SYSTEMD_WANTS with $name substituted when it matches.
rule_matches() {
	local -A dev=([ACTION]=$1 [SUBSYSTEM]=$2 [DEVPATH]=$3 [KERNEL]=${3##*/})
	local rule tok key op val alt hit wants=
	rule=$(grep -v '^\(#.*\)\?$' "$DEB/rdmactl.udev")
	[ "$(wc -l <<<"$rule")" -eq 1 ] || fail "not one rule in debian/rdmactl.udev"
	local re='([A-Z_]+(\{[A-Za-z_]+\})?)(==|!=|\+=|:=|-=|=)"([^"]*)"'
	# The rule is made of such keys and nothing else.
	[ -z "$(sed -E "s/$re(, |\$)//g" <<<"$rule")" ] || fail "cannot read the rule: $rule"
	while IFS= read -r tok; do
		[[ $tok =~ ^$re$ ]]
		key=${BASH_REMATCH[1]} op=${BASH_REMATCH[3]} val=${BASH_REMATCH[4]}
		case $op in
		==|!=)
			[ -n "${dev[$key]+set}" ] || fail "the rule matches on $key, which this test does not know"
			hit=1
			IFS='|' read -ra alts <<<"$val"
			for alt in "${alts[@]}"; do
				# shellcheck disable=SC2053 # a glob, as udev matches it
				[[ ${dev[$key]} == $alt ]] && hit=0
			done
			if [ "$op" = "==" ]; then [ $hit -eq 0 ] || return 1; else [ $hit -eq 1 ] || return 1; fi
			;;
		*) [ "$key" != 'ENV{SYSTEMD_WANTS}' ] || wants=${val//\$name/${dev[KERNEL]}} ;;
		esac
	done < <(grep -oE "$re" <<<"$rule")
	echo "$wants"
}

@test "debian/rdmactl.udev: an added physical netdev starts rdmactl-pfc@NETDEV.service; virtual ones and other events do not" {
	local pci=/devices/pci0000:00/0000:00:02.0/0000:03:00.0/net/ens1f0np0 d
	run -0 rule_matches add net "$pci"
	assert_output "rdmactl-pfc@ens1f0np0.service"
	[ -e "$DEB/${output%%@*}@.service" ]
	grep -q 'TAG+="systemd"' "$DEB/rdmactl.udev"
	run -0 rule_matches add net /devices/pci0000:00/0000:00:03.0/virtio2/net/eth0
	assert_output "rdmactl-pfc@eth0.service"
	for d in /devices/virtual/net/bond0 /devices/virtual/net/lo /devices/virtual/net/eth9.100 \
		/devices/virtual/net/br0 /devices/virtual/net/veth1; do
		run -1 rule_matches add net "$d"
	done
	run -1 rule_matches change net "$pci"
	run -1 rule_matches remove net "$pci"
	run -1 rule_matches move net "$pci"
	run -1 rule_matches add infiniband /devices/pci0000:00/0000:00:02.0/0000:03:00.0/infiniband/mlx5_0
	# This machine's own netdevs: matched exactly when not virtual.
	for d in /sys/class/net/*; do
		[ -e "$d" ] || continue
		d=$(readlink -f "$d")
		d=${d#/sys}
		if [[ $d == /devices/virtual/* ]]; then run -1 rule_matches add net "$d"; else run -0 rule_matches add net "$d"; fi
	done
	# $name is the final name only after 80-net-setup-link.rules has renamed the netdev.
	local prio
	prio=$(sed -n 's/^\tdh_installudev .*--priority=\([0-9]*\).*/\1/p' "$DEB/rules")
	[ -n "$prio" ] && [ "$prio" -gt 80 ] || fail "the rule's priority '$prio' is not after 80-net-setup-link.rules"
}
