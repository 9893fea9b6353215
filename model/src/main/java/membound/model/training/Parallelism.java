package membound.model.training;

import membound.vocabulary.BadInputException;

/**
 * How many devices and how the work is split among them: data parallel (replicas, gradients
 * all-reduced once per step; ZeRO stage 1/2/3 shards optimizer states, gradients, weights over
 * them), tensor parallel (each layer's matrices split, Megatron-style, with sequence parallelism:
 * activations split too) and pipeline parallel (layers split into stages, 1F1B schedule). The
 * link is the one the devices talk over; null picks the machine's peer link, else its network link.
 *
 * <p>{@code nodes}: how many machines the devices are spread over, each holding {@link #devicesPerNode} of them
 * (1: all in one box). Across nodes the data-parallel collectives run hierarchically (NVLink inside a node, the
 * network across: {@link membound.model.Estimator#parallelLink}); tensor-parallel groups must fit inside a node,
 * as every trainer places them.
 */
public record Parallelism(int dataParallel, int tensorParallel, int pipelineParallel, int zeroStage, String link,
                          int nodes) {

    public static final Parallelism SINGLE = new Parallelism(1, 1, 1, 0, null);

    public Parallelism {
        positive("dataParallel", dataParallel);
        positive("tensorParallel", tensorParallel);
        positive("pipelineParallel", pipelineParallel);
        positive("nodes", nodes);
        if (zeroStage < 0 || zeroStage > 3) {
            throw new BadInputException("zero stage must be 0, 1, 2 or 3: zeroStage=" + zeroStage);
        }
        int devices = dataParallel * tensorParallel * pipelineParallel;
        if (devices % nodes != 0) {
            throw new BadInputException("nodes must divide the devices (data x tensor x pipeline parallel): nodes="
                    + nodes + ", devices=" + devices);
        }
        if (nodes > 1 && tensorParallel > devices / nodes) {
            throw new BadInputException("tensor-parallel must be at most the GPUs per node (a tensor-parallel group "
                    + "stays inside a node): tensor-parallel=" + tensorParallel + ", gpus-per-node=" + devices / nodes);
        }
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
        return dataParallel * tensorParallel * pipelineParallel;
    }

    private static void positive(String what, int value) {
        if (value <= 0) {
            throw new BadInputException(what + " must be positive: " + what + "=" + value);
        }
    }
}
