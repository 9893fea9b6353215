package membound.model.training;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.Test;

import membound.model.Estimator;
import membound.model.StepResult;
import membound.model.machine.Basis;
import membound.model.machine.Machine;
import membound.model.machine.Machines;
import membound.model.roofline.Ceilings;
import membound.model.roofline.Operation;
import membound.model.roofline.OperationClass;
import membound.model.roofline.Placement;
import membound.model.roofline.Roofline;
import membound.model.workload.Presets;
import membound.model.workload.Transformer;
import membound.vocabulary.BadInputException;
import membound.vocabulary.Precision;

/**
 * What context, virtual-pipeline, expert and hybrid-sharded layouts, module-level and partial recompute, the attention
 * kernel and the block-scaled training formats do to a step, each against the plain layout it refines.
 */
class ParallelLayoutsTest {

    private final Transformer llama8b = Presets.get("llama-3.1-8b");
    private final Transformer llama70b = Presets.get("llama-3.3-70b");
    private final Transformer mixtral = Presets.get("mixtral-8x7b");
    private final Machine h100 = Machines.datasheet("h100-sxm");
    private final Machine b200 = Machines.datasheet("b200");
    private final Machine gb200 = Machines.datasheet("gb200");

    private static TrainingSetup.Builder setup() {
        return TrainingSetup.builder().steps(1).sequenceLength(8192).overlapCommunication(true);
    }

    private static Parallelism layout(int dp, int tp, int pp, int cp, int vp, int ep, int zero, int shard, int nodes) {
        return new Parallelism(dp, tp, pp, cp, vp, ep, zero, shard, null, nodes);
    }

    private static double seconds(List<Operation> ops, String prefix) {
        return ops.stream().filter(o -> o.name().startsWith(prefix)).mapToDouble(o -> o.count() * o.totalFlops()).sum();
    }

    private static Operation only(List<Operation> ops, String name) {
        return ops.stream().filter(o -> o.name().equals(name)).findFirst().orElseThrow(() -> new AssertionError(name));
    }

    @Test
    void shouldShrinkThePipelineBubbleByTheVirtualStages() {
        TrainingSetup plain = setup().gradientAccumulation(8).parallelism(layout(1, 4, 8, 1, 1, 1, 0, 0, 4)).build();
        TrainingSetup interleaved = plain.toBuilder().parallelism(layout(1, 4, 8, 1, 5, 1, 0, 0, 4)).build();
        double bubble = bubble(Estimator.step(llama70b, plain, h100, Basis.DATASHEET));
        double smaller = bubble(Estimator.step(llama70b, interleaved, h100, Basis.DATASHEET));
        // (p - 1) / m of the passes, then (p - 1) / (m v): the passes are the same layers, so a fifth of it.
        assertEquals(bubble / 5, smaller, bubble * 1e-9);
        // Each micro-batch crosses five times as many stage boundaries.
        Operation sends = only(Estimator.plan(llama70b, interleaved, h100).operations(),
                "pipeline sends (activations forward, gradients back)");
        assertEquals(8 * 5, sends.count(), 1e-9);
        assertEquals(Placement.NETWORK_LINK, sends.placement(), "stages on other nodes talk over the network");
    }

    private static double bubble(StepResult r) {
        return r.breakdown().stream().filter(c -> c.operationClass().equals(OperationClass.PIPELINE_BUBBLE.label()))
                .mapToDouble(StepResult.ClassTime::seconds).sum();
    }

