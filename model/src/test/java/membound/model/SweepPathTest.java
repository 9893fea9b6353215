package membound.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.Test;

import membound.model.machine.Basis;
import membound.model.machine.Machine;
import membound.model.machine.Machines;
import membound.model.training.Checkpointing;
import membound.model.training.FineTuning;
import membound.model.training.LoraTarget;
import membound.model.training.Offload;
import membound.model.training.Pruning;
import membound.model.training.StepPlanner;
import membound.model.training.TrainingSetup;
import membound.model.workload.Presets;
import membound.model.workload.Workload;
import membound.vocabulary.BadInputException;

/**
 * The sweep path ({@link Estimator#step}) keeps its last plan for the next machine the planner cannot tell apart:
 * whatever order machines come in, each step must be the one {@link Estimator#predict} makes from a plan of its own.
 */
class SweepPathTest {

    private static final Workload LLAMA = Presets.get("llama-3.2-1b");
    /** Unified memory with and without sparse units, HBM with and without a host to offload to, a test GPU. */
    private static final List<Machine> MACHINES = List.of(Machines.datasheet("dgx-spark"), Machines.datasheet("gh200"),
            Machines.datasheet("h100"), Machines.datasheet("h200"), TestMachines.simple(1e12, 1e15));
    private static final List<TrainingSetup> SETUPS = List.of(
            TrainingSetup.builder().build(),
            TrainingSetup.builder().offload(new Offload(true, false)).build(),
            TrainingSetup.builder().offload(new Offload(true, true)).checkpointing(Checkpointing.FULL).build(),
            TrainingSetup.builder().pruning(Pruning.STRUCTURED_2_4).build(),
            TrainingSetup.builder().fineTuning(FineTuning.qlora(16, LoraTarget.allLinear()))
                    .checkpointing(Checkpointing.SELECTIVE).flashAttention(false).build());

    @Test
    void shouldGiveEveryMachineTheStepOfItsOwnPlanInAnyOrder() {
        // The machines must differ in what the planner reads of them, or the test shows nothing.
        for (TrainingSetup s : SETUPS.subList(1, 4)) {
            Set<Integer> traits = new HashSet<>();
            for (Machine m : MACHINES) {
                traits.add(StepPlanner.machineTraits(s, m));
            }
            assertTrue(traits.size() > 1, "machines alike for " + s);
        }
        List<Machine> reversed = new ArrayList<>(MACHINES);
        java.util.Collections.reverse(reversed);
        for (List<Machine> order : List.of(MACHINES, reversed)) {
            for (TrainingSetup s : SETUPS) {
                for (Machine m : order) {
                    assertSameStep(s, m, Basis.MEASURED);
                    assertSameStep(s, m, Basis.DATASHEET);
                }
            }
        }
    }

    @Test
    void shouldNotKeepAPlanThatFailedOrBelongsToAnotherSetup() {
        TrainingSetup offloaded = SETUPS.get(1);
        Machine gh200 = Machines.datasheet("gh200");
        Machine h100 = Machines.datasheet("h100");
        assertSameStep(offloaded, gh200, Basis.MEASURED);
        // The H100 has no host memory: planning it fails, and the GH200's plan (same setup) is not used instead.
        BadInputException e = assertThrows(BadInputException.class,
                () -> Estimator.step(LLAMA, offloaded, h100, Basis.MEASURED));
        assertTrue(e.getMessage().startsWith("offload needs a host memory and a host link: machine=h100-sxm"),
                e.getMessage());
        assertSameStep(offloaded, gh200, Basis.MEASURED);
        // An equal setup that is another object is planned again, and gives the same step.
        TrainingSetup equal = offloaded.toBuilder().build();
        assertEquals(Estimator.step(LLAMA, offloaded, gh200, Basis.MEASURED),
                Estimator.step(LLAMA, equal, gh200, Basis.MEASURED));
        assertNotEquals(Estimator.step(LLAMA, SETUPS.get(0), gh200, Basis.MEASURED).stepSeconds(),
                Estimator.step(LLAMA, offloaded, gh200, Basis.MEASURED).stepSeconds());
    }

    @Test
    void shouldReadTheBreakdownLikeAList() {
        StepResult step = Estimator.step(LLAMA, SETUPS.get(4), Machines.datasheet("dgx-spark"), Basis.MEASURED);
        List<StepResult.ClassTime> copy = List.copyOf(step.breakdown());
        assertEquals(copy, step.breakdown());
        assertTrue(copy.size() >= 4, copy.toString());
        double sum = 0;
        for (StepResult.ClassTime t : copy) {
            assertTrue(t.seconds() > 0 && t.memoryBoundSeconds() <= t.seconds(), t.toString());
            sum += t.share();
        }
        assertEquals(1, sum, 1e-12);
        assertEquals("recompute", step.time("recompute").operationClass());
        assertTrue(step.time("recompute").seconds() > 0);
        assertThrows(IndexOutOfBoundsException.class, () -> step.breakdown().get(copy.size()));
        assertThrows(UnsupportedOperationException.class, () -> step.breakdown().remove(0));
    }

    private static void assertSameStep(TrainingSetup setup, Machine machine, Basis basis) {
        BadInputException refused = null;
        Prediction prediction = null;
        try {
            prediction = Estimator.predict(LLAMA, setup, machine);
        } catch (BadInputException e) {
            refused = e;
        }
        if (refused != null) {
            String expected = refused.getMessage();
            BadInputException e = assertThrows(BadInputException.class, () -> Estimator.step(LLAMA, setup, machine, basis));
            assertEquals(expected, e.getMessage());
            return;
        }
        StepResult reference = basis == Basis.MEASURED ? prediction.measured() : prediction.datasheet();
        if (reference == null) {
            return; // no datasheet figure for this precision on this machine
        }
        StepResult fast = Estimator.step(LLAMA, setup, machine, basis);
        assertEquals(reference, fast, machine.id() + " " + setup);
    }
}
