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
import membound.model.workload.Transformer;

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
        double optimizer = 0;
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
            } else if (eval.memoryBound()[i] && op.placement() == membound.model.roofline.Placement.DEVICE && pass
                    && op.kernel() == Kernel.ELEMENTWISE) {
                memoryBound += eval.seconds()[i];
            } else if (eval.memoryBound()[i] && c == OperationClass.OPTIMIZER) {
                optimizer += eval.seconds()[i];
            }
        }
        assertTrue(computeBound > 0 && runs > 0);
        // Efficiency 0.5 doubles the compute-bound seconds; 10 us per run adds 10 us times the runs.
        assertEquals(computeBound + runs * 10e-6, new Overheads(0.5, 10e-6, "test").addedSeconds(plan.operations(), eval),
                1e-12);
        assertTrue(attention > 0 && memoryBound > 0, "attention " + attention + ", memory-bound " + memoryBound);
        assertTrue(optimizer > 0, "an unsharded AdamW step streams every state: memory-bound");
        // Attention at 0.5 of its ceiling doubles the attention seconds; the passes' memory-bound kernels at 0.25
        // quadruple theirs; the optimizer step stays at its update ceiling.
        assertEquals(attention + 3 * memoryBound, new Overheads(1, 1, 0.5, 0.25, 0, "test")
                .addedSeconds(plan.operations(), eval), 1e-12);
    }

    @Test
    void shouldLeaveMemoryBoundGemmsAtTheirWeightTrafficAndScaleOnlyElementwiseKernels() {
        // LoRA over 166-token samples at batch 1 on a DGX Spark: the frozen weights' GEMMs are too narrow to be
        // compute-bound; they stream the weights, which the memory-bound efficiency of unfused elementwise kernels
        // does not describe.
        Machine spark = Machines.datasheet("dgx-spark");
        TrainingSetup setup = TrainingSetup.builder().sequenceLength(166).microBatchSize(1).gradientAccumulation(8)
                .fineTuning(FineTuning.lora(8, LoraTarget.allLinear())).checkpointing(Checkpointing.FULL).steps(1)
                .build();
        StepPlan plan = StepPlanner.plan(Presets.get("llama-3.1-8b"), setup, spark);
        Roofline.Evaluation eval = Roofline.evaluate(plan.operations(), Ceilings.of(spark, Basis.DATASHEET, 1, null));
        double gemms = 0;
        double elementwise = 0;
        for (int i = 0; i < plan.operations().size(); i++) {
            Operation op = plan.operations().get(i);
            boolean pass = op.operationClass() != OperationClass.OPTIMIZER
                    && op.operationClass() != OperationClass.COMMUNICATION;
            if (eval.memoryBound()[i] && pass && op.kernel() == Kernel.GEMM) {
                gemms += eval.seconds()[i];
            } else if (eval.memoryBound()[i] && pass && op.kernel() == Kernel.ELEMENTWISE) {
                elementwise += eval.seconds()[i];
            }
        }
        assertTrue(gemms > elementwise, "weight streaming dominates: GEMMs " + gemms + " s, elementwise " + elementwise);
        assertEquals(elementwise, Overheads.parts(plan.operations(), eval)[3], 1e-12);
    }

    @Test
    void shouldChargeTheAllToAllDispatcherPerForwardDispatchAndTheExpertsTheirEfficiencyUnderEither() {
        Machine h100 = Machines.datasheet("h100-sxm");
        Parallelism ep = new Parallelism(8, 1, 1, 1, 1, 8, 1, 0, null, 1);
        Transformer mixtral = Presets.get("mixtral-8x7b");
        TrainingSetup.Builder b = TrainingSetup.builder().steps(1).sequenceLength(4096).parallelism(ep)
                .gradientAccumulation(3);
        StepPlan plan = StepPlanner.plan(mixtral, b.build(), h100);
        Roofline.Evaluation eval = Roofline.evaluate(plan.operations(), Ceilings.withLinks(h100, Basis.DATASHEET, 1,
                membound.model.Estimator.links(h100, ep), null));
        double[] fused = Overheads.parts(plan.operations(), eval, 1, MoeDispatcher.FUSED);
        double[] alltoall = Overheads.parts(plan.operations(), eval, 1, MoeDispatcher.ALLTOALL);
        assertTrue(fused[4] > 0, "the experts' seconds at index 4");
        assertEquals(fused[4], alltoall[4], 0, "the experts' GEMMs do not depend on the dispatcher");
        assertEquals(0, fused[5], 0, "a fused path has no host read-back");
        // One forward dispatch per MoE layer and micro-batch: 32 layers x 3 micro-batches, none in the backward.
        assertEquals(32 * 3, alltoall[5], 1e-9);
        // 1 ms per dispatch, experts at the ceiling: 96 ms under the all-to-all dispatcher, nothing on a fused path.
        Overheads terms = new Overheads(1, 1, 1, 1, 1, 1e-3, 0, "test");
        assertEquals(0, terms.addedSeconds(plan.operations(), eval, 1, MoeDispatcher.FUSED), 0);
        assertEquals(0.096, terms.addedSeconds(plan.operations(), eval, 1, MoeDispatcher.ALLTOALL), 1e-12);
        // Host time: the same on a GPU twice as fast, where the experts' GEMMs take half as long.
        Machine b200 = Machines.datasheet("b200");
        StepPlan onB200 = StepPlanner.plan(mixtral, b.build(), b200);
        Roofline.Evaluation fast = Roofline.evaluate(onB200.operations(), Ceilings.withLinks(b200, Basis.DATASHEET, 1,
                membound.model.Estimator.links(b200, ep), null));
        assertEquals(0.096, terms.addedSeconds(onB200.operations(), fast, 1, MoeDispatcher.ALLTOALL), 1e-12);
        // A recomputed MoE layer dispatches again.
        StepPlan recomputed = StepPlanner.plan(mixtral, b.checkpointing(Checkpointing.FULL).build(), h100);
        Roofline.Evaluation again = Roofline.evaluate(recomputed.operations(), Ceilings.withLinks(h100,
                Basis.DATASHEET, 1, membound.model.Estimator.links(h100, ep), null));
        assertEquals(2 * 32 * 3, Overheads.parts(recomputed.operations(), again, 1, MoeDispatcher.ALLTOALL)[5], 1e-9);
    }

    @Test
    void shouldHideTheExpertAllToAllOnlyWhenAskedTo() {
        Machine h100 = Machines.datasheet("h100-sxm");
        Parallelism ep = new Parallelism(8, 1, 1, 1, 1, 8, 1, 0, null, 1);
        TrainingSetup.Builder b = TrainingSetup.builder().steps(1).sequenceLength(4096).parallelism(ep);
        for (boolean overlap : new boolean[] {false, true}) {
            StepPlan plan = StepPlanner.plan(Presets.get("mixtral-8x7b"), b.overlapExpertCommunication(overlap).build(),
                    h100);
            Operation a2a = plan.operations().stream().filter(o -> o.name().startsWith("expert-parallel all-to-all"))
                    .findFirst().orElseThrow();
            assertEquals(overlap, a2a.overlapsBackward(), a2a.name());
        }
    }

    @Test
    void shouldSplitTheDistributedOptimizersReductionAndExposeItsGatherOnlyWhenAsked() {
        Machine h100 = Machines.datasheet("h100-sxm");
        Parallelism zero1 = new Parallelism(8, 1, 1, 1, 1, 1, 1, 0, null, 1);
        TrainingSetup.Builder b = TrainingSetup.builder().steps(1).parallelism(zero1).overlapCommunication(true);
        for (boolean hidden : new boolean[] {true, false}) {
            StepPlan plan = StepPlanner.plan(Presets.get("llama-3.2-1b"), b.overlapParameterGather(hidden).build(), h100);
            Operation scatter = plan.operations().stream()
                    .filter(o -> o.name().startsWith("data-parallel gradient reduce-scatter")).findFirst().orElseThrow();
            Operation gather = plan.operations().stream()
                    .filter(o -> o.name().startsWith("data-parallel parameter all-gather")).findFirst().orElseThrow();
            assertTrue(scatter.overlapsBackward(), "the gradients' reduce-scatter overlaps the backward either way");
            assertEquals(hidden, gather.overlapsBackward());
            // BF16 gradients and weights: the two halves of the all-reduce's 2(n-1)/n volume.
            assertEquals(scatter.linkBytes(), gather.linkBytes(), 0);
        }
        StepPlan plain = StepPlanner.plan(Presets.get("llama-3.2-1b"), b.parallelism(
                new Parallelism(8, 1, 1, 1, 1, 1, 0, 0, null, 1)).build(), h100);
        assertTrue(plain.operations().stream().anyMatch(o -> o.name().equals("data-parallel gradient all-reduce")),
                "without ZeRO: one all-reduce");
    }

    @Test
    void shouldReadEachDispatcherByItsNamesAndRefuseOthersInOneLine() {
        assertEquals(MoeDispatcher.FUSED, MoeDispatcher.parse("HybridEP"));
        assertEquals(MoeDispatcher.FUSED, MoeDispatcher.parse("deepep"));
        assertEquals(MoeDispatcher.FUSED, MoeDispatcher.parse("flex"));
        assertEquals(MoeDispatcher.ALLTOALL, MoeDispatcher.parse("alltoall"));
        var e = assertThrows(membound.vocabulary.BadInputException.class, () -> MoeDispatcher.parse("allgather"));
        assertTrue(e.getMessage().startsWith("moe dispatcher must be fused, flex, deepep, hybridep or alltoall: "
                + "moe-dispatcher=allgather"), e.getMessage());
        assertEquals(MoeDispatcher.FUSED, TrainingSetup.builder().steps(1).build().moeDispatcher(), "the default");
    }

    @Test
    void shouldRefuseAnEfficiencyOutsideItsRange() {
        assertThrows(IllegalArgumentException.class, () -> new Overheads(0, 0, "x"));
        assertThrows(IllegalArgumentException.class, () -> new Overheads(1, -1, "x"));
        assertThrows(IllegalArgumentException.class, () -> new Overheads(1, 1, 0, 1, 0, "x"));
        assertThrows(IllegalArgumentException.class, () -> new Overheads(1, 1, 1, 3, 0, "x"));
    }
}
