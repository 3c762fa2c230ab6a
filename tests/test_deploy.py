"""deploy/: the Kubernetes manifests `kubectl apply -k deploy/` applies.

Each manifest is checked against the Kubernetes API's own JSON schemas (bundled with the
`kubernetes-validate` package, so offline), strictly: an unknown or misspelt field fails, as
does a value of the wrong type. The other tests check what no schema can: that the pieces
name each other correctly (selectors, the autoscaler's target, ports), and that what the
manifests assume of the image and the app is true (the probes' routes answer, the user is the
Dockerfile's, the writable paths are volumes, the workers match the CPU limit).
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import kubernetes_validate
import pytest
import yaml
from flask import Flask

from app.api import create_app

ROOT = Path(__file__).resolve().parents[1]
DEPLOY = ROOT / "deploy"
KUSTOMIZATION = "kustomization.yaml"
# The oldest Kubernetes minor the manifests are written for (nothing in them is newer) and
# the newest the locked kubernetes-validate bundles.
KUBERNETES_VERSIONS = ("1.30", "1.37")
# What docs/operations.md's "Memory" plans for (bench/memory.py measured it): a gunicorn master
# (the preloaded app) and each worker at most, up to its recycling, in MiB RSS.
MASTER_MIB = 50
WORKER_MAX_MIB = 85
MEMORY_HEADROOM = 1.5


Manifest = dict[str, Any]


def _load(name: str) -> list[Manifest]:
    with (DEPLOY / name).open(encoding="utf-8") as f:
        return [doc for doc in yaml.safe_load_all(f) if doc is not None]


def _kustomization() -> Manifest:
    (doc,) = _load(KUSTOMIZATION)
    return doc


def _resources() -> list[str]:
    resources: list[str] = _kustomization()["resources"]
    return resources


def _manifests() -> Iterator[tuple[str, Manifest]]:
    for name in _resources():
        for doc in _load(name):
            yield name, doc


def _one(kind: str) -> Manifest:
    (found,) = [doc for _, doc in _manifests() if doc["kind"] == kind]
    return found


def _pod_spec() -> Manifest:
    spec: Manifest = _one("Deployment")["spec"]["template"]["spec"]
    return spec


def _container() -> Manifest:
    (container,) = _pod_spec()["containers"]
    return container


def _env() -> dict[str, str]:
    return {e["name"]: e["value"] for e in _container().get("env", [])}


def _container_port() -> int:
    (port,) = _container()["ports"]
    number: int = port["containerPort"]
    return number


def _resolve_port(port: int | str) -> int:
    """A port given by number or by the container port's name, as Kubernetes resolves it."""
    if isinstance(port, int):
        return port
    named = {p["name"]: p["containerPort"] for p in _container()["ports"] if "name" in p}
    assert port in named, f"no container port is named {port!r}"
    number: int = named[port]
    return number


def _probes() -> dict[str, Manifest]:
    container = _container()
    return {kind: container[kind] for kind in ("startupProbe", "readinessProbe", "livenessProbe")
            if kind in container}


def _cpu_cores(quantity: str | int) -> float:
    text = str(quantity)
    return int(text[:-1]) / 1000 if text.endswith("m") else float(text)


_MEMORY_UNITS = {"Ki": 2**10, "Mi": 2**20, "Gi": 2**30, "k": 10**3, "M": 10**6, "G": 10**9}


def _mebibytes(quantity: str | int) -> float:
    text = str(quantity)
    for suffix, factor in _MEMORY_UNITS.items():
        if text.endswith(suffix):
            return float(text[: -len(suffix)]) * factor / 2**20
    return float(text) / 2**20


def _dockerfile_final_stage() -> list[tuple[str, str]]:
    """The instructions of the Dockerfile's last stage (the image that runs), as (keyword,
    arguments), continuation lines joined."""
    text = (ROOT / "Dockerfile").read_text(encoding="utf-8")
    lines = [line for line in text.splitlines() if not line.lstrip().startswith("#")]
    joined = re.sub(r"\\\n", " ", "\n".join(lines))
    instructions = [tuple(line.strip().split(None, 1)) for line in joined.splitlines()
                    if line.strip()]
    last = max(i for i, ins in enumerate(instructions) if ins[0].upper() == "FROM")
    return [(ins[0].upper(), ins[1] if len(ins) > 1 else "") for ins in instructions[last:]]


