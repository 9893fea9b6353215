package membound.model.training;

import membound.vocabulary.BadInputException;

/**
 * How many devices and how the work is split among them: data parallel (replicas, gradients
 * all-reduced once per step; ZeRO stage 1/2/3 shards optimizer states, gradients, weights over
 * them), tensor parallel (each layer's matrices split, Megatron-style, with sequence parallelism:
 * activations split too) and pipeline parallel (layers split into stages, 1F1B schedule). The
 * link is the one the devices talk over; null picks the machine's peer link, else its network link.
 */
public record Parallelism(int dataParallel, int tensorParallel, int pipelineParallel, int zeroStage, String link) {

    public static final Parallelism SINGLE = new Parallelism(1, 1, 1, 0, null);

    public Parallelism {
        positive("dataParallel", dataParallel);
        positive("tensorParallel", tensorParallel);
        positive("pipelineParallel", pipelineParallel);
        if (zeroStage < 0 || zeroStage > 3) {
            throw new BadInputException("zero stage must be 0, 1, 2 or 3: zeroStage=" + zeroStage);
        }
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
