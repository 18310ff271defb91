#!/usr/bin/env bats
# contrib/kubernetes: the manifests read into the Kubernetes API's models (a field
# name the API lacks fails), and the DaemonSet's own script run against a fixture.
load ../helpers

K8S=$TOP/contrib/kubernetes

need_models() {
	/usr/bin/python3 -c 'import kubernetes' 2>/dev/null ||
		skip "needs python3-kubernetes (scripts/install-deps test)"
}

@test "every manifest in contrib/kubernetes is objects of the Kubernetes API, field by field" {
	need_models
	run "$TOP/tests/k8s-check" "$K8S"/*.yaml
	assert_success
	assert_line --regexp '^[3-9][0-9]* objects checked, 0 with problems$'
}

@test "the check fails on a misspelt field, a missing required one and an unknown kind" {
	need_models
	sed 's/^          command:/          comand:/' "$K8S/rdmactl-node.yaml" >"$BATS_TEST_TMPDIR/typo.yaml"
	run "$TOP/tests/k8s-check" "$BATS_TEST_TMPDIR/typo.yaml"
	assert_failure 1
	assert_output --partial 'DaemonSet/rdmactl-node: .spec.template.spec.containers[0].comand: not a field of the API'
	# A container without its image's name field: the model refuses the object.
	sed '/^        - name: rdmactl$/d' "$K8S/rdmactl-node.yaml" >"$BATS_TEST_TMPDIR/noname.yaml"
	run "$TOP/tests/k8s-check" "$BATS_TEST_TMPDIR/noname.yaml"
	assert_failure 1
	assert_output --partial 'must not be `None`'
	printf 'apiVersion: v1\nkind: Podd\nmetadata: {name: x}\n' >"$BATS_TEST_TMPDIR/kind.yaml"
	run "$TOP/tests/k8s-check" "$BATS_TEST_TMPDIR/kind.yaml"
	assert_failure 1
}

@test "the DaemonSet's script writes the NFD feature file and the metrics file" {
	local script bin=$BATS_TEST_TMPDIR/bin out=$BATS_TEST_TMPDIR/node
	mkdir -p "$bin" "$out"
	# rdmactl on the node, here a fixture host through --root.
	printf '#!/bin/sh\nexec "%s" --root "%s" "$@"\n' "$RDMACTL" "$HOSTS/cx6dx-lag" >"$bin/rdmactl"
	# The loop's sleep ends the loop: one round is enough.
	printf '#!/bin/sh\nkill -TERM $PPID\n' >"$bin/sleep"
	chmod +x "$bin/rdmactl" "$bin/sleep"
	script=$(python3 -c 'import sys, yaml
for d in yaml.safe_load_all(open(sys.argv[1])):
    if d and d["kind"] == "DaemonSet":
        print(d["spec"]["template"]["spec"]["containers"][0]["args"][0])' "$K8S/rdmactl-node.yaml")
	[ -n "$script" ]
	PATH=$bin:$PATH FEATURES_FILE=$out/features INTERVAL_S=30 METRICS_FILE=$out/rdmactl.prom \
		timeout 60 sh -c "$script" || [ $? -eq 143 ]
	grep -qx rdma.lag=true "$out/features"
	grep -qx rdma.capable=true "$out/features"
	grep -q '^rdmactl_scrape_success 1' "$out/rdmactl.prom"
	if command -v promtool >/dev/null; then
		promtool check metrics <"$out/rdmactl.prom"
	fi
}

@test "nfd-worker's configuration is YAML NFD reads: interval and local source" {
	run python3 -c 'import sys, yaml
d = yaml.safe_load(open(sys.argv[1]))
conf = yaml.safe_load(d["data"]["nfd-worker.conf"])
assert conf["core"]["sleepInterval"] == "60s", conf
assert conf["sources"]["local"]["hooksEnabled"] is False, conf
print("ok")' "$K8S/nfd-worker.conf.yaml"
	assert_success
	assert_output ok
}
