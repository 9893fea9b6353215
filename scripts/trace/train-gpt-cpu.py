#!/usr/bin/env python3
"""Trains a small GPT-2-style model for a few steps on the CPU under torch.profiler and writes the trace.

Writes, into the directory given (default: trace/src/test/resources/membound/trace/torch-cpu):
  gpt-cpu.pt.trace.json.gz  the profiler's Chrome trace of the active steps, gzipped
  config.json               the model as a Hugging Face GPT-2 config, for `membound trace --model config.json`

The trace is what Debian's python3-torch (1.13, CPU only, built without Kineto) writes: the older Chrome-trace
form, a top-level list of events. The setup to give `membound trace` beside it is printed at the end.

    apt-get install -y python3-torch
    /usr/bin/python3 scripts/trace/train-gpt-cpu.py [OUT_DIR]
"""
import gzip
import json
import math
import os
import shutil
import sys
import tempfile

import torch
import torch.nn as nn
import torch.nn.functional as F

VOCAB = 512
POSITIONS = 128
HIDDEN = 256
LAYERS = 4
HEADS = 4
SEQ = 128
BATCH = 8
WAIT, WARMUP, ACTIVE = 1, 1, 3


class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.ln_1 = nn.LayerNorm(HIDDEN)
        self.c_attn = nn.Linear(HIDDEN, 3 * HIDDEN)
        self.c_proj = nn.Linear(HIDDEN, HIDDEN)
        self.ln_2 = nn.LayerNorm(HIDDEN)
        self.c_fc = nn.Linear(HIDDEN, 4 * HIDDEN)
        self.mlp_proj = nn.Linear(4 * HIDDEN, HIDDEN)
        self.register_buffer("mask", torch.tril(torch.ones(SEQ, SEQ, dtype=torch.bool)))

    def forward(self, x):
        b, t, c = x.shape
        q, k, v = self.c_attn(self.ln_1(x)).split(HIDDEN, dim=2)
        q = q.view(b, t, HEADS, c // HEADS).transpose(1, 2)
        k = k.view(b, t, HEADS, c // HEADS).transpose(1, 2)
        v = v.view(b, t, HEADS, c // HEADS).transpose(1, 2)
        att = (q @ k.transpose(-2, -1)) / math.sqrt(c // HEADS)
        att = att.masked_fill(~self.mask[:t, :t], float("-inf"))
        y = F.softmax(att, dim=-1) @ v
        x = x + self.c_proj(y.transpose(1, 2).contiguous().view(b, t, c))
        return x + self.mlp_proj(F.gelu(self.c_fc(self.ln_2(x))))


class Gpt(nn.Module):
    def __init__(self):
        super().__init__()
        self.wte = nn.Embedding(VOCAB, HIDDEN)
        self.wpe = nn.Embedding(POSITIONS, HIDDEN)
        self.h = nn.ModuleList(Block() for _ in range(LAYERS))
        self.ln_f = nn.LayerNorm(HIDDEN)

    def forward(self, idx):
        x = self.wte(idx) + self.wpe(torch.arange(idx.shape[1]))
        for block in self.h:
            x = block(x)
        return self.ln_f(x) @ self.wte.weight.t()


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else "trace/src/test/resources/membound/trace/torch-cpu"
    os.makedirs(out, exist_ok=True)
    torch.manual_seed(42)
    torch.set_num_threads(1)
    model = Gpt()
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
    data = torch.randint(0, VOCAB, (BATCH, SEQ + 1))
    tmp = tempfile.mkdtemp()
    raw = os.path.join(tmp, "trace.json")

    def written(prof):
        prof.export_chrome_trace(raw)

    schedule = torch.profiler.schedule(wait=WAIT, warmup=WARMUP, active=ACTIVE, repeat=1)
    with torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CPU], schedule=schedule,
                                record_shapes=True, on_trace_ready=written) as prof:
        for _ in range(WAIT + WARMUP + ACTIVE):
            logits = model(data[:, :-1])
            loss = F.cross_entropy(logits.reshape(-1, VOCAB), data[:, 1:].reshape(-1))
            optimizer.zero_grad(set_to_none=True)
            loss.backward()
            optimizer.step()
            prof.step()
    with open(raw, "rb") as src, gzip.open(os.path.join(out, "gpt-cpu.pt.trace.json.gz"), "wb", 9) as dst:
        shutil.copyfileobj(src, dst)
    shutil.rmtree(tmp)
    config = {"model_type": "gpt2", "architectures": ["GPT2LMHeadModel"], "vocab_size": VOCAB,
              "n_positions": POSITIONS, "n_embd": HIDDEN, "n_layer": LAYERS, "n_head": HEADS,
              "n_inner": 4 * HIDDEN, "activation_function": "gelu", "tie_word_embeddings": True}
    with open(os.path.join(out, "config.json"), "w") as f:
        json.dump(config, f, indent=2)
        f.write("\n")
    print("torch", torch.__version__, "threads", torch.get_num_threads())
    print("membound trace", os.path.join(out, "gpt-cpu.pt.trace.json.gz"), "--model", os.path.join(out, "config.json"),
          "--seq-len", SEQ, "--micro-batch", BATCH, "--precision fp32 --profile latest")


if __name__ == "__main__":
    main()
