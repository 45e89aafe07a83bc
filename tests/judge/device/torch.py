"""The judges' stand-in for torch, on the path of every generated program:
the device that the stub platform (judgelib.PLATFORM_STUB) asks, in the
shape vLLM's platforms ask it, answering the capability the judge set on
`current_platform.cap` (None: a device that does not answer)."""
import sys


class cuda:
    @staticmethod
    def get_device_capability(device_id=0):
        cap = sys.modules["vllm.platforms"].current_platform.cap
        if cap is None:
            raise RuntimeError("the device does not answer")
        return divmod(cap, 10)
