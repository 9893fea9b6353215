package membound.model.roofline;

import java.util.Locale;

/** The rows of a step's time breakdown. */
public enum OperationClass {
    FORWARD,
    BACKWARD,
    /** Forward work done again in the backward pass because its activations were not kept. */
    RECOMPUTE,
    OPTIMIZER,
    /** Collectives and point-to-point transfers between devices. */
    COMMUNICATION,
    /** Transfers to and from host memory, and work done there. */
    OFFLOAD,
    /** Idle time of a pipeline stage while the pipeline fills and drains (1F1B schedule). */
    PIPELINE_BUBBLE;

    private final String label = name().toLowerCase(Locale.ROOT).replace('_', ' ');

    public String label() {
        return label;
    }
}
