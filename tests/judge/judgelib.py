"""What the CPython judges share (tests/judge/judge.py, the liveness judge,
and tests/judge/rewrite_judge.py, the rewrite judge): writing a generated
tree, running muhpatch and CPython on it, and the stub platform the
generated programs test (`current_platform.has_device_capability(80)`,
`is_hip()`), whose every answer a judge can set before a run.
Standard library only.
"""
import itertools
import os
import subprocess
import sys

# vllm/platforms/__init__.py of a generated tree: the names the fork's
# conditions read, answering what the judge sets on `current_platform`.
# The capability comes from the device query (device/torch.py, on the
# program's path), as muhpatch requires of a capability it reads from the
# declared card (capability_body.h).
PLATFORM_STUB = """import torch


class _Platform:
    cap = 70
    hip = False

    def has_device_capability(self, capability):
        major, minor = torch.cuda.get_device_capability()
        return major * 10 + minor >= capability

    def is_rocm(self):
        return self.hip


current_platform = _Platform()


def is_hip():
    return current_platform.hip
"""

# Every answer the stub can give: a card below SM80, at it and above it
# (SM90), CUDA or HIP.
PLATFORM_ANSWERS = [{"cap": cap, "hip": hip}
                    for cap, hip in itertools.product((70, 80, 90), (False, True))]


# A device whose capability query raises (cap None), as a driver that is
# not ready may: the rewrite judge runs it too, so that a wrap that tests
# the condition where the original did not shows its exception.
RAISING_ANSWERS = [{"cap": None, "hip": False}]


def set_platform(platform_module, answer):
    """Make the stub give `answer` (one of PLATFORM_ANSWERS)."""
    platform_module.current_platform.cap = answer["cap"]
    platform_module.current_platform.hip = answer["hip"]


def write_files(root, files):
    """Write {relative path: text} under root."""
    for path, text in files.items():
        full = os.path.join(root, path)
        os.makedirs(os.path.dirname(full), exist_ok=True)
        with open(full, "w", encoding="utf-8") as fh:
            fh.write(text)


def run_muhpatch(muhpatch, args, ok=(0,), timeout=60):
    """muhpatch ARGS; its exit code must be one of `ok`."""
    proc = subprocess.run([muhpatch] + list(args), capture_output=True, text=True,
                          timeout=timeout)
    if proc.returncode not in ok:
        raise RuntimeError("muhpatch %s exited %d:\n%s" % (" ".join(args), proc.returncode,
                                                          proc.stderr))
    return proc


def judge_env():
    """The environment a generated program runs in: none of the judge's own
    JUDGE_* variables."""
    return {k: v for k, v in os.environ.items() if not k.startswith("JUDGE_")}


# The stand-in device (device/torch.py), outside every generated tree.
DEVICE_PATH = os.path.join(os.path.dirname(os.path.abspath(__file__)), "device")


def run_python(script, args, timeout=60):
    """CPython (this interpreter) on `script` with `args`, the stand-in
    device on its path; its stdout."""
    env = judge_env()
    env["PYTHONPATH"] = DEVICE_PATH + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    proc = subprocess.run([sys.executable, "-B", script] + list(args), capture_output=True,
                          text=True, env=env, timeout=timeout)
    if proc.returncode != 0:
        raise RuntimeError("the generated program failed under CPython:\n" + proc.stderr)
    return proc.stdout