    @Test
    void shouldSplitEverySequenceOverTheContextParallelDevicesAndPassKeysAndValuesAroundTheRing() {
        TrainingSetup one = setup().parallelism(layout(2, 1, 1, 1, 1, 1, 1, 0, 1)).build();
        TrainingSetup cp = setup().parallelism(layout(1, 1, 1, 2, 1, 1, 1, 0, 1)).build();
        List<Operation> a = Estimator.plan(llama8b, one, h100).operations();
        List<Operation> b = Estimator.plan(llama8b, cp, h100).operations();
        // Half the tokens of every linear layer and half the causal attention work, on each device.
        assertEquals(seconds(a, "mlp") / 2, seconds(b, "mlp"), seconds(a, "mlp") * 1e-9);
        assertEquals(seconds(a, "attention (fused)") / 2, seconds(b, "attention (fused)"),
                seconds(a, "attention (fused)") * 1e-3);
        Operation ring = only(b, "context-parallel key/value ring (forward)");
        // One step of the ring per layer: 4096 tokens x 2 x 8 KV heads x 128 x 2 bytes.
        assertEquals(4096.0 * 2 * 8 * 128 * 2, ring.linkBytes(), 1e-6);
        assertEquals(Placement.NODE_LINK, ring.placement());
        // Gradients are reduced over data x context parallel ranks: two, as with two replicas.
        String scatter = "data-parallel gradient reduce-scatter (distributed optimizer)";
        assertEquals(only(a, scatter).linkBytes(), only(b, scatter).linkBytes(), 1);
        TrainingSetup across = setup().parallelism(layout(1, 8, 1, 2, 1, 1, 1, 0, 2)).build();
        assertEquals(Placement.NETWORK_LINK, only(Estimator.plan(llama8b, across, h100).operations(),
                "context-parallel key/value ring (forward)").placement(), "tp 8 x cp 2 spans two 8-GPU nodes");
        assertEquals("context-parallel must divide the sequence length (8191): contextParallel=2",
                assertThrows(BadInputException.class, () -> setup().sequenceLength(8191)
                        .parallelism(layout(1, 1, 1, 2, 1, 1, 0, 0, 1)).build()).getMessage());
    }

    @Test
    void shouldPlaceWholeExpertsPerDeviceAndMoveTheRoutedTokensAllToAll() {
        TrainingSetup tp = setup().sequenceLength(4096).parallelism(layout(1, 8, 1, 1, 1, 1, 0, 0, 1)).build();
        TrainingSetup ep = setup().sequenceLength(4096).parallelism(layout(8, 1, 1, 1, 1, 8, 1, 0, 1)).build();
        StepPlan tensor = Estimator.plan(mixtral, tp, h100);
        StepPlan experts = Estimator.plan(mixtral, ep, h100);
        // Expert weights: one of the eight experts at full width here, every expert at 1/8 width there.
        double expertParameters = mixtral.parameters().experts();
        double dense = mixtral.parameters().total() - expertParameters;
        assertEquals(dense + expertParameters / 8, experts.parametersOnDevice(), 1);
        assertEquals(mixtral.parameters().total() / 8.0, tensor.parametersOnDevice(), 1);
        // The experts' FLOPs per token are the same: rows x k over the device's experts.
        Operation gate = only(experts.operations(), "expert gate and up projections");
        assertEquals(4096.0 * 2 * 2 * 4096 * 2 * 14336, gate.totalFlops() / gate.count(), gate.totalFlops() * 1e-9);
        Operation a2a = only(experts.operations(), "expert-parallel all-to-all inside the node");
        // Dispatch and combine, forward and backward, per MoE layer: 7/8 of the routed rows leave the device.
        assertEquals(4 * 32, a2a.count(), 1e-9);
        assertEquals(4096.0 * 2 * 4096 * 2 * 7 / 8, a2a.linkBytes(), 1);
        TrainingSetup twoNodes = setup().sequenceLength(4096).parallelism(layout(16, 1, 1, 1, 1, 8, 1, 0, 2)).build();
        assertTrue(Estimator.plan(mixtral, twoNodes, h100).operations().stream()
                .noneMatch(o -> o.name().equals("expert-parallel all-to-all across nodes")), "EP 8 fits an 8-GPU node");
        TrainingSetup across = setup().sequenceLength(4096).parallelism(layout(8, 1, 1, 1, 1, 8, 1, 0, 2)).build();
        assertEquals(Placement.NETWORK_LINK, only(Estimator.plan(mixtral, across, h100).operations(),
                "expert-parallel all-to-all across nodes").placement());
        assertEquals("expert parallelism needs a mixture of experts (llama-3.1-8b is dense): expertParallel=8",
                assertThrows(BadInputException.class, () -> Estimator.plan(llama8b, ep, h100)).getMessage());
        assertTrue(assertThrows(BadInputException.class, () -> layout(2, 1, 1, 1, 1, 8, 0, 0, 1)).getMessage()
                .startsWith("expert-parallel must divide data x context x tensor parallel (2;"));
    }

