package membound.model.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;

import membound.model.TestMachines;
import membound.model.decode.DecodeEstimator;
import membound.model.decode.DecodeSetup;
import membound.model.decode.WeightFormat;
import membound.model.machine.Basis;
import membound.model.roofline.Ceilings;
import membound.model.roofline.Kernel;
import membound.model.roofline.Operation;
import membound.model.workload.Presets;
import membound.model.workload.Transformer;
import membound.vocabulary.Precision;

/** The prefill as an engine runs it: fused attention timed apart from the GEMMs, the decode step unchanged. */
class EnginePrefillTest {

    private static final Transformer TF = Presets.get("llama-3.1-8b");

    private static double[][] parts(int prompt) {
        DecodeSetup setup = new DecodeSetup(prompt, 1, prompt, WeightFormat.parse("bf16"), Precision.BF16,
                Precision.BF16, 1);
        List<Operation> ops = DecodeEstimator.prefill(TF, setup);
        assertTrue(ops.stream().anyMatch(o -> o.kernel() == Kernel.ATTENTION), "a fused attention operation");
        return EnginePrefill.split(ops, Ceilings.of(TestMachines.simple(250e9, 100e12), Basis.MEASURED, 1, null));
    }

    /** Fused attention's share of the prefill's compute seconds at the ceilings. */
    private static double attentionShare(double[][] parts) {
        double attention = 0;
        double all = 0;
        for (int i = 0; i < parts[0].length; i++) {
            attention += parts[2][i];
            all += parts[0][i] + parts[2][i];
        }
        return attention / all;
    }

    @Test
    void shouldTimeFusedAttentionAtItsOwnEfficiency() {
        double[][] p = parts(8192);
        for (int i = 0; i < p[0].length; i++) {
            assertTrue(p[0][i] == 0 || p[2][i] == 0, "an operation's compute is GEMM or attention, not both");
        }
        double gemmOnly = EnginePrefill.seconds(p, 0.5, true);
        assertEquals(gemmOnly, EnginePrefill.seconds(p, 0.5, 0.5, true), 1e-15);
        // Attention at half the GEMMs' efficiency adds exactly its compute time once more where compute binds.
        double slowAttention = EnginePrefill.seconds(p, 0.5, 0.25, false);
        double attention = 0;
        for (double a : p[2]) {
            attention += a;
        }
        assertEquals(EnginePrefill.seconds(p, 0.5, 0.5, false) + attention * 2, slowAttention,
                1e-12 * slowAttention);
    }

    @Test
    void shouldGiveAttentionALargerShareOfALongerPrompt() {
        double shortShare = attentionShare(parts(512));
        double longShare = attentionShare(parts(32768));
        assertTrue(shortShare > 0 && longShare > 4 * shortShare, shortShare + " " + longShare);
    }

    @Test
    void shouldLeaveTheDecodeStepsSumOfComputeAsItWas() {
        double[][] p = parts(2048);
        double expected = 0;
        for (int i = 0; i < p[0].length; i++) {
            expected += Math.max((p[0][i] + p[2][i]) / 0.7, p[1][i] / 0.9);
        }
        assertEquals(expected, EnginePrefill.decodeSeconds(p, 0.9, 0.7), 1e-15);
    }
}
