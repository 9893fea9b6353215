package membound.model.engine;

import java.util.List;

import membound.model.roofline.Ceilings;
import membound.model.roofline.Operation;
import membound.model.roofline.OperationTime;
import membound.model.roofline.Roofline;

/**
 * A prefill as an engine runs it: each operation's GEMM time at the engine's fitted GEMM efficiency, and its
 * weight and KV traffic either overlapping that time (the roofline's max) or added to it, as the published
 * set's fit chose for the engine ({@code prefill.<engine>.traffic-overlap}). One formula for
 * {@code validate --published} and {@code predict --engine}.
 */
public final class EnginePrefill {

    private EnginePrefill() {
    }

    /** Each operation's compute seconds (index 0) and memory plus link seconds (index 1) on these ceilings. */
    public static double[][] split(List<Operation> operations, Ceilings ceilings) {
        int n = operations.size();
        double[][] parts = new double[2][n];
        for (int i = 0; i < n; i++) {
            OperationTime t = Roofline.time(operations.get(i), ceilings);
            parts[0][i] = t.computeSeconds();
            parts[1][i] = t.memorySeconds() + t.linkSeconds();
        }
        return parts;
    }

    /**
     * A decode step's seconds from {@link #split}'s parts: each operation's memory time at a bandwidth efficiency and its
     * compute time at a GEMM efficiency, overlapped (the roofline's max).
     */
    public static double decodeSeconds(double[][] parts, double bandwidthEfficiency, double gemmEfficiency) {
        double[] compute = parts[0];
        double[] memory = parts[1];
        double seconds = 0;
        for (int i = 0; i < compute.length; i++) {
            seconds += Math.max(compute[i] / gemmEfficiency, memory[i] / bandwidthEfficiency);
        }
        return seconds;
    }

    /** The prefill's seconds from {@link #split}'s parts at a GEMM efficiency, traffic overlapped or added. */
    public static double seconds(double[][] parts, double gemmEfficiency, boolean trafficOverlaps) {
        double[] compute = parts[0];
        double[] memory = parts[1];
        double seconds = 0;
        for (int i = 0; i < compute.length; i++) {
            double c = compute[i] / gemmEfficiency;
            seconds += trafficOverlaps ? Math.max(c, memory[i]) : c + memory[i];
        }
        return seconds;
    }
}
