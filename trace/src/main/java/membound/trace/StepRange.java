package membound.trace;

import membound.vocabulary.BadInputException;

/**
 * One step of a trace as the job marked it: a {@code ProfilerStep#N} range of the PyTorch profiler, an NVTX range
 * in an Nsight Systems export, or the whole trace where neither is there.
 */
public record StepRange(String name, long startNs, long endNs) {

    public StepRange {
        if (name == null || name.isBlank()) {
            throw new BadInputException("a step needs a name");
        }
        if (endNs < startNs) {
            throw new BadInputException("step " + name + " must not end before it starts: startNs=" + startNs
                    + ", endNs=" + endNs);
        }
    }

    public long durationNs() {
        return endNs - startNs;
    }

    public boolean contains(long ns) {
        return ns >= startNs && ns < endNs;
    }
}
