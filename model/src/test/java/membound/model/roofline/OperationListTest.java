package membound.model.roofline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import membound.model.Estimator;
import membound.model.StepResult;
import membound.model.machine.Basis;
import membound.model.machine.Machine;
import membound.model.machine.Machines;
import membound.model.training.Checkpointing;
import membound.model.training.FineTuning;
import membound.model.training.LoraTarget;
import membound.model.training.StepPlan;
import membound.model.training.StepPlanner;
import membound.model.training.TrainingSetup;
import membound.model.workload.Presets;
import membound.model.workload.Workload;
import membound.vocabulary.AccessPattern;
import membound.vocabulary.BadInputException;
import membound.vocabulary.Precision;

/**
 * The rows a step is planned into: what a sweep sums without writing (recompute marks, no names) must be
 * what the rows read one by one give, in the order separate forward, backward and recompute lists gave.
 */
class OperationListTest {

    private static final double RELATIVE = 1e-12;

    @Test
    void rowsReadInClassOrderKeepingTheOrderWithinEachClass() {
        OperationList list = new OperationList();
        int f1 = list.addElementwise("a", null, OperationClass.FORWARD, AccessPattern.COPY, 1, 1, 1, 1);
        list.addElementwise("a", " backward", OperationClass.BACKWARD, AccessPattern.COPY, 1, 2, 1, 1);
        int f2 = list.addElementwise("b", null, OperationClass.FORWARD, AccessPattern.COPY, 1, 1, 1, 1);
        list.addElementwise("b", " backward", OperationClass.BACKWARD, AccessPattern.COPY, 1, 2, 1, 1);
        list.recomputed(f1);
        list.recomputed(f2);
        list.addTransfer("all-reduce", OperationClass.COMMUNICATION, Placement.PARALLEL_LINK, 1, 100, 2, true);
        List<String> read = new ArrayList<>();
        for (Operation op : list.operations()) {
            read.add(op.operationClass().label() + ":" + op.name());
        }
        assertEquals(List.of("forward:a", "forward:b", "backward:a backward", "backward:b backward", "recompute:a",
                "recompute:b", "communication:all-reduce"), read);
        assertEquals(0, list.operations().get(4).modelFlops(), "a recompute counts no model FLOPs");
        assertEquals(100, list.operations().get(6).linkBytes());
    }

    @Test
    void aSweepsListKeepsNoNamesAndSaysSoWhenRead() {
        OperationList list = OperationList.forSweeps(4);
        list.addElementwise("a", null, OperationClass.FORWARD, AccessPattern.COPY, 1, 1, 1, 1);
        IllegalStateException e = assertThrows(IllegalStateException.class, list::operations);
        assertTrue(e.getMessage().contains("keeps no names"), e.getMessage());
    }

    @Test
    void rowsRepeatedZeroTimesAreDroppedAndNegativeSizesRefused() {
        OperationList list = new OperationList();
        assertEquals(-1, list.addElementwise("none", null, OperationClass.FORWARD, AccessPattern.COPY, 0, 1, 1, 1));
        list.shape(-1, 1, 2, 2, 2, membound.vocabulary.ProductShape.Layout.NN);
        assertEquals(0, list.size());
        BadInputException e = assertThrows(BadInputException.class, () -> list.addGemmBytes("g", " input gradient",
                OperationClass.BACKWARD, Precision.BF16, 1, -1, 0, 0));
        assertEquals("operation g input gradient must have finite non-negative sizes", e.getMessage());
        assertThrows(BadInputException.class, () -> list.addElementwise("n", null, OperationClass.FORWARD,
                AccessPattern.COPY, Double.NaN, 1, 1, 1));
    }

    /**
     * Every plan's sums as the sweep path takes them (rows unread, recompute unwritten) equal the sum of each
     * operation timed alone, class by class: on datasheet machines, every checkpointing mode, full, LoRA and QLoRA,
     * with and without fused attention.
     */
    @Test
    void theSweepSumsAreTheOperationsTimedOneByOne() {
        List<Machine> machines = List.of(Machines.datasheet("dgx-spark"), Machines.datasheet("h100"));
        List<Workload> models = List.of(Presets.get("gpt2"), Presets.get("llama-3.2-1b"), Presets.get("mixtral-8x7b"));
        FineTuning[] tunings = {FineTuning.full(), FineTuning.lora(8, LoraTarget.allLinear()),
                FineTuning.qlora(8, LoraTarget.allLinear())};
        int checked = 0;
        for (Machine machine : machines) {
            for (Workload model : models) {
                for (FineTuning tuning : tunings) {
                    for (Checkpointing c : Checkpointing.values()) {
                        for (boolean flash : new boolean[] {true, false}) {
                            TrainingSetup setup = TrainingSetup.builder().checkpointing(c).fineTuning(tuning)
                                    .flashAttention(flash).gradientAccumulation(2).build();
                            StepPlanner.Buffers buffers = new StepPlanner.Buffers(true);
                            StepPlan swept = StepPlanner.plan(model, setup, machine, buffers);
                            Ceilings ceilings = Ceilings.of(machine, Basis.MEASURED, 1, null);
                            Roofline.Evaluation sums = Roofline.sums(swept.rows(), ceilings);
                            double[] byClass = new double[OperationClass.values().length];
                            double modelFlops = 0;
                            for (Operation op : Estimator.plan(model, setup, machine).operations()) {
                                byClass[op.operationClass().ordinal()] += Roofline.time(op, ceilings).seconds();
                                if (op.operationClass() == OperationClass.FORWARD
                                        || op.operationClass() == OperationClass.BACKWARD) {
                                    modelFlops += op.totalModelFlops();
                                }
                            }
                            for (OperationClass cls : OperationClass.values()) {
                                assertEquals(byClass[cls.ordinal()], sums.seconds(cls),
                                        RELATIVE * Math.max(1e-30, byClass[cls.ordinal()]), cls + " of " + setup);
                            }
                            assertEquals(modelFlops, sums.modelFlops(), RELATIVE * modelFlops);
                            StepResult step = Estimator.step(model, setup, machine, Basis.MEASURED);
                            assertEquals(Estimator.predict(model, setup, machine).measured().stepSeconds(),
                                    step.stepSeconds(), 0.0, "the sweep path and predict agree exactly");
                            checked++;
                        }
                    }
                }
            }
        }
        assertEquals(108, checked);
    }
}
