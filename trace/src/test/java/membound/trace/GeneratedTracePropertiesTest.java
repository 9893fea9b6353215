package membound.trace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Random;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;

import membound.model.machine.Machine;
import membound.model.machine.Machines;
import membound.model.machine.Overrides;
import membound.trace.classify.OperatorCosts;
import membound.trace.project.Projection;
import membound.vocabulary.Precision;

/** Properties of the breakdown and the projection on traces generated with a seed. */
class GeneratedTracePropertiesTest {

    private static final long STEP_NS = 1_000_000_000L;

    /** A trace of {@code steps} steps, each kernel launched in a step and started up to half a step later. */
    static RankTrace generate(long seed, int steps, int kernels, int streams) {
        Random random = new Random(seed);
        TraceAssembly a = new TraceAssembly();
        String[] names = {"ampere_sgemm_128x64_tn", "void at::native::vectorized_elementwise_kernel<4>",
                "void at::native::(anonymous namespace)::vectorized_layer_norm_kernel<float>",
                "ncclKernel_AllReduce_RING_LL_Sum_float", "flash_fwd_kernel", "multi_tensor_apply_kernel<Adam>"};
        long correlation = 1;
        for (int s = 0; s < steps; s++) {
            a.operator("ProfilerStep#" + s, s * STEP_NS, STEP_NS, 1, 0, OperatorCosts.Cost.UNKNOWN);
            for (int k = 0; k < kernels; k++) {
                long launch = s * STEP_NS + (long) (random.nextDouble() * (STEP_NS - 1));
                long start = launch + (long) (random.nextDouble() * STEP_NS / 2);
                long duration = 1 + (long) (random.nextDouble() * STEP_NS / Math.max(1, kernels / 4));
                a.runtime(launch, 5_000, 1, correlation, 0);
                a.gpu(TraceAssembly.GpuKind.KERNEL, start, duration, random.nextInt(streams),
                        names[random.nextInt(names.length)], 0, correlation);
                correlation++;
            }
        }
        return a.build("generated-" + seed, "generated", 0, 1, List.of(), false, List.of());
    }

    @Property(tries = 200)
    void theUnionAcrossStreamsIsAtMostTheSumAndAtLeastTheLongestStream(@ForAll long seed,
            @ForAll @IntRange(min = 1, max = 60) int kernels, @ForAll @IntRange(min = 1, max = 6) int streams) {
        RankTrace trace = generate(seed, 2, kernels, streams);
        for (StepBreakdown s : TraceAnalysis.summarise(trace).steps()) {
            assertTrue(s.busySeconds() <= s.activitySeconds() + 1e-12, s.toString());
            for (TraceClass c : TraceClass.values()) {
                assertTrue(s.classUnionSeconds().get(c) <= s.classSeconds().get(c) + 1e-12);
                assertTrue(s.classUnionSeconds().get(c) <= s.busySeconds() + 1e-12);
            }
            assertEquals(s.wallSeconds(), s.busySeconds() + s.idleSeconds(), 1e-12);
        }
    }

    @Property(tries = 200)
    void kernelsBackToBackOnOneStreamHaveAUnionEqualToTheirSum(@ForAll @IntRange(min = 1, max = 200) int kernels,
            @ForAll @LongRange(min = 1, max = 1_000_000) long durationNs) {
        TraceAssembly a = new TraceAssembly();
        a.operator("ProfilerStep#1", 0, STEP_NS * 10, 1, 0, OperatorCosts.Cost.UNKNOWN);
        for (int k = 0; k < kernels; k++) {
            a.gpu(TraceAssembly.GpuKind.KERNEL, k * durationNs, durationNs, 7, "sgemm", 0, 0);
        }
        StepBreakdown s = TraceAnalysis.summarise(a.build("f", "generated", -1, 0, List.of(), false, List.of()))
                .steps().get(0);
        assertEquals(s.activitySeconds(), s.busySeconds(), 1e-15 * kernels);
        assertEquals(kernels * durationNs * 1e-9, s.busySeconds(), 1e-12);
    }

    @Property(tries = 200)
    void eachKernelCountsInTheStepItsLaunchFellIn(@ForAll long seed, @ForAll @IntRange(min = 2, max = 5) int steps,
            @ForAll @IntRange(min = 1, max = 40) int kernels) {
        RankTrace trace = generate(seed, steps, kernels, 3);
        Activities act = trace.activities();
        int[] launched = new int[steps];
        for (int i = 0; i < act.size(); i++) {
            launched[(int) (act.launchNs(i) / STEP_NS)]++;
        }
        List<StepBreakdown> breakdown = TraceAnalysis.summarise(trace).steps();
        for (int s = 0; s < steps; s++) {
            assertEquals(launched[s], breakdown.get(s).activityCount(), "step " + s);
        }
    }

    @Property(tries = 100)
    void projectingOntoTheMachineTheTraceCameFromReturnsTheMeasuredStep(@ForAll long seed,
            @ForAll @IntRange(min = 1, max = 50) int kernels, @ForAll @IntRange(min = 0, max = 3) int machine) {
        String id = List.of("dgx-spark", "h100", "gh200", "a100").get(machine);
        Machine m = Machines.datasheet(id, Overrides.NONE);
        RankSummary rank = TraceAnalysis.summarise(generate(seed, 3, kernels, 4));
        Projection.Result p = Projection.project(rank, m, m, Precision.BF16);
        for (int s = 0; s < rank.steps().size(); s++) {
            assertEquals(rank.steps().get(s).wallSeconds(), p.steps().get(s).projectedSeconds(), 0.0);
        }
        p.ratios().forEach(r -> assertEquals(1.0, r.ratio(), 0.0, r.toString()));
    }

    @Property(tries = 50)
    void twiceTheBandwidthHalvesTheMemoryBoundClassesAndKeepsTheIdleTime(@ForAll long seed,
            @ForAll @IntRange(min = 1, max = 30) int kernels) {
        Machine m = Machines.datasheet("dgx-spark", Overrides.NONE);
        Machine faster = m.scaled(2.0, 1.0, "twice the bandwidth (test)");
        RankSummary rank = TraceAnalysis.summarise(generate(seed, 2, kernels, 2));
        Projection.Result p = Projection.project(rank, m, faster, Precision.BF16);
        for (Projection.Ratio r : p.ratios()) {
            if (r.traceClass().memoryBoundByDefault()) {
                assertEquals(0.5, r.ratio(), 1e-12, r.toString());
            }
            if (r.traceClass() == TraceClass.GEMM) {
                assertEquals(1.0, r.ratio(), 1e-12, r.toString());
            }
        }
        for (int s = 0; s < rank.steps().size(); s++) {
            StepBreakdown measured = rank.steps().get(s);
            double projected = p.steps().get(s).projectedSeconds();
            assertTrue(projected >= measured.idleSeconds() - 1e-12, "idle is kept");
            assertTrue(projected <= measured.wallSeconds() + 1e-12, "nothing gets slower");
        }
    }
}
