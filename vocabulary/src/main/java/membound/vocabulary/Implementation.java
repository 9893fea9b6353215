package membound.vocabulary;

import java.util.List;

/**
 * Which code produced a figure: a CPU kernel's Vector API twin or its plain scalar loop, a GPU suite's PTX kernel (on
 * device memory, or on pageable host memory the GPU reaches through the host's page tables), cuBLASLt, another tool
 * (an import), or nothing the profile says (an example or a figure written by hand). The ceiling rules read it to
 * decide what may become a ceiling: only the configuration a training step runs in.
 */
public enum Implementation implements Labelled {
    /** membound's Vector API kernel (the CPU suite's ceiling configuration). */
    VECTOR("vector"),
    /** The scalar twin of a Vector API kernel: the JIT's own vectorization, never a ceiling. */
    SCALAR("scalar"),
    /** The GPU suite's PTX kernel on device memory (the GPU's ceiling configuration). */
    PTX("ptx"),
    /** The GPU suite's PTX kernel on pageable host memory: what the GPU reaches of the host's, never a ceiling. */
    PTX_HOST_MEMORY("ptx-host-memory"),
    /** cuBLASLt's matrix multiplication. */
    CUBLASLT("cublaslt"),
    /** Another tool's figure, read from its output. */
    IMPORTED("imported"),
    /** Nothing says: an example or a published figure written into a profile by hand. */
    UNKNOWN("unknown");

    /** The twins a CPU kernel has, as {@code -p implementation=} takes them. */
    public static final List<Implementation> KERNEL_TWINS = List.of(VECTOR, SCALAR);

    private final String label;

    Implementation(String label) {
        this.label = label;
    }

    @Override
    public String label() {
        return label;
    }

    /** A CPU kernel's twin by name, any case ({@code vector}, {@code SCALAR}), as a benchmark parameter gives it. */
    public static Implementation kernelTwin(String name) {
        for (Implementation twin : KERNEL_TWINS) {
            if (twin.label.equalsIgnoreCase(name.trim())) {
                return twin;
            }
        }
        throw new BadInputException("implementation must be one of vector, scalar: implementation=" + name);
    }

    /** Whether it is the configuration a training step runs in: the Vector API kernel or the GPU's PTX kernel. */
    public boolean isTrainingConfiguration() {
        return this == VECTOR || this == PTX;
    }

    @Override
    public String toString() {
        return label;
    }
}
