"""Test-only workaround for torch 1.13's torchrun on Python 3.11 (slurm2air e2e tests).

On Python 3.11 iterating an IntFlag skips its zero member, so
torch.distributed.elastic.multiprocessing.api.Std.from_str("0") returns None
instead of Std.NONE and every torchrun launch dies in to_map. This hook patches
from_str when (and only when) that module is imported, so other Python
processes do not pay for importing torch.
"""
import importlib.abc
import importlib.util
import sys

_TARGET = "torch.distributed.elastic.multiprocessing.api"


def _patch(module):
    std = getattr(module, "Std", None)
    if std is None or not hasattr(std, "from_str"):
        return
    original = std.from_str

    def from_str(vm):
        result = original(vm)
        if result is None:
            return std.NONE
        if isinstance(result, dict):
            return {key: std.NONE if value is None else value for key, value in result.items()}
        return result

    std.from_str = staticmethod(from_str)


class _PatchOnImport(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path, target=None):
        if name != _TARGET:
            return None
        sys.meta_path.remove(self)
        spec = importlib.util.find_spec(name)
        if spec is None or spec.loader is None:
            return spec
        exec_module = spec.loader.exec_module

        def exec_and_patch(module):
            exec_module(module)
            _patch(module)

        spec.loader.exec_module = exec_and_patch
        return spec


sys.meta_path.insert(0, _PatchOnImport())