def _gunicorn_setting(name: str) -> Any:
    """A constant setting of gunicorn.conf.py, read without running the file (importing it
    patches gunicorn)."""
    tree = ast.parse((ROOT / "gunicorn.conf.py").read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, ast.Assign) and [getattr(t, "id", None) for t in node.targets] == [
                name]:
            return ast.literal_eval(node.value)
    raise AssertionError(f"gunicorn.conf.py sets no constant {name}")


def _variables_the_service_reads() -> set[str]:
    """Every environment variable the service reads: gunicorn.conf.py's, the app's (the
    `*_ENV` names) and `./run serve`'s."""
    names = set(re.findall(r"os\.environ\.get\([\"'](\w+)",
                           (ROOT / "gunicorn.conf.py").read_text(encoding="utf-8")))
    for source in (ROOT / "app").rglob("*.py"):
        names |= set(re.findall(r"^\w+_ENV = \"(\w+)\"", source.read_text(encoding="utf-8"),
                                re.M))
    names |= set(re.findall(r"\$\{([A-Z_]+)[:}]", (ROOT / "run").read_text(encoding="utf-8")))
    return names


@pytest.fixture(scope="module")
def app() -> Flask:
    return create_app({"ACCESS_LOG": False})


# --- the files -------------------------------------------------------------------------------

def test_the_kustomization_lists_every_file() -> None:
    """`kubectl apply -k deploy/` applies what kustomization.yaml lists, and nothing else: so
    every other file in deploy/ must be listed there (a manifest left out would never be
    applied), and everything listed must exist."""
    kustomization = _kustomization()
    assert kustomization["apiVersion"] == "kustomize.config.k8s.io/v1beta1"
    assert kustomization["kind"] == "Kustomization"
    listed = _resources()
    assert len(listed) == len(set(listed)), "a file is listed twice"
    present = {p.name for p in DEPLOY.iterdir()} - {KUSTOMIZATION}
    assert set(listed) == present


def test_the_kustomization_image_is_the_deployments() -> None:
    """kustomization.yaml's `images` entry (where an operator sets their registry and tag)
    names the image the Deployment runs: otherwise kustomize leaves the placeholder in place."""
    image = _container()["image"]
    names = [entry["name"] for entry in _kustomization().get("images", [])]
    assert image.rsplit(":", 1)[0] in names


@pytest.mark.parametrize("version", KUBERNETES_VERSIONS)
@pytest.mark.parametrize("name", _resources())
def test_manifests_match_the_kubernetes_schemas(name: str, version: str) -> None:
    """Every manifest validates against the Kubernetes API's JSON schemas of that version,
    the strict ones: a field the API does not know (a typo, or one of another version) or a
    value of the wrong type (an unquoted number as an annotation) fails."""
    docs = _load(name)
    assert docs, f"{name} holds no manifest"
    for doc in docs:
        try:
            kubernetes_validate.validate(doc, version, strict=True)
        except kubernetes_validate.ValidationError as e:
            path = "/".join(str(p) for p in e.absolute_path)
            raise AssertionError(f"{name}: {doc['kind']} at /{path}: {e.message}") from None


def test_the_schema_check_refuses_unknown_fields() -> None:
    """The validation above is strict indeed: a misspelt field and a number where the API
    takes a string are refused."""
    deployment = _one("Deployment")
    misspelt = yaml.safe_load(yaml.safe_dump(deployment))
    misspelt["spec"]["template"]["spec"]["containers"][0]["imagePullPolicyy"] = "Always"
    unquoted = yaml.safe_load(yaml.safe_dump(deployment))
    unquoted["spec"]["template"]["metadata"]["annotations"]["prometheus.io/port"] = 8000
    for doc in (misspelt, unquoted):
        with pytest.raises(kubernetes_validate.ValidationError):
            kubernetes_validate.validate(doc, KUBERNETES_VERSIONS[-1], strict=True)


