package membound.model.sweep;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;

import membound.model.Estimator;
import membound.model.machine.Basis;
import membound.model.machine.Machine;
import membound.model.machine.Machines;
import membound.model.training.Parallelism;
import membound.model.training.TrainingSetup;
import membound.model.workload.Presets;
import membound.model.workload.Transformer;
import membound.vocabulary.BadInputException;

class SweepsTest {

    private static final Machine SPARK = Machines.datasheet("dgx-spark");
    private static final TrainingSetup SETUP = TrainingSetup.builder().build();

    @Test
    void aBandwidthMapSlowsDownLessAsBandwidthGrowsAndMeetsThePredictionAtTheMeasuredPoint() {
        List<Transformer> models = List.of(Presets.get("gpt2"), Presets.get("llama-3.1-8b"));
        Sweeps.BandwidthMap map = Sweeps.bandwidthMap(models, SETUP, SPARK, 0.1, 20, 24);
        assertEquals(List.of("gpt2", "llama-3.1-8b"), map.models());
        for (int m = 0; m < models.size(); m++) {
            for (int c = 1; c < map.bandwidths().length; c++) {
                assertTrue(map.stepSeconds()[m][c] <= map.stepSeconds()[m][c - 1] * (1 + 1e-12),
                        "more bandwidth never slows a step");
                assertTrue(map.slowdown(m, c) >= 1 - 1e-9, "no column beats unlimited bandwidth");
            }
            double step = Estimator.step(models.get(m), SETUP, SPARK, Basis.MEASURED).stepSeconds();
            assertEquals(step, map.measuredSeconds(m), 0.0, "scale 1 is the prediction itself");
        }
        assertEquals(273e9, map.datasheetBandwidth(), 1e6);
        assertTrue(map.datasheetSeconds()[1] < map.measuredSeconds(1), "the datasheet's bandwidth is faster");
        assertEquals(0.1 * map.measuredBandwidth(), map.bandwidths()[0], 1);
        assertEquals(20 * map.measuredBandwidth(), map.bandwidths()[23], 1e3);
        assertThrows(BadInputException.class, () -> Sweeps.bandwidthMap(models, SETUP, SPARK, 2, 1, 10));
    }

    @Test
    void usersShareTheMachineAndTheirTotalIsEachTimesTheirNumber() {
        List<Sweeps.SharingPoint> points = Sweeps.sharing(Presets.get("llama-3.2-1b"), SETUP, List.of(SPARK), 4);
        assertEquals(4, points.size());
        for (int k = 1; k < points.size(); k++) {
            Sweeps.SharingPoint p = points.get(k);
            assertEquals(k + 1, p.tenants());
            assertEquals(p.tenants() * p.perUserTokensPerSecond(), p.totalTokensPerSecond(), 1e-9);
            assertTrue(p.perUserTokensPerSecond() < points.get(k - 1).perUserTokensPerSecond());
        }
        assertThrows(BadInputException.class, () -> Sweeps.sharing(Presets.get("gpt2"), SETUP, List.of(SPARK), 0));
    }

    @Test
    void aModelThatDoesNotFitSaysWhatFitsAndOneThatCannotBeLaidOutSaysWhy() {
        List<Sweeps.Point> points = Sweeps.modelSize(List.of(Presets.get("gpt2"), Presets.get("llama-3.3-70b")), SETUP,
                List.of(SPARK));
        assertTrue(points.get(0).memory().fits());
        assertNull(points.get(0).fitsInstead());
        assertFalse(points.get(1).memory().fits());
        assertNotNull(points.get(1).fitsInstead(), "the fit advisor's first advice");
        String flags = points.get(1).fitsInstead();
        assertEquals(flags.split("--finetune", -1).length <= 2, true, "one --finetune at most: " + flags);
        TrainingSetup three = SETUP.toBuilder().parallelism(new Parallelism(1, 3, 1, 0, null)).build();
        Sweeps.Point bad = Sweeps.modelSize(List.of(Presets.get("llama-3.1-8b")), three, List.of(SPARK)).get(0);
        assertFalse(bad.predicted());
        assertTrue(bad.error().startsWith("tensorParallel must divide attentionHeads"), bad.error());
        assertEquals("dgx-spark", points.get(0).machineLabel());
    }

    @Test
    void theRegimeIsWhicheverHalfOfTheStepDominates() {
        Sweeps.Point spark = Sweeps.modelSize(List.of(Presets.get("llama-3.1-8b")), SETUP, List.of(SPARK)).get(0);
        assertEquals(spark.measured().memoryBoundShare() > Sweeps.MEMORY_BOUND_SHARE
                ? Sweeps.Regime.MEMORY_BOUND : Sweeps.Regime.COMPUTE_BOUND, spark.regime());
    }
}
