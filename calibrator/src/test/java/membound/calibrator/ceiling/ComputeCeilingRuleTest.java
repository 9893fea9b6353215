package membound.calibrator.ceiling;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import membound.profile.ComputeEntry;
import membound.profile.Distribution;
import membound.profile.FlopCeiling;
import membound.profile.Provenance;
import membound.vocabulary.Precision;

/** The one rule that makes compute entries the model's compute ceilings. */
class ComputeCeilingRuleTest {

    private static ComputeEntry entry(ComputeEntry.Kind kind, Precision precision, Long n, int threads, double flops) {
        return new ComputeEntry(kind + "-" + precision + "-" + n + "-" + threads, kind, precision, threads, n, null,
                Distribution.single(flops), Provenance.measured("test " + kind, null, Map.of()));
    }

    @Test
    void shouldTakeTheBestGemmOfAnyOrderAndTheBestFmaPeak() {
        List<FlopCeiling> ceilings = ComputeCeilingRule.ceilings(List.of(
                entry(ComputeEntry.Kind.GEMM, Precision.FP32, 512L, 2, 60e9),
                entry(ComputeEntry.Kind.GEMM, Precision.FP32, 1024L, 2, 70e9),
                entry(ComputeEntry.Kind.GEMM, Precision.FP32, 2048L, 2, 65e9),
                entry(ComputeEntry.Kind.FMA_PEAK, Precision.FP32, null, 1, 80e9),
                entry(ComputeEntry.Kind.FMA_PEAK, Precision.FP32, null, 2, 130e9)));
        assertEquals(2, ceilings.size(), ceilings.toString());
        assertEquals(130e9, ceilings.get(0).flopsPerSecond());
        assertEquals(ComputeEntry.Kind.FMA_PEAK, ceilings.get(0).kind());
        assertEquals(70e9, ceilings.get(1).flopsPerSecond(), "the best order, not the largest");
        assertTrue(ceilings.get(1).measuredAsItIs());
    }

    @Test
    void shouldDerateTheFmaPeakWhereNoGemmWasMeasuredAndSaySo() {
        List<FlopCeiling> ceilings = ComputeCeilingRule.ceilings(List.of(
                entry(ComputeEntry.Kind.FMA_PEAK, Precision.FP64, null, 2, 100e9)));
        FlopCeiling gemm = ceilings.get(1);
        assertEquals(ComputeEntry.Kind.GEMM, gemm.kind());
        assertFalse(gemm.measuredAsItIs());
        assertEquals(100e9 * ComputeCeilingRule.GEMM_FRACTION_OF_FMA_PEAK, gemm.flopsPerSecond());
        assertEquals(ComputeCeilingRule.GEMM_FRACTION_OF_FMA_PEAK, gemm.fractionOfEntry());
        assertTrue(gemm.fractionSource().contains("gemm-vs-fma.csv"), gemm.fractionSource());
        assertEquals(ceilings.get(0).computeId(), gemm.computeId(), "taken from the FMA entry");
    }

    @Test
    void shouldMakeNoCeilingOfAProductAtOneShape() {
        ComputeEntry product = new ComputeEntry("p", ComputeEntry.Kind.PRODUCT, Precision.BF16, null, null,
                new membound.vocabulary.ProductShape(1, 64, 64, 64, membound.vocabulary.ProductShape.Layout.values()[0]),
                Distribution.single(1e12), Provenance.measured("test", null, Map.of()));
        assertTrue(ComputeCeilingRule.ceilings(List.of(product)).isEmpty());
    }

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10})
    void shufflingTheEntriesChangesNoCeiling(long seed) {
        Random random = new Random(seed);
        Precision[] precisions = {Precision.FP64, Precision.FP32, Precision.BF16};
        List<ComputeEntry> entries = new ArrayList<>();
        java.util.Set<String> ids = new java.util.HashSet<>();
        for (int i = 0; i < 30; i++) {
            boolean gemm = random.nextBoolean();
            ComputeEntry e = entry(gemm ? ComputeEntry.Kind.GEMM : ComputeEntry.Kind.FMA_PEAK,
                    precisions[random.nextInt(precisions.length)], gemm ? 256L << random.nextInt(4) : null,
                    1 + random.nextInt(3), 1e9 * (10 + random.nextInt(3)));
            if (ids.add(e.id())) {
                entries.add(e);
            }
        }
        List<FlopCeiling> expected = ComputeCeilingRule.ceilings(entries);
        for (int round = 0; round < 10; round++) {
            List<ComputeEntry> shuffled = new ArrayList<>(entries);
            Collections.shuffle(shuffled, random);
            assertEquals(expected, ComputeCeilingRule.ceilings(shuffled));
        }
    }
}
