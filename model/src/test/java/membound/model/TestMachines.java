package membound.model;

import java.util.EnumMap;
import java.util.List;
import java.util.Map;

import membound.model.machine.Ceiling;
import membound.model.machine.ComputeCeiling;
import membound.model.machine.Device;
import membound.model.machine.Link;
import membound.model.machine.Machine;
import membound.model.machine.MemoryTier;
import membound.vocabulary.AccessPattern;
import membound.vocabulary.DeviceKind;
import membound.vocabulary.Precision;

/** Hand-built machines with round numbers, so tests can compute their answers by hand. */
public final class TestMachines {

    public static final long CAPACITY_BYTES = 1L << 40;

    private TestMachines() {
    }

    /**
     * One GPU with {@code bytesPerSecond} for every access pattern, {@code gemmFlopsPerSecond} in
     * every precision (peak 1.25x that), vector rate a tenth of the GEMM rate, a peer link of 100 GB/s.
     */
    public static Machine simple(double bytesPerSecond, double gemmFlopsPerSecond) {
        return machine(Map.of(AccessPattern.READ, bytesPerSecond, AccessPattern.COPY, bytesPerSecond,
                AccessPattern.TRIAD, bytesPerSecond), gemmFlopsPerSecond, false);
    }

    public static Machine machine(Map<AccessPattern, Double> bandwidth, double gemmFlopsPerSecond, boolean unified) {
        Map<AccessPattern, Ceiling> ceilings = new EnumMap<>(AccessPattern.class);
        bandwidth.forEach((pattern, value) -> ceilings.put(pattern,
                new Ceiling(value, "test datasheet", value, "test measurement")));
        Map<Precision, ComputeCeiling> compute = new EnumMap<>(Precision.class);
        for (Precision p : Precision.TRAINING) {
            compute.put(p, new ComputeCeiling(p,
                    new Ceiling(gemmFlopsPerSecond * 1.25, "test peak", gemmFlopsPerSecond * 1.25, "test peak"),
                    new Ceiling(gemmFlopsPerSecond, "test gemm", gemmFlopsPerSecond, "test gemm"),
                    new Ceiling(gemmFlopsPerSecond * 2.5, "test sparse", gemmFlopsPerSecond * 2.5, "test sparse")));
        }
        Device device = new Device("test-gpu", "test GPU", DeviceKind.GPU, CAPACITY_BYTES, "test", unified,
                List.of(new MemoryTier("main memory", CAPACITY_BYTES, ceilings)), compute,
                new Ceiling(gemmFlopsPerSecond / 10, "test vector", gemmFlopsPerSecond / 10, "test vector"));
        Device host = new Device("test-cpu", "test CPU", DeviceKind.CPU, CAPACITY_BYTES, "test", unified,
                List.of(MemoryTier.uniform("main memory", CAPACITY_BYTES, Ceiling.datasheet(bandwidth.get(AccessPattern.READ) / 4, "test host"))),
                Map.of(), null);
        List<Link> links = List.of(
                new Link("peer", "test peer link", Link.Kind.PEER, Ceiling.datasheet(100e9, "test link"), 0, "test"),
                new Link("host", "test host link", Link.Kind.HOST, Ceiling.datasheet(50e9, "test link"), 0, "test"));
        return new Machine("test", "test machine", "hand-built for tests", device, host, links, null, List.of());
    }
}