# --- the pieces name each other --------------------------------------------------------------

def test_selectors_match_the_pods() -> None:
    """The Deployment's selector matches its own pod template (else the API refuses it), and
    the Service's and the PodDisruptionBudget's select those pods; every object carries the
    same `app.kubernetes.io/name`."""
    deployment = _one("Deployment")
    pod_labels = deployment["spec"]["template"]["metadata"]["labels"]
    selectors = {
        "Deployment": deployment["spec"]["selector"]["matchLabels"],
        "Service": _one("Service")["spec"]["selector"],
        "PodDisruptionBudget": _one("PodDisruptionBudget")["spec"]["selector"]["matchLabels"],
    }
    for kind, selector in selectors.items():
        assert selector, f"the {kind} selects every pod"
        assert selector.items() <= pod_labels.items(), f"the {kind} does not select the pods"
    names = {doc["metadata"]["labels"]["app.kubernetes.io/name"] for _, doc in _manifests()}
    assert names == {pod_labels["app.kubernetes.io/name"]}


def test_the_autoscaler_scales_the_deployment_on_cpu() -> None:
    """The HorizontalPodAutoscaler targets the Deployment by kind and name, keeps two replicas
    at least, and scales on CPU utilisation, which is measured against the container's CPU
    request (so there must be one). The Deployment sets no `replicas`: an apply would reset
    the autoscaler's count to it."""
    deployment = _one("Deployment")
    spec = _one("HorizontalPodAutoscaler")["spec"]
    target = spec["scaleTargetRef"]
    assert (target["apiVersion"], target["kind"], target["name"]) == (
        deployment["apiVersion"], deployment["kind"], deployment["metadata"]["name"])
    assert 2 <= spec["minReplicas"] <= spec["maxReplicas"]
    (metric,) = spec["metrics"]
    assert metric["type"] == "Resource" and metric["resource"]["name"] == "cpu"
    assert metric["resource"]["target"]["type"] == "Utilization"
    assert "cpu" in _container()["resources"]["requests"]
    assert "replicas" not in deployment["spec"]


def test_the_ports_line_up() -> None:
    """One port throughout: gunicorn binds `$PORT`, which is the container port, the
    Dockerfile's EXPOSE, the Service's targetPort, every probe's port and the scrape
    annotation's port."""
    port = _container_port()
    assert int(_env()["PORT"]) == port
    exposed = [int(p.split("/")[0]) for keyword, args in _dockerfile_final_stage()
               if keyword == "EXPOSE" for p in args.split()]
    assert port in exposed
    (service_port,) = _one("Service")["spec"]["ports"]
    assert _resolve_port(service_port["targetPort"]) == port
    for kind, probe in _probes().items():
        assert _resolve_port(probe["httpGet"]["port"]) == port, kind
    annotations = _one("Deployment")["spec"]["template"]["metadata"]["annotations"]
    assert int(annotations["prometheus.io/port"]) == port


def test_the_probes_and_the_scrape_ask_routes_the_app_serves(app: Flask) -> None:
    """Each probe's path, and the scrape annotation's, answers 200 from the app itself: a
    misspelt path would fail every probe and keep the pods from ever becoming ready. Readiness
    (and start-up) asks `/readyz`, which says whether the rule sets are loaded; liveness asks
    `/healthz`, which only says the process answers."""
    probes = _probes()
    assert {"readinessProbe", "livenessProbe"} <= probes.keys()
    annotations = _one("Deployment")["spec"]["template"]["metadata"]["annotations"]
    paths = [probe["httpGet"]["path"] for probe in probes.values()]
    paths.append(annotations["prometheus.io/path"])
    client = app.test_client()
    for path in paths:
        assert client.get(path).status_code == 200, path
    assert probes["readinessProbe"]["httpGet"]["path"] == "/readyz"
    assert probes["livenessProbe"]["httpGet"]["path"] == "/healthz"


