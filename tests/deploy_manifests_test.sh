#!/usr/bin/env bash
# Checks deploy/ (ctest label "deploy"):
#   - every *.yaml under deploy/k8s parses, and every one that is a
#     Kubernetes object or patch is listed in some kustomization's
#     resources, components or patches (a file nothing lists is never
#     applied);
#   - every container of the manifests names the image "arbiter", which the
#     overlays pin (name and tag in one place);
#   - with kubectl (or kustomize), every kustomization under deploy/k8s
#     renders: Kustomizations as they are, Components on top of k8s/base; in
#     what an overlay renders every image has a tag and every namespaced
#     object a namespace;
#   - with systemd-analyze, the systemd units of deploy/systemd verify.
#
#   tests/deploy_manifests_test.sh [SOURCE_DIR [BINARY_DIR]]
#
# Needs /usr/bin/python3 with PyYAML (Debian: python3-yaml, which
# scripts/setup.sh installs).
set -euo pipefail

src=$(cd "${1:-$(dirname "${BASH_SOURCE[0]}")/..}" && pwd)
bin=${2:-$src/build}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failed=0

say() { echo "deploy_manifests_test: $*"; }

if ! /usr/bin/python3 -c 'import yaml' 2>/dev/null; then
  say "FAIL: /usr/bin/python3 with PyYAML is needed (apt-get install python3-yaml; scripts/setup.sh does)"
  exit 1
fi

renderer=""
if command -v kubectl >/dev/null 2>&1; then
  renderer="kubectl kustomize"
elif command -v kustomize >/dev/null 2>&1; then
  renderer="kustomize build"
else
  say "kubectl not found: rendering not checked"
fi

# Manifests: parsing, coverage by kustomizations, images; then rendering.
/usr/bin/python3 - "$src/deploy/k8s" "$tmp" "$renderer" <<'PY' || failed=1
import os
import subprocess
import sys

import yaml

k8s, tmp, renderer = sys.argv[1], sys.argv[2], sys.argv[3].split()
errors = []
KUSTOMIZATION_NAMES = ("kustomization.yaml", "kustomization.yml", "Kustomization")
WORKLOADS = {"Deployment", "StatefulSet", "DaemonSet", "ReplicaSet", "Job", "CronJob", "Pod"}
CLUSTER_SCOPED = {"Namespace", "PersistentVolume", "StorageClass", "ClusterRole",
                  "ClusterRoleBinding", "CustomResourceDefinition", "PriorityClass",
                  "IngressClass", "ValidatingWebhookConfiguration",
                  "MutatingWebhookConfiguration", "APIService"}


def rel(path):
    return os.path.relpath(path, os.path.dirname(k8s))


def load_all(path):
    with open(path) as f:
        return [d for d in yaml.safe_load_all(f) if d is not None]


def kustomization_in(directory):
    for name in KUSTOMIZATION_NAMES:
        if os.path.isfile(os.path.join(directory, name)):
            return os.path.join(directory, name)
    return None


def pod_spec(doc):
    spec = doc.get("spec") or {}
    kind = doc.get("kind")
    if kind == "Pod":
        return spec
    if kind == "CronJob":
        spec = ((spec.get("jobTemplate") or {}).get("spec")) or {}
    return ((spec.get("template") or {}).get("spec")) or {}


def check_images(doc, where, require):
    """Containers name the image "arbiter" (a patch may leave it out)."""
    if not isinstance(doc, dict):
        return
    if isinstance(doc.get("kind"), str) and doc["kind"] in WORKLOADS:
        spec = pod_spec(doc)
        for key in ("initContainers", "containers", "ephemeralContainers"):
            for c in spec.get(key) or []:
                image = c.get("image")
                if image is None and not require:
                    continue
                if image != "arbiter":
                    errors.append(f'{where}: {doc["kind"]} {doc.get("metadata", {}).get("name")} '
                                  f'container {c.get("name")} has image {image!r}, not "arbiter" '
                                  f"(the overlays pin name and tag)")


