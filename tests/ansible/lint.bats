#!/usr/bin/env bats
# The collection passes ansible-test sanity (every test that runs offline with
# Debian 12's packages: tests/ansible/sanity-offline) and ansible-lint.
load ansible_helper

setup() {
	need_ansible
}

@test "ansible-test sanity: every test, offline, clean" {
	command -v ansible-test >/dev/null || skip "needs ansible-test (Debian package ansible-core)"
	for m in voluptuous pycodestyle pylint yamllint; do
		/usr/bin/python3.11 -c "import $m" 2>/dev/null ||
			skip "needs Python's $m from Debian (python3-voluptuous, python3-pycodestyle, pylint, yamllint)"
	done
	run "$TOP/tests/ansible/sanity-offline"
	assert_success
	refute_output --partial 'ERROR:'
	assert_output --partial 'Running sanity test "validate-modules"'
	assert_output --partial 'Running sanity test "pylint"'
	assert_output --partial 'Running sanity test "pep8"'
	assert_output --partial 'Running sanity test "import" on Python 3.11'
	refute_output --partial 'does not have pip available'
}

@test "sanity ignores: one file for each ansible-core from the one meta/runtime.yml requires to the newest, all alike" {
	local min v first
	min=$(sed -nE "s/^requires_ansible: '>=2\.([0-9]+)\.[0-9]+'$/\1/p" "$COLL/meta/runtime.yml")
	[ -n "$min" ] || fail "requires_ansible is not '>=2.N.M': $(grep requires_ansible "$COLL/meta/runtime.yml")"
	# 2.20 is the newest ansible-core released (2025-11); a newer one gets its file when it ships.
	first=$COLL/tests/sanity/ignore-2.$min.txt
	[ -s "$first" ] || fail "no $first"
	for v in $(seq "$min" 20); do
		cmp "$first" "$COLL/tests/sanity/ignore-2.$v.txt" || fail "ignore-2.$v.txt differs or is missing"
	done
	# Each entry names a file of the collection and an ignore code with its reason.
	while read -r path code rest; do
		[ -e "$COLL/$path" ] || fail "$path: no such file"
		[[ $code == *:* && $rest == "# "* ]] || fail "entry without code or reason: $path $code $rest"
	done <"$first"
	# Nothing beyond: an ignore file of a version the collection does not declare is a mistake too.
	[ "$(find "$COLL/tests/sanity" -name 'ignore-2.*.txt' | wc -l)" -eq $((20 - min + 1)) ]
}

@test "ansible-lint: the collection and its playbooks, production profile, clean" {
	command -v ansible-lint >/dev/null || skip "needs ansible-lint (Debian package ansible-lint)"
	cd "$COLL"
	HOME=$BATS_TEST_TMPDIR ANSIBLE_COLLECTIONS_PATH=$TOP run ansible-lint --offline --nocolor
	assert_success
	assert_output --partial 'Passed with production profile: 0 failure(s), 0 warning(s)'
}

@test "ansible-galaxy collection build: LICENSE, modules, playbooks and the role in the tarball; the lab's connection not" {
	command -v ansible-galaxy >/dev/null || skip "needs ansible-galaxy (Debian package ansible-core)"
	cd "$COLL"
	HOME=$BATS_TEST_TMPDIR run ansible-galaxy collection build --output-path "$BATS_TEST_TMPDIR/dist"
	assert_success
	local tarball
	tarball=$(echo "$BATS_TEST_TMPDIR"/dist/rdmactl-roce-*.tar.gz)
	[ -f "$tarball" ] || fail "no tarball: $(ls "$BATS_TEST_TMPDIR/dist")"
	tar -tzf "$tarball" | sort >"$BATS_TEST_TMPDIR/files"
	for f in LICENSE MANIFEST.json FILES.json README.md CHANGELOG.md meta/runtime.yml \
		plugins/modules/pfc.py plugins/modules/bond.py plugins/modules/port.py plugins/modules/facts.py \
		plugins/module_utils/rdmactl.py plugins/filter/rdmactl.py playbooks/lossless.yml \
		roles/node/tasks/main.yml roles/node/meta/argument_specs.yml roles/node/defaults/main.yml; do
		grep -qFx "$f" "$BATS_TEST_TMPDIR/files" || fail "$f is not in the tarball"
	done
	run grep -E 'connection|lab|\.tar\.gz$|tests/output' "$BATS_TEST_TMPDIR/files"
	assert_output ""
	# The license is the GPL's text, and the manifest names the SPDX id and galaxy.yml's version.
	tar -xzOf "$tarball" LICENSE | grep -q 'GNU GENERAL PUBLIC LICENSE' || fail "LICENSE is not the GPL"
	tar -xzOf "$tarball" MANIFEST.json | jq -e --arg v "$(sed -n 's/^version: //p' galaxy.yml)" \
		'.collection_info.license == ["GPL-2.0-or-later"] and .collection_info.version == $v' ||
		fail "MANIFEST.json: $(tar -xzOf "$tarball" MANIFEST.json | jq -c .collection_info)"
}
