"""Device-query wrappers for the BI-V100 (trimmed for the smem case)."""
import torch

import ixformer.functions as ixf_F


def swap_blocks(src: torch.Tensor, dst: torch.Tensor,
                block_mapping: torch.Tensor) -> None:
    ixf_F.vllm_swap_blocks(src, dst, block_mapping)


def get_device_attribute(attribute: int, device: int) -> int:
    raise NotImplementedError()


def get_max_shared_memory_per_block_device_attribute(device: int) -> int:
    # The BI-V100 gives each thread block 32 KiB of shared memory.
    return 32 * 1024