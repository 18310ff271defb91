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

@test "ansible-lint: the collection and its playbooks, production profile, clean" {
	command -v ansible-lint >/dev/null || skip "needs ansible-lint (Debian package ansible-lint)"
	cd "$COLL"
	HOME=$BATS_TEST_TMPDIR ANSIBLE_COLLECTIONS_PATH=$TOP run ansible-lint --offline --nocolor
	assert_success
	assert_output --partial 'Passed with production profile: 0 failure(s), 0 warning(s)'
}
