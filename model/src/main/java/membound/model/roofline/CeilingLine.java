package membound.model.roofline;

/**
 * One ceiling a prediction used, with its value and where it came from; formatted only when a
 * report prints it, so that sweeps do not pay for text.
 *
 * @param unit {@code B/s}, {@code FLOP/s} or {@code x GEMM} (a fraction of the GEMM rate)
 */
public record CeilingLine(String ceiling, double value, String unit, String source) {
}