def check_json6902(ops, where):
    for op in ops if isinstance(ops, list) else []:
        if isinstance(op, dict) and str(op.get("path", "")).endswith("/image") \
                and op.get("value") != "arbiter":
            errors.append(f"{where}: a JSON patch sets image {op.get('value')!r}")


# 1. Every YAML file parses.
yaml_files, docs_of = [], {}
for root, dirs, files in os.walk(k8s):
    dirs.sort()
    for name in sorted(files):
        if name.endswith((".yaml", ".yml")) or name == "Kustomization":
            path = os.path.join(root, name)
            yaml_files.append(path)
            try:
                docs_of[path] = load_all(path)
            except yaml.YAMLError as e:
                errors.append(f"{rel(path)}: does not parse: {e}")

# 2. What the kustomizations list.
kustomizations = [p for p in yaml_files if os.path.basename(p) in KUSTOMIZATION_NAMES]
listed = set()
kinds = {}
for kpath in kustomizations:
    kdir = os.path.dirname(kpath)
    doc = (docs_of.get(kpath) or [{}])[0] or {}
    kinds[kdir] = doc.get("kind", "Kustomization")
    refs = []
    for field in ("resources", "components", "bases", "patchesStrategicMerge", "crds"):
        refs += [r for r in doc.get(field) or [] if isinstance(r, str)]
    for field in ("patches", "patchesJson6902"):
        for p in doc.get(field) or []:
            if isinstance(p, dict) and p.get("path"):
                refs.append(p["path"])
            if isinstance(p, dict) and isinstance(p.get("patch"), str):
                where = f"{rel(kpath)} (inline patch)"
                try:
                    for d in yaml.safe_load_all(p["patch"]):
                        check_images(d, where, require=False)
                        check_json6902(d, where)
                except yaml.YAMLError as e:
                    errors.append(f"{where}: does not parse: {e}")
    for ref in refs:
        if "://" in ref or ref.startswith(("github.com/", "git@")):
            continue
        target = os.path.normpath(os.path.join(kdir, ref))
        if os.path.isdir(target):
            inner = kustomization_in(target)
            if inner is None:
                errors.append(f"{rel(kpath)}: {ref} is a directory without a kustomization")
            else:
                listed.add(inner)
        elif os.path.isfile(target):
            listed.add(target)
        else:
            errors.append(f"{rel(kpath)}: {ref} does not exist")

# 3. Every manifest is listed somewhere, and names the image "arbiter".
for path in yaml_files:
    if path in kustomizations:
        continue
    docs = docs_of.get(path, [])
    # Configuration of other tools (kind's cluster config) is not applied.
    if docs and all(isinstance(d, dict) and str(d.get("apiVersion", "")).split("/")[0]
                    .endswith("kind.x-k8s.io") for d in docs):
        continue
    if path not in listed:
        errors.append(f"{rel(path)}: not listed in any kustomization's resources, components "
                      "or patches (kubectl apply -k would never apply it)")
for kpath in kustomizations:
    kdir = os.path.dirname(kpath)
    doc = (docs_of.get(kpath) or [{}])[0] or {}
    patch_files = {os.path.normpath(os.path.join(kdir, p["path"]))
                   for f in ("patches", "patchesJson6902") for p in doc.get(f) or []
                   if isinstance(p, dict) and p.get("path")}
    patch_files |= {os.path.normpath(os.path.join(kdir, p))
                    for p in doc.get("patchesStrategicMerge") or [] if isinstance(p, str)}
    for f in ("resources",):
        for r in doc.get(f) or []:
            path = os.path.normpath(os.path.join(kdir, r)) if isinstance(r, str) else None
            if path in docs_of:
                for d in docs_of[path]:
                    check_images(d, rel(path), require=True)
    for path in patch_files:
        for d in docs_of.get(path, []):
            check_images(d, rel(path), require=False)
            check_json6902(d, rel(path))

