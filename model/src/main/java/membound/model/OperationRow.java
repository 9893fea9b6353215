package membound.model;

/**
 * One operation of a step with its roofline, for reports: totals per step (all repetitions).
 *
 * @param bound compute, memory or link: which side of the roofline sets its time
 * @param arithmeticIntensity FLOPs per byte of one repetition; null for a transfer, which has no memory traffic
 */
public record OperationRow(String name, String operationClass, String kernel, String placement, String bound,
                           double count, double flops, double bytes, double linkBytes, double seconds,
                           double share, Double arithmeticIntensity) {
}
