package membound.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;

import membound.model.machine.Basis;
import membound.model.machine.Ceiling;
import membound.model.machine.Machine;
import membound.model.roofline.Ceilings;
import membound.model.roofline.Kernel;
import membound.model.roofline.Operation;
import membound.model.roofline.Placement;
import membound.model.roofline.Roofline;
import membound.model.training.StepPlan;
import membound.model.training.TrainingSetup;
import membound.model.workload.Presets;
import membound.model.workload.Workload;

/**
 * A GPU's measured kernel launch interval is a floor under every repetition of an operation on the device: a step of
 * kernels shorter than a launch takes the launches' time, a step of long kernels is unchanged, and the prediction
 * says how many kernels it launched and what they added.
 */
class KernelLaunchTest {

    private final Workload small = Presets.get("llama-3.2-1b");
    private final TrainingSetup setup = TrainingSetup.builder().sequenceLength(128).build();
    private final Machine fast = TestMachines.simple(500e9, 100e12);

    private Machine withLaunch(double seconds) {
        return new Machine(fast.id(), fast.name(), fast.source(), fast.device().withKernelLaunch(
                Ceiling.measured(seconds, "test launch interval")), fast.host(), fast.links(), fast.tenants(),
                fast.notes());
    }

    @Test
    void aStepOfShortKernelsTakesTheLaunchesTime() {
        StepPlan plan = Estimator.plan(small, setup, fast);
        double without = Estimator.step(small, setup, fast, Basis.MEASURED).stepSeconds();
        double launch = 1e-3;
        double with = Estimator.step(small, setup, withLaunch(launch), Basis.MEASURED).stepSeconds();
        Roofline.Evaluation eval = Roofline.evaluate(plan.operations(), Ceilings.of(fast, Basis.MEASURED, 1, null));
        double expected = without;
        for (int i = 0; i < plan.operations().size(); i++) {
            Operation op = plan.operations().get(i);
            if (op.kernel() != Kernel.TRANSFER && op.placement() == Placement.DEVICE) {
                expected += Math.max(0, op.count() * launch - eval.seconds()[i]);
            }
        }
        assertTrue(with > without * 1.5, "1 ms launches dominate a 1B model's short sequence: " + without + " -> " + with);
        assertEquals(expected, with, expected * 1e-9, "each operation's repetitions take at least one launch each");
    }

    @Test
    void longKernelsHideTheirLaunches() {
        double without = Estimator.step(small, setup, fast, Basis.MEASURED).stepSeconds();
        double with = Estimator.step(small, setup, withLaunch(1e-12), Basis.MEASURED).stepSeconds();
        assertEquals(without, with, without * 1e-9, "a launch far shorter than every kernel changes nothing");
    }

    @Test
    void aDecodeStepTakesAtLeastOneLaunchPerKernel() {
        membound.model.workload.Transformer llama = Presets.get("llama-3.1-8b");
        membound.model.decode.DecodeSetup setup = new membound.model.decode.DecodeSetup(4096, 1, 128,
                membound.model.decode.WeightFormat.parse("Q8_0"), membound.vocabulary.Precision.BF16,
                membound.vocabulary.Precision.BF16, 1);
        double without = membound.model.decode.DecodeEstimator.predict(llama, setup, fast).stepSeconds();
        double launch = 1e-4;
        double with = membound.model.decode.DecodeEstimator.predict(llama, setup, withLaunch(launch)).stepSeconds();
        List<Operation> step = membound.model.decode.DecodeEstimator.decodeStep(llama, setup);
        Roofline.Evaluation eval = Roofline.evaluate(step, Ceilings.of(fast, Basis.MEASURED, 1, null));
        double expected = without;
        for (int i = 0; i < step.size(); i++) {
            expected += Estimator.launchBoundSeconds(step.get(i), eval.seconds()[i], launch);
        }
        assertTrue(with > without, "100 us launches slow a decode step: " + without + " -> " + with);
        assertEquals(expected, with, expected * 1e-9);
    }

    @Test
    void thePredictionNamesTheLaunchesAndTheirSource() {
        Prediction p = Estimator.predict(small, setup, withLaunch(5e-6));
        String note = p.notes().stream().filter(n -> n.startsWith("kernel launches:")).findFirst().orElseThrow();
        assertTrue(note.contains("at least 5.00 us each (test launch interval)"), note);
        assertTrue(p.measuredCeilings().stream().anyMatch(l -> l.ceiling().startsWith("kernel launch")
                && Math.abs(l.value() - 5.0) < 1e-9 && l.unit().equals("us")), p.measuredCeilings().toString());
        assertTrue(Estimator.predict(small, setup, fast).notes().stream().noneMatch(n -> n.startsWith("kernel launches")),
                "no launch figure, no note");
        assertEquals(List.of(), Estimator.predict(small, setup, fast).measuredCeilings().stream()
                .filter(l -> l.ceiling().startsWith("kernel launch")).toList());
    }
}
