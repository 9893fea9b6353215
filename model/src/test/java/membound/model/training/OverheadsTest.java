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
        double attention = 0;
        double memoryBound = 0;
        double runs = 0;
        for (int i = 0; i < plan.operations().size(); i++) {
            Operation op = plan.operations().get(i);
            if (op.kernel() == Kernel.TRANSFER) {
                continue;
            }
            runs += op.count();
            OperationClass c = op.operationClass();
            boolean pass = c == OperationClass.FORWARD || c == OperationClass.BACKWARD || c == OperationClass.RECOMPUTE;
            if (!eval.memoryBound()[i] && pass && op.kernel() == Kernel.ATTENTION) {
                attention += eval.seconds()[i];
            } else if (!eval.memoryBound()[i] && pass) {
                computeBound += eval.seconds()[i]; // BF16 step: no GEMM in 8 bits
            } else if (eval.memoryBound()[i] && op.placement() == membound.model.roofline.Placement.DEVICE
                    && (pass || c == OperationClass.OPTIMIZER)) {
                memoryBound += eval.seconds()[i];
            }
        }
        assertTrue(computeBound > 0 && runs > 0);
        // Efficiency 0.5 doubles the compute-bound seconds; 10 us per run adds 10 us times the runs.
        assertEquals(computeBound + runs * 10e-6, new Overheads(0.5, 10e-6, "test").addedSeconds(plan.operations(), eval),
                1e-12);
        assertTrue(attention > 0 && memoryBound > 0, "attention " + attention + ", memory-bound " + memoryBound);
        // Attention at 0.5 of its ceiling doubles the attention seconds; memory-bound kernels at 0.25 quadruple theirs.
        assertEquals(attention + 3 * memoryBound, new Overheads(1, 1, 0.5, 0.25, 0, "test")
                .addedSeconds(plan.operations(), eval), 1e-12);
    }

    @Test
    void shouldRefuseAnEfficiencyOutsideItsRange() {
        assertThrows(IllegalArgumentException.class, () -> new Overheads(0, 0, "x"));
        assertThrows(IllegalArgumentException.class, () -> new Overheads(1, -1, "x"));
        assertThrows(IllegalArgumentException.class, () -> new Overheads(1, 1, 0, 1, 0, "x"));
        assertThrows(IllegalArgumentException.class, () -> new Overheads(1, 1, 1, 3, 0, "x"));
    }
}
