package membound.model.engine;

import java.util.List;

import membound.model.roofline.Ceilings;
import membound.model.roofline.Kernel;
import membound.model.roofline.Operation;
import membound.model.roofline.OperationTime;
import membound.model.roofline.Roofline;

/**
 * A prefill as an engine runs it: each operation's GEMM time at the engine's fitted GEMM efficiency, its fused
 * attention at the engine's attention efficiency (FlashAttention runs 16-bit MMA whatever the weights are stored in,
 * so it does not share a quantized GEMM kernel's efficiency), and its weight and KV traffic either overlapping that time
 * (the roofline's max) or added to it, as the published set's fit chose for the engine
 * ({@code prefill.<engine>.traffic-overlap}). One formula for {@code validate --published} and {@code predict --engine}.
 */
public final class EnginePrefill {

    private EnginePrefill() {
    }

    /**
     * Each operation's compute seconds outside fused attention (index 0), memory plus link seconds (index 1) and fused
     * attention's compute seconds (index 2) on these ceilings; an operation has compute at index 0 or 2, never both.
     */
    public static double[][] split(List<Operation> operations, Ceilings ceilings) {
        int n = operations.size();
        double[][] parts = new double[3][n];
        for (int i = 0; i < n; i++) {
            Operation op = operations.get(i);
            OperationTime t = Roofline.time(op, ceilings);
            parts[op.kernel() == Kernel.ATTENTION ? 2 : 0][i] = t.computeSeconds();
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
        double[] attention = parts[2];
        double seconds = 0;
        for (int i = 0; i < compute.length; i++) {
            seconds += Math.max((compute[i] + attention[i]) / gemmEfficiency, memory[i] / bandwidthEfficiency);
        }
        return seconds;
    }

    /** The prefill's seconds from {@link #split}'s parts, attention at the GEMM efficiency, traffic overlapped or added. */
    public static double seconds(double[][] parts, double gemmEfficiency, boolean trafficOverlaps) {
        return seconds(parts, gemmEfficiency, gemmEfficiency, trafficOverlaps);
    }

    /**
     * The prefill's seconds from {@link #split}'s parts: GEMMs at one efficiency, fused attention at another, traffic
     * overlapped or added.
     */
    public static double seconds(double[][] parts, double gemmEfficiency, double attentionEfficiency,
                                 boolean trafficOverlaps) {
        double[] compute = parts[0];
        double[] memory = parts[1];
        double[] attention = parts[2];
        double seconds = 0;
        for (int i = 0; i < compute.length; i++) {
            double c = compute[i] / gemmEfficiency + attention[i] / attentionEfficiency;
            seconds += trafficOverlaps ? Math.max(c, memory[i]) : c + memory[i];
        }
        return seconds;
    }
}
