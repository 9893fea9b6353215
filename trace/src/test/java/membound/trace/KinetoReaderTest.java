package membound.trace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;

/** Real public traces (test resources, each with its source in the README beside it) read in every layout. */
class KinetoReaderTest {

    @Test
    void readsBothRanksOfTheHtaMultiRankTraceWithStepsNcclAndAStraggler() {
        List<RankTrace> traces = Traces.read(List.of(TestTraces.htaRank0(), TestTraces.htaRank1()));
        assertEquals(List.of(0, 1), traces.stream().map(RankTrace::rank).toList());
        assertTrue(traces.stream().allMatch(t -> t.worldSize() == 128 && t.gpu() && t.shapes()));
        List<RankSummary> ranks = traces.stream().map(TraceAnalysis::summarise).toList();
        for (RankSummary r : ranks) {
            assertEquals(List.of("ProfilerStep#551", "ProfilerStep#552"),
                    r.steps().stream().map(StepBreakdown::name).toList());
            StepBreakdown step = r.steps().get(0);
            assertTrue(step.classSeconds().get(TraceClass.COMMUNICATION) > 0.1, "NCCL send/recv kernels: " + step);
            assertTrue(step.busySeconds() <= step.wallSeconds());
            assertTrue(step.busySeconds() <= step.activitySeconds() + 1e-12, "the union is at most the sum");
            assertTrue(step.communicationOverlappedSeconds() > 0, "NCCL on its own stream under compute");
            assertTrue(step.costs().get(TraceClass.GEMM).flops() > 0, "record_shapes gives the GEMMs' FLOPs");
        }
        TraceAnalysis.Straggler straggler = TraceAnalysis.straggler(ranks);
        assertEquals("rank 1", straggler.rank());
        assertTrue(straggler.slowerThanMedian() > 0);
    }

    @Test
    void keepsNanosecondFractionsOfMicrosecondTimestamps() {
        RankTrace t = Traces.read(TestTraces.htaNsResolution());
        assertEquals(List.of("Tesla V100-SXM2-32GB"), t.devices().stream().distinct().toList());
        assertEquals(5, t.steps().size());
        boolean fractions = false;
        for (int i = 0; i < t.activities().size(); i++) {
            fractions |= t.activities().durationNs(i) % 1000 != 0;
        }
        assertTrue(fractions, "durations such as 4.928 us stay 4928 ns");
    }

    @Test
    void readsThe2021LayoutOfTheTensorBoardPluginSamples() {
        RankTrace t = Traces.read(TestTraces.kinetoResnet());
        assertEquals("kineto", t.format());
        assertEquals(List.of("ProfilerStep#5", "ProfilerStep#6", "ProfilerStep#7", "ProfilerStep#8", "ProfilerStep#9",
                "ProfilerStep#10"), t.steps().stream().map(StepRange::name).toList());
        RankSummary r = TraceAnalysis.summarise(t);
        StepBreakdown step = r.steps().get(0);
        assertTrue(step.classSeconds().get(TraceClass.GEMM) > step.classSeconds().get(TraceClass.NORM),
                "ResNet-50's convolutions outweigh its batch norms: " + step.classSeconds());
        assertTrue(step.classSeconds().get(TraceClass.NORM) > 0);
        assertTrue(step.classSeconds().get(TraceClass.MEMCPY) > 0);
        int linked = 0;
        for (int i = 0; i < t.activities().size(); i++) {
            linked += t.activities().operatorName(i) != null ? 1 : 0;
        }
        assertTrue(linked > 0.9 * t.activities().size(), "'external id' links kernels to operators: " + linked);
    }

    @Test
    void classifiesAmdKernelsWithoutFailing() {
        RankSummary r = TraceAnalysis.summarise(Traces.read(TestTraces.htaAmd()));
        assertTrue(r.steps().get(0).classSeconds().get(TraceClass.GEMM) > 0, "rocBLAS Cijk_ kernels are GEMMs");
    }

    @Test
    void reportsTheCpuSideOfATraceWithNoGpuEvents() {
        RankTrace t = Traces.read(TestTraces.htaCpuOnly());
        assertFalse(t.gpu());
        assertTrue(t.notes().stream().anyMatch(n -> n.contains("no GPU events")));
        StepBreakdown step = TraceAnalysis.summarise(t).steps().get(0);
        assertTrue(step.classSeconds().get(TraceClass.COMMUNICATION) > 0, "gloo all-reduce on the CPU");
        assertEquals(0, step.kernelSeconds());
    }

    @Test
    void readsTorchOneThirteensTopLevelListAsCpuOperatorTime() {
        RankTrace t = Traces.read(TestTraces.torchCpu());
        assertEquals("chrome-trace list", t.format());
        assertFalse(t.gpu());
        assertFalse(t.shapes());
        assertEquals(3, t.steps().size());
        for (StepBreakdown s : TraceAnalysis.summarise(t).steps()) {
            assertTrue(s.classSeconds().get(TraceClass.GEMM) > 0.5 * s.wallSeconds(), "GEMMs dominate: " + s);
            assertTrue(s.classSeconds().get(TraceClass.OPTIMIZER) > 0, "AdamW after the backward: " + s);
            assertTrue(s.classSeconds().get(TraceClass.NORM) > 0);
            assertTrue(s.busySeconds() <= s.wallSeconds());
        }
    }
}
