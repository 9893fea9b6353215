package membound.trace;

import java.util.Locale;

/**
 * The classes a step's device time is broken down into: what bounds each is known (GEMMs and attention compute,
 * norms, elementwise work and the optimizer memory, communication a link, copies a copy engine or link), so each
 * can be held against its ceiling and projected by its ratio.
 */
public enum TraceClass {
    /** Matrix products, convolutions (implicit GEMMs) included. */
    GEMM,
    /** Fused attention kernels (FlashAttention, memory-efficient attention, cuDNN and FMHA kernels). */
    ATTENTION,
    /** Layer, RMS, batch and group norms, forward and backward. */
    NORM,
    /** Elementwise operations, softmax, reductions, copies between tensors on the device, embeddings. */
    ELEMENTWISE,
    /** The optimizer's update (fused or multi-tensor Adam, SGD, LAMB; anything launched inside Optimizer.step). */
    OPTIMIZER,
    /** Collectives: NCCL and RCCL kernels, custom all-reduce kernels. */
    COMMUNICATION,
    /** Memory copies (host to device, device to host, peer) and memsets. */
    MEMCPY,
    /** Everything the classifier does not recognise, AMD kernels of unknown names included. */
    OTHER;

    private final String label = name().toLowerCase(Locale.ROOT);

    public String label() {
        return label;
    }

    /** True for the classes whose time the memory's bandwidth sets on a roofline when nothing else says. */
    public boolean memoryBoundByDefault() {
        return this == NORM || this == ELEMENTWISE || this == OPTIMIZER || this == OTHER;
    }
}
