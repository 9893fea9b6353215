package membound.trace;

import org.junit.jupiter.api.Test;

class ExploreTest {
    @Test
    void explore() {
        for (var p : java.util.List.of(TestTraces.htaRank0(), TestTraces.htaRank1(), TestTraces.htaNsResolution(),
                TestTraces.htaNccl(), TestTraces.htaAmd(), TestTraces.htaCpuOnly(), TestTraces.kinetoResnet(),
                TestTraces.torchCpu())) {
            long t0 = System.nanoTime();
            RankTrace t = Traces.read(p);
            RankSummary s = TraceAnalysis.summarise(t);
            System.out.printf("%s %s rank=%d ws=%d gpu=%s shapes=%s acts=%d %.0fms notes=%s devices=%s%n", p.getFileName(), t.format(), t.rank(), t.worldSize(), t.gpu(), t.shapes(), t.activities().size(), (System.nanoTime()-t0)/1e6, t.notes(), t.devices().stream().distinct().toList());
            for (StepBreakdown b : s.steps()) {
                System.out.printf("  %s wall=%.4f busy=%.4f idle=%.4f kern=%.4f overlap=%.4f%n    %s%n    costs=%s%n    top=%s%n", b.name(), b.wallSeconds(), b.busySeconds(), b.idleSeconds(), b.kernelSeconds(), b.communicationOverlappedSeconds(), b.classSeconds(), b.costs(), b.top().subList(0, Math.min(3, b.top().size())));
            }
        }
    }
}
