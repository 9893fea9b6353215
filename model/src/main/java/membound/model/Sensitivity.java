package membound.model;

/**
 * How the step time answers to memory bandwidth (device and host memory; links unchanged), on the
 * measured basis.
 *
 * @param elasticity d ln T / d ln BW by central difference at +-1%: 0 for a compute-bound step,
 *        -1 for a purely bandwidth-bound one
 */
public record Sensitivity(double stepSeconds, double halfBandwidthStepSeconds, double doubleBandwidthStepSeconds,
                          double elasticity) {
}
