package membound.validate.published;

import membound.model.engine.Engine;
import membound.model.training.Checkpointing;
import membound.model.training.FineTuning;
import membound.model.training.LoraTarget;
import membound.model.training.MoeDispatcher;
import membound.model.training.Parallelism;
import membound.model.training.TrainingSetup;
import membound.model.workload.Transformer;
import membound.vocabulary.BadInputException;
import membound.vocabulary.Precision;

/**
 * A training row's setup as the published set's columns give it: the parallel layout, recompute, fine-tuning and
 * precision columns read into the model's {@link TrainingSetup}, with the row and column named on a value it cannot
 * read.
 */
final class TrainingRows {

    private TrainingRows() {
    }

    /**
     * A training row's setup from its columns. {@code parallel}: comma-separated {@code dpN} (data parallel), {@code tpN}
     * (tensor), {@code ppN} (pipeline), {@code cpN} (context), {@code vpN} (virtual stages per device: interleaved
     * 1F1B), {@code epN} (expert parallel), {@code zeroS} (ZeRO stage: 1 = Megatron's distributed optimizer, 3 = FSDP),
     * {@code shardN} (hybrid sharding: ZeRO-3 inside groups of N replicas), {@code nodesN} (N nodes of equal size) or
     * {@code nvlN} (NVLink domains of at most N GPUs, as GB200 NVL72 racks: the devices fill domains of the largest
     * divisor of their count not above N), {@code a2a} (Megatron-Core's all-to-all token dispatcher, where the row's
     * recipe runs it; else a fused dispatch path: its flex dispatcher, or the trainer's own), {@code epoverlap}
     * (Megatron-Core's expert-parallel communication overlap, the recipe's {@code moe_a2a_overlap}), {@code nopgo}
     * (the distributed optimizer's parameter all-gather not overlapped: the recipe turns {@code overlap_param_gather}
     * off); {@code -} for one device. {@code recompute}: {@code none}, {@code
     * selective} (the attention core), {@code selective:m1,m2} (Megatron's recompute_modules), {@code full}, {@code
     * full:N} (N layers of each stage). {@code finetune}: {@code full}, {@code lora} or {@code qlora}, optionally
     * {@code :rN} (rank) and {@code :targets} (q,k,v,o,gate,up,down or all); without them the project's default rank 16
     * on every linear layer.
     */
    static TrainingSetup trainingSetup(PublishedRow row) {
        Parallelism parallelism = Parallelism.SINGLE;
        MoeDispatcher dispatcher = MoeDispatcher.FUSED;
        boolean expertOverlap = false;
        boolean parameterGatherOverlap = true;
        if (!row.parallel().equals("-")) {
            int dp = 1;
            int tp = 1;
            int pp = 1;
            int cp = 1;
            int vp = 1;
            int ep = 1;
            int zero = 0;
            int shard = 0;
            int nodes = 0;
            int domain = 0;
            for (String part : row.parallel().split(",")) {
                try {
                    if (part.equals("a2a")) {
                        dispatcher = MoeDispatcher.ALLTOALL;
                    } else if (part.equals("epoverlap")) {
                        expertOverlap = true;
                    } else if (part.equals("nopgo")) {
                        parameterGatherOverlap = false;
                    } else if (part.startsWith("dp")) {
                        dp = Integer.parseInt(part.substring(2));
                    } else if (part.startsWith("tp")) {
                        tp = Integer.parseInt(part.substring(2));
                    } else if (part.startsWith("pp")) {
                        pp = Integer.parseInt(part.substring(2));
                    } else if (part.startsWith("cp")) {
                        cp = Integer.parseInt(part.substring(2));
                    } else if (part.startsWith("vp")) {
                        vp = Integer.parseInt(part.substring(2));
                    } else if (part.startsWith("ep")) {
                        ep = Integer.parseInt(part.substring(2));
                    } else if (part.startsWith("zero")) {
                        zero = Integer.parseInt(part.substring(4));
                    } else if (part.startsWith("shard")) {
                        shard = Integer.parseInt(part.substring(5));
                    } else if (part.startsWith("nodes")) {
                        nodes = Integer.parseInt(part.substring(5));
                    } else if (part.startsWith("nvl")) {
                        domain = Integer.parseInt(part.substring(3));
                    } else {
                        throw new NumberFormatException(part);
                    }
                } catch (NumberFormatException e) {
                    throw new BadInputException("published.tsv line " + row.line() + ": parallel must be dpN[,tpN][,ppN]"
                            + "[,cpN][,vpN][,epN][,zeroS][,shardN][,nodesN|nvlN][,a2a][,epoverlap][,nopgo]: parallel="
                            + row.parallel());
                }
            }
            if (nodes > 0 && domain > 0) {
                throw new BadInputException("published.tsv line " + row.line() + ": parallel must name nodesN or nvlN, "
                        + "not both: parallel=" + row.parallel());
            }
            int devices = dp * tp * pp * cp;
            if (domain > 0) {
                nodes = devices / largestDivisorAtMost(devices, domain);
            }
            parallelism = new Parallelism(dp, tp, pp, cp, vp, ep, zero, shard, null, Math.max(1, nodes));
        }
        // "fp8+attention": the attention kernels in the GEMMs' precision too; "+bf16-states": parameters and optimizer
        // states in BF16 with no FP32 master copy (a model built with params_dtype bfloat16 under torch's AdamW).
        String[] weightParts = row.weights().split("\\+");
        boolean lowPrecisionAttention = false;
        boolean bf16States = false;
        for (int i = 1; i < weightParts.length; i++) {
            switch (weightParts[i]) {
                case "attention" -> lowPrecisionAttention = true;
                case "bf16-states" -> bf16States = true;
                default -> throw new BadInputException("published.tsv line " + row.line() + ": weights must be a "
                        + "precision with +attention or +bf16-states after it: weights=" + row.weights());
            }
        }
        Precision precision = Precision.parse(weightParts[0]);
        String[] tuning = row.finetune().split(":");
        int rank = membound.model.Defaults.LORA_RANK;
        java.util.Set<LoraTarget> targets = LoraTarget.allLinear();
        for (int i = 1; i < tuning.length; i++) {
            if (tuning[i].matches("r[0-9]+")) {
                rank = Integer.parseInt(tuning[i].substring(1));
            } else {
                targets = LoraTarget.parseList(tuning[i]);
            }
        }
        if (tuning[0].equals("full") && tuning.length > 1) {
            throw new BadInputException("published.tsv line " + row.line() + ": full fine-tuning takes no rank or "
                    + "targets: finetune=" + row.finetune());
        }
        FineTuning fineTuning = switch (tuning[0]) {
            case "full" -> FineTuning.full();
            case "lora" -> FineTuning.lora(rank, targets);
            case "qlora" -> FineTuning.qlora(rank, targets);
            default -> throw new BadInputException("published.tsv line " + row.line() + ": finetune must be full, "
                    + "lora[:rN][:targets] or qlora[:rN][:targets]: finetune=" + row.finetune());
        };
        String[] recompute = row.recompute().split(":", 2);
        Checkpointing checkpointing = switch (recompute[0]) {
            case "none" -> Checkpointing.NONE;
            case "selective" -> Checkpointing.SELECTIVE;
            case "full" -> Checkpointing.FULL;
            default -> throw new BadInputException("published.tsv line " + row.line() + ": recompute must be none, "
                    + "selective[:modules] or full[:layers]: recompute=" + row.recompute());
        };
        TrainingSetup.Builder b = TrainingSetup.builder().steps(1).sequenceLength(row.tokens())
                .microBatchSize(row.batch()).gradientAccumulation(row.accumulation())
                .checkpointing(checkpointing)
                .flashAttention(true).parallelism(parallelism).fineTuning(fineTuning).overlapCommunication(true)
                .moeDispatcher(dispatcher).overlapExpertCommunication(expertOverlap)
                .overlapParameterGather(parameterGatherOverlap)
                // The row's trainer's attention kernel on the day the figure was published (trainers.tsv).
                .attentionKernel(membound.model.trainer.Trainer.parse(row.engine()).attentionKernel(row.date()));
        if (recompute.length > 1 && checkpointing == Checkpointing.SELECTIVE) {
            b.recomputeModules(membound.model.training.RecomputeModule.parseList(recompute[1]));
        } else if (recompute.length > 1 && checkpointing == Checkpointing.FULL) {
            try {
                b.recomputeLayers(Integer.parseInt(recompute[1]));
            } catch (NumberFormatException e) {
                throw new BadInputException("published.tsv line " + row.line() + ": recompute full takes a layer "
                        + "count: recompute=" + row.recompute());
            }
        } else if (recompute.length > 1) {
            throw new BadInputException("published.tsv line " + row.line() + ": recompute none takes nothing after it: "
                    + "recompute=" + row.recompute());
        }
        if (precision.bits() <= 8) {
            // Low-precision training (Transformer Engine: FP8, MXFP8, NVFP4): GEMMs in that format, BF16 weights,
            // activations and attention (FP8 attention where the row says "+attention"), FP32 master copies.
            b.precision(Precision.BF16).activationPrecision(precision);
            if (lowPrecisionAttention) {
                b.attentionPrecision(precision == Precision.NVFP4 ? Precision.FP8 : precision);
            }
        } else {
            b.precision(precision);
        }
        if (bf16States) {
            b.optimizerStatePrecision(Precision.BF16).masterWeights(false);
        }
        return b.build();
    }

    /** The largest divisor of {@code n} not above {@code most}: how many GPUs of a job share each NVLink domain. */
    static int largestDivisorAtMost(int n, int most) {
        for (int d = Math.min(n, most); d > 1; d--) {
            if (n % d == 0) {
                return d;
            }
        }
        return 1;
    }
}
