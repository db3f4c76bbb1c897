#!/usr/bin/env python3
"""Reads every N.yaml in a directory with Python's yaml (PyYAML, YAML 1.1)
and checks it against N.cpp.json, what yaml-cpp read from the same file
(a flat {path: scalar text} map), and against the workload schema
(spec/air-runtime.md): keys, types, name pattern, command size.
Prints one line per problem; exits 1 if there is any."""
import json, os, re, sys
import yaml

INT_KEYS = {"max_retries", "timeout_minutes", "compute.num_accelerators"}
TOP = {"experiment_name", "compute", "environment", "command", "env_variables", "secrets",
       "code_source", "max_retries", "timeout_minutes", "idempotency_token", "parameters",
       "mlflow_run_name", "mlflow_experiment_directory", "mlflow_artifact_location",
       "permissions", "usage_policy_name", "usage_policy_id"}


def flatten(node, path, out):
    if isinstance(node, dict):
        for k, v in node.items():
            flatten(v, "%s.%s" % (path, k) if path else str(k), out)
    elif isinstance(node, list):
        for i, v in enumerate(node):
            flatten(v, "%s[%d]" % (path, i), out)
    else:
        out[path] = node
    return out


def schema_problems(doc):
    if not isinstance(doc, dict):
        return ["not a map"]
    problems = ["unknown key %s" % k for k in doc if k not in TOP]
    for key in ("experiment_name", "compute", "command"):
        if key not in doc:
            problems.append("missing %s" % key)
    name = doc.get("experiment_name")
    if not isinstance(name, str) or not re.fullmatch(r"[A-Za-z0-9_-]+", name):
        problems.append("experiment_name %r" % (name,))
    command = doc.get("command")
    if not isinstance(command, str) or not command.strip():
        problems.append("command empty or not a string")
    elif command.count("\n") > 1000:
        problems.append("command over 1000 lines")
    for key in ("env_variables", "secrets"):
        value = doc.get(key, {})
        if not isinstance(value, dict) or not all(
                isinstance(k, str) and isinstance(v, str) for k, v in value.items()):
            problems.append("%s must map strings to strings" % key)
    compute = doc.get("compute")
    if not isinstance(compute, dict) or not isinstance(compute.get("accelerator_type"), str):
        problems.append("compute.accelerator_type missing")
    return problems


def main():
    directory = sys.argv[1]
    names = sorted(f[:-5] for f in os.listdir(directory) if f.endswith(".yaml"))
    failures = 0
    for name in names:
        path = os.path.join(directory, name + ".yaml")
        with open(path, encoding="utf-8") as handle:
            doc = yaml.safe_load(handle)
        with open(os.path.join(directory, name + ".cpp.json"), encoding="utf-8") as handle:
            cpp = json.load(handle)
        problems = schema_problems(doc)
        flat = flatten(doc, "", {})
        if set(flat) != set(cpp):
            problems.append("paths differ: %s" % sorted(set(flat) ^ set(cpp))[:5])
        for key, value in flat.items():
            if key not in cpp:
                continue
            want_int = key in INT_KEYS
            if want_int != isinstance(value, int) or isinstance(value, bool):
                problems.append("%s: PyYAML reads %r (%s)" % (key, value, type(value).__name__))
            elif str(value) != cpp[key]:
                problems.append("%s: PyYAML %r, yaml-cpp %r" % (key, value, cpp[key]))
        for problem in problems:
            print("%s: %s" % (name, problem))
        failures += bool(problems)
    print("yaml_check.py: %d files, %d with problems" % (len(names), failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