    @Test
    void shouldShardInsideTheGroupAndAllReduceEachShardAcrossReplicas() {
        TrainingSetup hybrid = setup().sequenceLength(4096).parallelism(layout(32, 1, 1, 1, 1, 1, 3, 8, 4)).build();
        List<Operation> ops = Estimator.plan(llama8b, hybrid, h100).operations();
        Operation gather = only(ops, "weight all-gather (shard group of 8)");
        Operation across = only(ops, "gradient shard all-reduce across 4 replicas");
        assertEquals(Placement.NODE_LINK, gather.placement());
        assertEquals(Placement.NETWORK_LINK, across.placement());
        double gradientBytes = llama8b.parameters().total() * 2.0;
        assertEquals(2.0 * 3 / 4 * gradientBytes / 8, across.linkBytes(), gradientBytes * 1e-9);
        assertEquals("a shard group (hybrid sharding) needs ZeRO stage 3: shardGroup=8, zeroStage=1",
                assertThrows(BadInputException.class, () -> layout(32, 1, 1, 1, 1, 1, 1, 8, 4)).getMessage());
    }

    @Test
    void shouldRecomputeTheNamedModulesOrTheFirstLayersOfEachStage() {
        TrainingSetup none = setup().build();
        TrainingSetup norms = setup().checkpointing(Checkpointing.SELECTIVE)
                .recomputeModules(Set.of(RecomputeModule.LAYERNORM)).build();
        TrainingSetup full = setup().checkpointing(Checkpointing.FULL).build();
        TrainingSetup five = setup().checkpointing(Checkpointing.FULL).recomputeLayers(5).build();
        double r0 = recompute(none);
        double rNorms = recompute(norms);
        double rFull = recompute(full);
        double rFive = recompute(five);
        assertEquals(0, r0, 0);
        assertTrue(rNorms > 0 && rNorms < rFull / 10, "norms " + rNorms + " of full " + rFull);
        // Five of the 32 layers; full checkpointing also recomputes the output layer, which a partial one leaves.
        assertTrue(rFive <= rFull * 5 / 32 && rFive > rFull * 5 / 32 * 0.9, "five layers " + rFive + " of " + rFull);
        assertEquals("recompute modules need selective checkpointing: checkpointing=none, recomputeModules=[LAYERNORM]",
                assertThrows(BadInputException.class, () -> setup().recomputeModules(Set.of(RecomputeModule.LAYERNORM))
                        .build()).getMessage());
        assertTrue(assertThrows(BadInputException.class, () -> RecomputeModule.parseList("layernorms")).getMessage()
                .contains("(did you mean layernorm?)"));
    }

    private double recompute(TrainingSetup s) {
        return Estimator.step(llama8b, s, h100, Basis.DATASHEET).breakdown().stream()
                .filter(c -> c.operationClass().equals(OperationClass.RECOMPUTE.label()))
                .mapToDouble(StepResult.ClassTime::seconds).sum();
    }

    @Test
    void shouldRunAHopperTunedAttentionKernelFasterOnHopperOnly() {
        TrainingSetup fa2 = setup().attentionKernel(AttentionKernel.FA2).build();
        TrainingSetup fa3 = setup().attentionKernel(AttentionKernel.FA3).build();
        double h100Fa2 = attention(fa2, h100);
        double h100Fa3 = attention(fa3, h100);
        assertEquals(0.93 / 0.45, h100Fa2 / h100Fa3, 1e-9);
        assertEquals(attention(fa2, b200), attention(fa3, b200), 0);
    }

    private static double attention(TrainingSetup s, Machine m) {
        StepPlan plan = Estimator.plan(Presets.get("llama-3.1-8b"), s, m);
        Roofline.Evaluation eval = Roofline.evaluate(plan.operations(), Ceilings.withLinks(m, Basis.DATASHEET, 1,
                Ceilings.Links.NONE, s.attentionKernel()));
        double sum = 0;
        for (int i = 0; i < plan.operations().size(); i++) {
            if (plan.operations().get(i).kernel() == membound.model.roofline.Kernel.ATTENTION) {
                sum += eval.seconds()[i];
            }
        }
        return sum;
    }

