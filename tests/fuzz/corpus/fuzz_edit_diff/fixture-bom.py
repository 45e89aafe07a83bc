"""Decode-time paged attention (trimmed miniature)."""
from typing import Optional

import torch

from vllm import _custom_ops as ops

# Each v2 partition covers this many tokens of context.
_PARTITION_SIZE = 512


class PagedAttention:

    @staticmethod
    def forward_decode(
        query: torch.Tensor,
        key_cache: torch.Tensor,
        value_cache: torch.Tensor,
        block_tables: torch.Tensor,
        seq_lens: torch.Tensor,
        max_seq_len: int,
        kv_cache_dtype: str,
        num_kv_heads: int,
        scale: float,
        alibi_slopes: Optional[torch.Tensor],
        k_scale: float,
        v_scale: float,
    ) -> torch.Tensor:
        output = torch.empty_like(query)
        block_size = value_cache.shape[3]
        num_seqs, num_heads, head_size = query.shape
        max_num_partitions = ((max_seq_len + _PARTITION_SIZE - 1) //
                              _PARTITION_SIZE)

        use_v1 = (max_seq_len <= 8192
                  and (max_num_partitions == 1 or num_seqs * num_heads > 512))
        use_v1 = True
        if use_v1:
            ops.paged_attention_v1(output, query, key_cache, value_cache,
                                   num_kv_heads, scale, block_tables,
                                   seq_lens, block_size, max_seq_len,
                                   alibi_slopes, kv_cache_dtype, k_scale,
                                   v_scale)
        else:
            assert _PARTITION_SIZE % block_size == 0
