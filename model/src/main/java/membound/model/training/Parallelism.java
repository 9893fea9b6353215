package membound.model.training;

import membound.vocabulary.BadInputException;

/**
 * How many devices and how the work is split among them, as Megatron-Core names the dimensions:
 * <ul>
 *   <li>data parallel (replicas, gradients reduced once per step; ZeRO stage 1/2/3 shards optimizer states,
 *   gradients, weights over them);</li>
 *   <li>tensor parallel (each layer's matrices split, Megatron-style, with sequence parallelism: activations split
 *   too);</li>
 *   <li>pipeline parallel (layers split into stages, 1F1B schedule), with {@code virtualStages} chunks of layers per
 *   device (Megatron's interleaved 1F1B, Narayanan et al. 2021, section 2.2: the bubble shrinks by that factor, the
 *   point-to-point sends grow by it);</li>
 *   <li>context parallel (each sequence split over {@code contextParallel} devices, as Megatron's ring attention runs
 *   it: every linear layer sees 1/c of the tokens, attention exchanges keys and values around the ring, and the
 *   gradients are reduced over data x context parallel ranks);</li>
 *   <li>expert parallel (a mixture of experts' experts placed {@code E / expertParallel} per device, each token sent to
 *   the devices of its experts and back by all-to-all; expert tensor parallelism 1, as Megatron-Core runs it by
 *   default: the expert-parallel group is folded over the data-, context- and tensor-parallel ranks of a stage, so
 *   it must divide their product);</li>
 *   <li>{@code shardGroup}: with ZeRO-3, 0 shards over the whole data-parallel group (FSDP FULL_SHARD), s &gt; 0 only
 *   inside groups of s replicas, which are replicated across (hybrid sharding, FSDP HYBRID_SHARD / HSDP).</li>
 * </ul>
 * Devices = data x tensor x pipeline x context parallel. The link is the one the devices talk over; null picks the
 * machine's peer link, else its network link.
 *
 * <p>{@code nodes}: how many NVLink domains the devices are spread over, each holding {@link #devicesPerNode} of them
 * (1: all in one box; an NVL72 rack is one node of up to 72). Ranks are laid out tensor parallel fastest, then
 * context, data and pipeline parallel (Megatron's order): the collectives of each group run on the link its ranks
 * span, NVLink inside a node and the network across (NCCL's hierarchical algorithms for the data-parallel ones:
 * {@link membound.model.Estimator#parallelLink}). Tensor-parallel groups must fit inside a node, as every trainer
 * places them.
 */
public record Parallelism(int dataParallel, int tensorParallel, int pipelineParallel, int contextParallel,
                          int virtualStages, int expertParallel, int zeroStage, int shardGroup, String link,
                          int nodes) {

    public static final Parallelism SINGLE = new Parallelism(1, 1, 1, 0, null);

    public Parallelism {
        positive("dataParallel", dataParallel);
        positive("tensorParallel", tensorParallel);
        positive("pipelineParallel", pipelineParallel);
        positive("contextParallel", contextParallel);
        positive("virtualStages", virtualStages);
        positive("expertParallel", expertParallel);
        positive("nodes", nodes);
        if (zeroStage < 0 || zeroStage > 3) {
            throw new BadInputException("zero stage must be 0, 1, 2 or 3: zeroStage=" + zeroStage);
        }
        if (virtualStages > 1 && pipelineParallel == 1) {
            throw new BadInputException("virtual pipeline stages need pipeline parallelism (interleaved 1F1B "
                    + "splits each device's layers): virtualStages=" + virtualStages + ", pipelineParallel=1");
        }
        int stage = dataParallel * contextParallel * tensorParallel;
        if (stage % expertParallel != 0) {
            throw new BadInputException("expert-parallel must divide data x context x tensor parallel (" + stage
                    + "; Megatron-Core folds the expert-parallel group over a stage's ranks): expertParallel="
                    + expertParallel);
        }
        if (shardGroup < 0) {
            throw new BadInputException("shard group must be 0 (shard over every replica) or more: shardGroup="
                    + shardGroup);
        }
        if (shardGroup > 0 && zeroStage != 3) {
            throw new BadInputException("a shard group (hybrid sharding) needs ZeRO stage 3: shardGroup=" + shardGroup
                    + ", zeroStage=" + zeroStage);
        }
        if (shardGroup > 0 && dataParallel % shardGroup != 0) {
            throw new BadInputException("shard group must divide data parallel (" + dataParallel + "): shardGroup="
                    + shardGroup);
        }
        int devices = dataParallel * tensorParallel * pipelineParallel * contextParallel;
        if (devices % nodes != 0) {
            throw new BadInputException("nodes must divide the devices (data x tensor x pipeline x context parallel): "
                    + "nodes=" + nodes + ", devices=" + devices);
        }
        if (nodes > 1 && tensorParallel > devices / nodes) {
            throw new BadInputException("tensor-parallel must be at most the GPUs per node (a tensor-parallel group "
                    + "stays inside a node): tensor-parallel=" + tensorParallel + ", gpus-per-node=" + devices / nodes);
        }
    }

    /** Data, tensor and pipeline parallelism over nodes (no context or expert parallelism, plain 1F1B). */
    public Parallelism(int dataParallel, int tensorParallel, int pipelineParallel, int zeroStage, String link,
                       int nodes) {
        this(dataParallel, tensorParallel, pipelineParallel, 1, 1, 1, zeroStage, 0, link, nodes);
    }

    /** All devices in one box. */
    public Parallelism(int dataParallel, int tensorParallel, int pipelineParallel, int zeroStage, String link) {
        this(dataParallel, tensorParallel, pipelineParallel, zeroStage, link, 1);
    }

    /** Devices in each node. */
    public int devicesPerNode() {
        return devices() / nodes;
    }

    public int devices() {
        return dataParallel * tensorParallel * pipelineParallel * contextParallel;
    }

    /** The ranks the gradients of the dense (non-expert) weights are reduced over: data x context parallel. */
    public int gradientGroup() {
        return dataParallel * contextParallel;
    }

    /**
     * The ranks the gradients of the experts' weights are reduced over: the stage's ranks over the expert-parallel
     * ones (Megatron-Core's expert data parallel), the dense group without expert parallelism.
     */
    public int expertGradientGroup() {
        return expertParallel == 1 ? gradientGroup() : dataParallel * contextParallel * tensorParallel / expertParallel;
    }

    /** The ranks ZeRO shards over: the shard group with hybrid sharding, else every data-parallel replica. */
    public int shardedOver() {
        return shardGroup > 0 ? shardGroup : dataParallel;
    }

    /** The idle share of the pipeline over {@code microBatches} micro-batches: (p - 1) / (m v), 0 without a pipeline. */
    public double bubbleFraction(double microBatches) {
        return pipelineParallel == 1 ? 0 : (pipelineParallel - 1) / (microBatches * virtualStages);
    }

    /** Whether this layout uses more than data, tensor and pipeline parallelism in plain 1F1B. */
    public boolean extended() {
        return contextParallel > 1 || virtualStages > 1 || expertParallel > 1 || shardGroup > 0;
    }

    private static void positive(String what, int value) {
        if (value <= 0) {
            throw new BadInputException(what + " must be positive: " + what + "=" + value);
        }
    }
}
