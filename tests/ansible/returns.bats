#!/usr/bin/env bats
# The modules' RETURN samples are what the modules return: tests/ansible/returns.py runs
# each module on fixture hosts (--root; writes in check mode), then checks RETURN, as
# ansible-doc -j reads it, against the results: the samples that are rdmactl documents
# validate against schemas/, the keys returned are documented, those returned always
# (or on success) are there, and each sample has its type and is a real value cut.
# New samples: tests/ansible/returns.py run DIR && tests/ansible/returns.py write DIR.
load ansible_helper

RETURNS=$TOP/tests/ansible/returns.py

setup_file() {
	need_ansible
	BATS_TEST_TMPDIR=$BATS_FILE_TMPDIR ansible_env
	"$RETURNS" run "$BATS_FILE_TMPDIR/runs"
}

setup() {
	need_ansible
	ansible_env
	RUNS=$BATS_FILE_TMPDIR/runs
}

check_module() {
	run "$RETURNS" check "$RUNS" "$1"
	assert_success
	assert_output --regexp "^$1: [0-9]+ keys, [0-9]+ samples \\([0-9]+ rdmactl documents\\), [0-9]+ runs, 0 problem\\(s\\)\$"
}

@test "pfc: RETURN's samples are real runs' values, its rdmactl documents valid, its keys the ones returned" {
	check_module pfc
	[[ $output == *"(2 rdmactl documents)"* ]] || fail "the pfc-change and error documents are not both checked"
}

@test "port: RETURN's samples are real runs' values, its rdmactl documents valid, its keys the ones returned" {
	check_module port
}

@test "bond: RETURN's samples are real runs' values, its rdmactl documents valid, its keys the ones returned" {
	check_module bond
}

@test "facts: RETURN's samples are real runs' values, its keys the ones returned" {
	check_module facts
}

@test "an untrue RETURN fails: a partial document, an edited value, a wrong type, a lost key, one undocumented, always unkept" {
	local copy=$BATS_TEST_TMPDIR/c/ansible_collections/rdmactl
	mkdir -p "$copy"
	cp -r "$COLL" "$copy/roce"
	python3 - "$copy/roce/plugins/modules" <<-'EOF'
		import re, sys
		def edit(module, old, new, regex=False):
		    path = '%s/%s.py' % (sys.argv[1], module)
		    src = open(path).read()
		    out = re.sub(old, new, src, count=1, flags=re.S) if regex else src.replace(old, new, 1)
		    assert out != src, (module, old)
		    open(path, 'w').write(out)
		# pfc: the hand-written sample this test replaced, a pfc-change document cut short.
		edit('pfc', r'(rdmactl:\n.*?)  sample: \{.*?\n(\'\'\')',
		     r'\1  sample: {"schema": 3, "kind": "pfc-change", "changed": true, "dry_run": false,\n'
		     r'           "netdevs": [{"netdev": "ens1f0np0", "upper": null, "relation": "same", "changed": true,\n'
		     r'                        "before": {"trust": {"value": "pcp"}}, "after": {"trust": {"value": "dscp"}}}]}\n\2',
		     regex=True)
		edit('pfc', '"relation": "roce_lag", "changed": true},', '"relation": "same", "changed": true},')
		edit('port', '  type: int\n  sample: 19', '  type: int\n  sample: "19"')
		edit('facts', ', "summary": {"fail": 0', ', "totals": {"fail": 0')
		edit('port', 'errno:\n', 'errno_gone:\n')
		edit('bond', 'cmd:\n  description: The rdmactl command line that ran.\n  returned: success, and when rdmactl failed',
		     'cmd:\n  description: The rdmactl command line that ran.\n  returned: always')
	EOF
	export ANSIBLE_COLLECTIONS_PATH=$BATS_TEST_TMPDIR/c
	run "$RETURNS" check "$RUNS" pfc
	assert_failure
	assert_line "pfc: a sample against schemas/: samples-pfc.json#1: pfc-change: \$.netdevs[0]: 'dry_run' is a required property"
	assert_line "pfc: a sample against schemas/: samples-pfc.json#1: pfc-change: \$.netdevs[0].after: 'pfc' is a required property"
	assert_line --regexp '^pfc: rdmactl: the sample is no real value cut'
	assert_line --regexp '^pfc: netdevs: the sample is no real value cut .*"relation": "roce_lag"'
	run "$RETURNS" check "$RUNS" port
	assert_failure
	assert_line 'port: errno_gone: the sample is not of type int: "19"'
	assert_line 'port: errno_gone: no run returns it'
	assert_line 'port: missing: port returns errno, which RETURN does not document'
	run "$RETURNS" check "$RUNS" facts
	assert_failure
	assert_line --regexp "^facts: ansible_facts.rdmactl.diag: the sample has the keys \['findings', 'totals'\], the real value of run lag \['findings', 'summary'\]"
	run "$RETURNS" check "$RUNS" bond
	assert_failure
	assert_line 'bond: refused: cmd is returned always, but this failure has none'
}