# --- what the manifests assume of the image and the service -----------------------------------

def test_workers_match_the_cpu_limit_and_fit_in_memory() -> None:
    """One gunicorn worker per core the container may use: WEB_CONCURRENCY equals the CPU
    limit (a whole number of cores). The memory limit holds the master and that many workers
    at their measured maximum, with headroom."""
    resources = _container()["resources"]
    cores = _cpu_cores(resources["limits"]["cpu"])
    workers = int(_env()["WEB_CONCURRENCY"])
    assert cores == workers
    needed = (MASTER_MIB + workers * WORKER_MAX_MIB) * MEMORY_HEADROOM
    assert _mebibytes(resources["limits"]["memory"]) >= needed
    assert _mebibytes(resources["requests"]["memory"]) <= _mebibytes(
        resources["limits"]["memory"])


def test_the_pod_runs_as_the_images_user() -> None:
    """runAsUser and runAsGroup are the numeric `USER uid:gid` of the Dockerfile's image, and
    not root: the image's files are root's and read-only to that user."""
    (user,) = [args for keyword, args in _dockerfile_final_stage() if keyword == "USER"]
    uid, _, gid = user.partition(":")
    context = _pod_spec()["securityContext"]
    assert context["runAsNonRoot"] is True
    assert context["runAsUser"] == int(uid) != 0
    assert context["runAsGroup"] == int(gid or uid)


def test_the_container_is_locked_down() -> None:
    """No privilege escalation, no capabilities, the runtime's default seccomp profile, and a
    read-only root filesystem."""
    context = _container()["securityContext"]
    assert context["allowPrivilegeEscalation"] is False
    assert context["readOnlyRootFilesystem"] is True
    assert context["capabilities"]["drop"] == ["ALL"]
    assert "add" not in context["capabilities"]
    assert _pod_spec()["securityContext"]["seccompProfile"]["type"] == "RuntimeDefault"


def test_the_writable_paths_are_volumes() -> None:
    """Under a read-only root filesystem the service writes only to the metrics directory
    (`PROMETHEUS_MULTIPROC_DIR`, which `./run serve` creates and empties), the temporary
    directory and /dev/shm (gunicorn's heartbeat files; the runtime mounts it writable):
    the first two must be emptyDir volumes mounted there."""
    volumes = {v["name"]: v for v in _pod_spec()["volumes"]}
    mounts = {m["mountPath"]: m["name"] for m in _container()["volumeMounts"]}
    env = _env()
    for path in (env["PROMETHEUS_MULTIPROC_DIR"], env.get("TMPDIR", "/tmp"), "/tmp"):
        assert path in mounts, f"{path} is not a volume"
        assert "emptyDir" in volumes[mounts[path]], f"{path} is not an emptyDir"
    # Not one directory for both: `./run serve` deletes the *.db files of the metrics one.
    assert len({mounts[env["PROMETHEUS_MULTIPROC_DIR"]], mounts["/tmp"]}) == 2


def test_the_environment_names_only_what_the_service_reads() -> None:
    """Every variable the Deployment sets is one the service reads (a misspelt name would be
    ignored without a word), and MAHJONG_PURE_PYTHON is not among them: it changes what
    `./run serve` compares with the image's install stamp, and the mismatch would make it
    install into the image's read-only .venv at every start."""
    env = _env()
    unknown = set(env) - _variables_the_service_reads()
    assert not unknown, f"the service reads no {sorted(unknown)}"
    assert "MAHJONG_PURE_PYTHON" not in env


def test_termination_waits_for_gunicorn() -> None:
    """The kubelet kills a pod terminationGracePeriodSeconds after it starts stopping it: that
    must leave the preStop pause and then gunicorn's graceful_timeout (requests in progress
    finish) time to run."""
    spec = _pod_spec()
    command = _container()["lifecycle"]["preStop"]["exec"]["command"]
    assert command[0] == "sleep"
    pause = int(command[1])
    assert spec["terminationGracePeriodSeconds"] > pause + _gunicorn_setting("graceful_timeout")
