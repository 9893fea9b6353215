package membound.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.DoubleRange;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;

import membound.model.decode.DecodeEstimator;
import membound.model.decode.DecodeSetup;
import membound.model.decode.WeightFormat;
import membound.model.machine.Basis;
import membound.model.machine.Machine;
import membound.model.roofline.Operation;
import membound.model.roofline.OperationClass;
import membound.model.training.Checkpointing;
import membound.model.training.FineTuning;
import membound.model.training.LoraTarget;
import membound.model.training.Optimizer;
import membound.model.training.StepPlan;
import membound.model.training.TrainingSetup;
import membound.model.workload.Activation;
import membound.model.workload.Mlp;
import membound.model.workload.Presets;
import membound.model.workload.Transformer;
import membound.model.workload.Workload;
import membound.vocabulary.Precision;

/** What must hold for every workload and setup, not just the ones a test author thought of. */
class EstimatorPropertiesTest {

    static final double RELATIVE = 1e-9;
    static final double BANDWIDTH = 500e9;
    static final double FLOPS = 100e12;

    @Property(tries = 60)
    void moreBandwidthNeverMakesAStepSlower(@ForAll("workloads") Workload w, @ForAll("setups") TrainingSetup s,
                                            @ForAll @DoubleRange(min = 1, max = 16) double factor) {
        double slow = step(w, s, TestMachines.simple(BANDWIDTH, FLOPS));
        double fast = step(w, s, TestMachines.simple(BANDWIDTH * factor, FLOPS));
        assertTrue(fast <= slow * (1 + RELATIVE), fast + " > " + slow);
    }

    @Property(tries = 60)
    void moreFlopsNeverMakeAStepSlower(@ForAll("workloads") Workload w, @ForAll("setups") TrainingSetup s,
                                       @ForAll @DoubleRange(min = 1, max = 16) double factor) {
        double slow = step(w, s, TestMachines.simple(BANDWIDTH, FLOPS));
        double fast = step(w, s, TestMachines.simple(BANDWIDTH, FLOPS * factor));
        assertTrue(fast <= slow * (1 + RELATIVE), fast + " > " + slow);
    }

    @Property(tries = 40)
    void totalTimeIsLinearInTokens(@ForAll("workloads") Workload w, @ForAll("setups") TrainingSetup s,
                                   @ForAll @LongRange(min = 1_000_000, max = 1_000_000_000_000L) long tokens,
                                   @ForAll @IntRange(min = 2, max = 1000) int factor) {
        Machine m = TestMachines.simple(BANDWIDTH, FLOPS);
        double once = Estimator.step(w, s.toBuilder().tokens(tokens).build(), m, Basis.MEASURED).totalSeconds();
        double scaled = Estimator.step(w, s.toBuilder().tokens(tokens * factor).build(), m, Basis.MEASURED).totalSeconds();
        assertEquals(factor * once, scaled, factor * once * RELATIVE);
    }

    @Property(tries = 40)
    void gradientAccumulationOnlySpreadsTheOptimizerStep(@ForAll("workloads") Workload w, @ForAll("setups") TrainingSetup s,
                                                          @ForAll @IntRange(min = 1, max = 16) int more) {
        Machine m = TestMachines.simple(BANDWIDTH, FLOPS);
        TrainingSetup one = s.toBuilder().gradientAccumulation(1).build();
        TrainingSetup many = s.toBuilder().gradientAccumulation(1 + more).build();
        assertEquals(flopsPerToken(w, one, m), flopsPerToken(w, many, m), flopsPerToken(w, one, m) * RELATIVE,
                "forward, backward and recompute FLOPs per token");
        StepResult a = Estimator.step(w, one, m, Basis.MEASURED);
        StepResult b = Estimator.step(w, many, m, Basis.MEASURED);
        double optimizer = a.time("optimizer").seconds();
        assertEquals(optimizer, b.time("optimizer").seconds(), optimizer * RELATIVE, "optimizer step per step");
        double perMicroBatch = a.stepSeconds() - optimizer;
        assertEquals(perMicroBatch, (b.stepSeconds() - optimizer) / (1 + more), perMicroBatch * RELATIVE,
                "everything else per micro-batch");
    }