    @Test
    void shouldRunBlockScaledGemmsAtTheirElementRateAndKeepAttentionAndActivationsIn16Bits() {
        TrainingSetup mx = setup().precision(Precision.BF16).activationPrecision(Precision.MXFP8).build();
        TrainingSetup nv = setup().precision(Precision.BF16).activationPrecision(Precision.NVFP4).build();
        StepPlan plan = Estimator.plan(llama8b, nv, b200);
        assertEquals(Precision.NVFP4, only(plan.operations(), "mlp down projection").precision());
        assertEquals(Precision.BF16, only(plan.operations(), "attention (fused)").precision(),
                "Transformer Engine leaves attention in 16 bits unless FP8 attention is asked for");
        assertEquals(Precision.BF16, nv.storedActivationPrecision());
        Roofline.Evaluation mxEval = Roofline.evaluate(Estimator.plan(llama8b, mx, b200).operations(),
                Ceilings.of(b200, Basis.DATASHEET, 1, null));
        Roofline.Evaluation nvEval = Roofline.evaluate(plan.operations(), Ceilings.of(b200, Basis.DATASHEET, 1, null));
        int down = indexOf(plan.operations(), "mlp down projection");
        // B200 datasheet: FP4 9 PF against FP8 4.5 PF dense: the same GEMM in half the time.
        assertEquals(mxEval.seconds()[down] / 2, nvEval.seconds()[down], mxEval.seconds()[down] * 1e-9);
        assertTrue(Estimator.plan(llama8b, mx, b200).notes().stream().anyMatch(n -> n.contains("mxfp8")
                && n.contains("fp8 rate")), "the fallback to the FP8 ceiling is said");
        TrainingSetup fp8Attention = setup().precision(Precision.BF16).activationPrecision(Precision.FP8)
                .attentionPrecision(Precision.FP8).build();
        assertEquals(Precision.FP8, only(Estimator.plan(llama8b, fp8Attention, b200).operations(),
                "attention (fused)").precision());
    }

    private static int indexOf(List<Operation> ops, String name) {
        for (int i = 0; i < ops.size(); i++) {
            if (ops.get(i).name().equals(name)) {
                return i;
            }
        }
        throw new AssertionError(name);
    }

    @Test
    void shouldKeepTheDataParallelCollectivesOfAnNvl72RackOnNvlinkAndCrossRacksOverTheNetwork() {
        TrainingSetup rack = setup().parallelism(layout(64, 1, 1, 1, 1, 1, 1, 0, 1)).build();
        TrainingSetup racks = setup().parallelism(layout(128, 1, 1, 1, 1, 1, 1, 0, 2)).build();
        assertEquals("nvlink", Estimator.parallelLink(gb200, rack.parallelism()).id());
        assertEquals(900e9, Estimator.parallelLink(gb200, rack.parallelism()).bandwidth().datasheet(), 0);
        var across = Estimator.parallelLink(gb200, racks.parallelism());
        assertEquals("hierarchical", across.id());
        // 2(n-1)/n S / (2(g-1)/g S / 900 GB/s + 2(N-1)/N S / (g x 50 GB/s)) with g = 64, N = 2.
        double n = 128;
        double expected = 2 * (n - 1) / n / (2.0 * 63 / 64 / 900e9 + 2.0 * 1 / 2 / (64 * 50e9));
        assertEquals(expected, across.bandwidth().datasheet(), expected * 1e-12);
    }

    @Test
    void shouldSlowThePipelineBubbleAsMuchAsTheTermsSlowThePasses() {
        TrainingSetup piped = setup().gradientAccumulation(8).parallelism(layout(1, 4, 8, 1, 1, 1, 0, 0, 4)).build();
        StepPlan plan = Estimator.plan(llama70b, piped, h100);
        Roofline.Evaluation eval = Roofline.evaluate(plan.operations(), Ceilings.withLinks(h100, Basis.DATASHEET, 1,
                Estimator.links(h100, piped.parallelism())));
        Overheads half = new Overheads(0.5, 0, "test");
        double plain = half.addedSeconds(plan.operations(), eval);
        assertEquals(1 + 7.0 / 8, Estimator.passScale(piped), 1e-12);
        assertEquals(plain * (1 + 7.0 / 8), half.addedSeconds(plan.operations(), eval, Estimator.passScale(piped)),
                plain * 1e-9);
    }
}