# 4. Every kustomization renders (Components on top of the base).
rendered = 0
if renderer:
    base = os.path.join(k8s, "base")
    for i, kpath in enumerate(sorted(kustomizations)):
        kdir = os.path.dirname(kpath)
        if kinds[kdir] == "Component":
            wrap = os.path.join(tmp, f"component-{i}")
            os.makedirs(wrap)
            with open(os.path.join(wrap, "kustomization.yaml"), "w") as f:
                f.write("apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\n"
                        f"resources:\n  - {os.path.relpath(base, wrap)}\n"
                        f"components:\n  - {os.path.relpath(kdir, wrap)}\n")
            target, what = wrap, f"{rel(kdir)} (Component, on k8s/base)"
        else:
            target, what = kdir, rel(kdir)
        run = subprocess.run(renderer + [target], capture_output=True, text=True)
        if run.returncode != 0:
            errors.append(f"{what}: does not render:\n{run.stderr.strip()}")
            continue
        rendered += 1
        try:
            objects = [d for d in yaml.safe_load_all(run.stdout) if d]
        except yaml.YAMLError as e:
            errors.append(f"{what}: renders YAML that does not parse: {e}")
            continue
        in_overlay = kinds[kdir] != "Component" and \
            os.path.relpath(kdir, k8s).split(os.sep)[0] == "overlays"
        for d in objects:
            name = f'{d.get("kind")} {d.get("metadata", {}).get("name")}'
            if d.get("kind") in WORKLOADS:
                spec = pod_spec(d)
                for c in (spec.get("initContainers") or []) + (spec.get("containers") or []):
                    image = str(c.get("image", ""))
                    if "@" not in image and ":" not in image.rsplit("/", 1)[-1]:
                        errors.append(f"{what}: {name} renders image {image!r} without a tag")
            if in_overlay and d.get("kind") not in CLUSTER_SCOPED \
                    and not d.get("metadata", {}).get("namespace"):
                errors.append(f"{what}: {name} has no namespace (a Component listed after "
                              "the overlay's settings?)")
        print(f"deploy_manifests_test: rendered {what}: {len(objects)} objects")

for e in errors:
    print(f"deploy_manifests_test: FAIL: {e}")
print(f"deploy_manifests_test: {len(yaml_files)} YAML files, {len(kustomizations)} "
      f"kustomizations, {rendered} rendered, {len(errors)} problems")
sys.exit(1 if errors else 0)
PY

# The systemd units: ExecStart under /usr/local/bin (which `cmake --install`
# rewrites), and systemd-analyze verify with the build's binaries there.
for unit in "$src"/deploy/systemd/*.service; do
  grep -q '^ExecStart=/usr/local/bin/' "$unit" ||
    { say "FAIL: $unit: ExecStart must name /usr/local/bin/ (the install rewrites it)"; failed=1; }
done
if ! command -v systemd-analyze >/dev/null 2>&1; then
  say "systemd-analyze not found: units not verified"
elif [ ! -x "$bin/arbiter-coordinator" ] || [ ! -x "$bin/arbiter-worker" ]; then
  say "no arbiter-coordinator/arbiter-worker in $bin: units not verified"
else
  mkdir -p "$tmp/units"
  for unit in "$src"/deploy/systemd/*.service; do
    sed "s#/usr/local/bin/#$bin/#g" "$unit" >"$tmp/units/$(basename "$unit")"
  done
  if out=$(cd "$tmp/units" && systemd-analyze verify ./*.service 2>&1) && [ -z "$out" ]; then
    say "systemd units verified"
  else
    say "FAIL: systemd-analyze verify:"
    echo "$out"
    failed=1
  fi
fi

if [ "$failed" -ne 0 ]; then
  say "FAILED"
  exit 1
fi
say "passed"
