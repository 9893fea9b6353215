package membound.model.training;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

import membound.model.machine.Basis;
import membound.model.machine.Machine;
import membound.model.machine.Machines;
import membound.model.roofline.Ceilings;
import membound.model.roofline.Kernel;
import membound.model.roofline.Operation;
import membound.model.roofline.OperationClass;
import membound.model.roofline.Roofline;
import membound.model.workload.Presets;

class OverheadsTest {

    @Test
    void shouldAddNothingWithoutOverheads() {
        Machine h100 = Machines.datasheet("h100-sxm");
        StepPlan plan = StepPlanner.plan(Presets.get("llama-3.2-1b"), TrainingSetup.builder().steps(1).build(), h100);
        Roofline.Evaluation eval = Roofline.evaluate(plan.operations(), Ceilings.of(h100, Basis.DATASHEET, 1, null));
        assertEquals(0, Overheads.NONE.addedSeconds(plan.operations(), eval), 0);
    }

    @Test
    void shouldScaleComputeBoundWorkAndCountEveryRun() {
        Machine h100 = Machines.datasheet("h100-sxm");
        StepPlan plan = StepPlanner.plan(Presets.get("llama-3.2-1b"), TrainingSetup.builder().steps(1).build(), h100);
        Roofline.Evaluation eval = Roofline.evaluate(plan.operations(), Ceilings.of(h100, Basis.DATASHEET, 1, null));
        double computeBound = 0;
        double runs = 0;
        for (int i = 0; i < plan.operations().size(); i++) {
            Operation op = plan.operations().get(i);
            if (op.kernel() == Kernel.TRANSFER) {
                continue;
            }
            runs += op.count();
            OperationClass c = op.operationClass();
            if (!eval.memoryBound()[i] && (c == OperationClass.FORWARD || c == OperationClass.BACKWARD
                    || c == OperationClass.RECOMPUTE)) {
                computeBound += eval.seconds()[i];
            }
        }
        assertTrue(computeBound > 0 && runs > 0);
        // Efficiency 0.5 doubles the compute-bound seconds; 10 us per run adds 10 us times the runs.
        assertEquals(computeBound + runs * 10e-6, new Overheads(0.5, 10e-6, "test").addedSeconds(plan.operations(), eval),
                1e-12);
    }

    @Test
    void shouldRefuseAnEfficiencyOutsideItsRange() {
        assertThrows(IllegalArgumentException.class, () -> new Overheads(0, 0, "x"));
        assertThrows(IllegalArgumentException.class, () -> new Overheads(1, -1, "x"));
    }
}
