package membound.profile;

import membound.vocabulary.RowOperation;

/**
 * The rate of an elementwise or row-wise operation of a training step whose cost per element is its
 * transcendentals and reductions, not its FLOPs: a causal softmax, softmax cross-entropy, GELU and its
 * gradient, RMSNorm and its gradient. Measured with the operation's data in cache, it is a compute ceiling:
 * the model times such an operation at the slower of it and the operation's bytes.
 *
 * @param id                unique within the device
 * @param operation         softmax, cross-entropy, gelu, gelu-backward, rms-norm or rms-norm-backward
 * @param rowLength         elements per row (keys of a softmax row, the vocabulary, the hidden size)
 * @param threads           threads, if known
 * @param elementsPerSecond the distribution of elements per second (a causal softmax counts its masked
 *                          elements too)
 * @param provenance        how it was measured
 */
public record OperationEntry(String id, RowOperation operation, long rowLength, Integer threads,
                             Distribution elementsPerSecond, Provenance provenance) {

    public OperationEntry {
        Checks.id("operations.id", id);
        Checks.present("operations.operation", operation);
        Checks.positive("operations.rowLength", rowLength);
        Checks.optionalPositive("operations.threads", threads);
        Checks.present("operations.elementsPerSecond", elementsPerSecond);
        Checks.present("operations.provenance", provenance);
    }
}
