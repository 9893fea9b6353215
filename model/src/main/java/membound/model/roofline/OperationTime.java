package membound.model.roofline;

/**
 * An operation's roofline on one set of ceilings, for all its repetitions in a step.
 *
 * @param computeSeconds FLOPs over the compute ceiling
 * @param memorySeconds bytes over the bandwidth ceiling of its access pattern and tier
 * @param linkSeconds bytes over the link plus one latency per message
 * @param seconds max(compute, memory) + link
 */
public record OperationTime(Operation operation, double computeSeconds, double memorySeconds, double linkSeconds,
                            double seconds, Bound bound) {
}