    /**
     * Ranks as used in practice (4 to 64). At a rank near a sixth of the layer width the adapters'
     * FLOPs exceed the weight gradients they save: that is LoRA, not the model.
     */
    @Property(tries = 40)
    void loraIsCheaperPerStepThanFullFineTuning(@ForAll("transformers") Transformer tf, @ForAll("setups") TrainingSetup s,
                                                @ForAll @IntRange(min = 4, max = 64) int rank) {
        Machine m = TestMachines.simple(BANDWIDTH, FLOPS);
        double full = step(tf, s.toBuilder().fineTuning(FineTuning.full()).build(), m);
        double lora = step(tf, s.toBuilder().fineTuning(FineTuning.lora(rank, LoraTarget.allLinear())).build(), m);
        assertTrue(lora < full, "lora " + lora + " >= full " + full);
    }

    @Property(tries = 30)
    void aMixtureOfExpertsDecodeReadsFewerBytesPerTokenThanADenseModelOfTheSameSize(
            @ForAll @IntRange(min = 1, max = 16) int batch, @ForAll @IntRange(min = 128, max = 32768) int context,
            @ForAll("weightFormats") String format) {
        Transformer moe = Presets.get("mixtral-8x7b");
        // Same total parameters: one dense MLP as wide as all eight experts (the router's 1M aside).
        Transformer dense = moe.toBuilder().experts(null).intermediateSize(8 * moe.intermediateSize()).build();
        assertEquals(1.0, (double) dense.parameters().total() / moe.parameters().total(), 1e-4);
        DecodeSetup setup = new DecodeSetup(context, batch, 128, WeightFormat.parse(format), Precision.BF16,
                Precision.BF16, 1);
        Machine m = TestMachines.simple(BANDWIDTH, FLOPS);
        double moeBytes = DecodeEstimator.predict(moe, setup, m).bytesPerToken();
        double denseBytes = DecodeEstimator.predict(dense, setup, m).bytesPerToken();
        assertTrue(moeBytes < denseBytes, moeBytes + " >= " + denseBytes);
    }

    // ---- generators ----

    @Provide
    Arbitrary<Workload> workloads() {
        return Arbitraries.oneOf(transformers().map(t -> (Workload) t),
                Arbitraries.integers().between(64, 4096).list().ofMinSize(2).ofMaxSize(5)
                        .map(widths -> new Mlp(null, "generated", widths, Activation.GELU, true)));
    }

    @Provide
    Arbitrary<Transformer> transformers() {
        return Arbitraries.of("gpt2", "llama-3.2-1b", "qwen2.5-7b", "mixtral-8x7b", "gpt-oss-20b").map(Presets::get);
    }

    @Provide
    Arbitrary<TrainingSetup> setups() {
        return Combinators.combine(
                Arbitraries.of(256, 1024, 4096),
                Arbitraries.integers().between(1, 4),
                Arbitraries.integers().between(1, 8),
                Arbitraries.of(Precision.FP32, Precision.BF16, Precision.FP8),
                Arbitraries.of(Optimizer.values()),
                Arbitraries.of(Checkpointing.values()),
                Arbitraries.of(true, false),
                Arbitraries.integers().between(1, 3)).as((seq, micro, accum, precision, optimizer, checkpointing, flash, tenants) ->
                TrainingSetup.builder().sequenceLength(seq).microBatchSize(micro).gradientAccumulation(accum)
                        .precision(precision).optimizer(optimizer).checkpointing(checkpointing)
                        .flashAttention(flash).tenants(tenants).build());
    }

    @Provide
    Arbitrary<String> weightFormats() {
        return Arbitraries.of("bf16", "Q8_0", "Q4_0", "mxfp4");
    }

    private static double step(Workload w, TrainingSetup s, Machine m) {
        return Estimator.step(w, s, m, Basis.MEASURED).stepSeconds();
    }

    private static double flopsPerToken(Workload w, TrainingSetup s, Machine m) {
        StepPlan plan = Estimator.plan(w, s, m);
        double flops = 0;
        for (Operation op : plan.operations()) {
            if (List.of(OperationClass.FORWARD, OperationClass.BACKWARD, OperationClass.RECOMPUTE)
                    .contains(op.operationClass())) {
                flops += op.totalFlops();
            }
        }
        return flops / s.tokensPerStep();
    }
}
