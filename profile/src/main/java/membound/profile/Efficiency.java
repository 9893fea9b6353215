package membound.profile;

import java.util.ArrayList;
import java.util.List;

import membound.vocabulary.AccessPattern;
import membound.vocabulary.MemoryLevel;
import membound.vocabulary.Precision;
import membound.vocabulary.Statistic;

/**
 * Measured over nominal, per figure that has both. Derived from the devices and the nominal figures
 * with {@link #derive}; stored so that a reader sees it without recomputing.
 *
 * @param bandwidth DRAM ceilings over the nominal memory bandwidth
 * @param compute   compute ceilings over the nominal dense peak of the same precision
 */
public record Efficiency(List<BandwidthRatio> bandwidth, List<ComputeRatio> compute) {

    public Efficiency {
        bandwidth = Checks.list("efficiency.bandwidth", bandwidth);
        compute = Checks.list("efficiency.compute", compute);
    }

    /** The ratios a profile's devices and nominal figures imply. */
    public static Efficiency derive(List<Device> devices, Nominal nominal) {
        List<BandwidthRatio> bandwidth = new ArrayList<>();
        List<ComputeRatio> compute = new ArrayList<>();
        for (Device device : devices) {
            nominal.memoryBandwidthOf(device.id()).ifPresent(n -> {
                for (LevelCeiling ceiling : device.levels()) {
                    // STREAM bytes against the datasheet: an update's hardware-byte ceiling is no efficiency.
                    if (ceiling.level() == MemoryLevel.DRAM && ceiling.statistic() != Statistic.NOMINAL
                            && !ceiling.inHardwareBytes() && !ceiling.standsIn()) {
                        bandwidth.add(new BandwidthRatio(device.id(), ceiling.access(), ceiling.bytesPerSecond(),
                                n.bytesPerSecond(), ceiling.bytesPerSecond() / n.bytesPerSecond()));
                    }
                }
            });
            for (Precision precision : Precision.values()) {
                for (ComputeEntry.Kind kind : ComputeEntry.Kind.CEILINGS) {
                    device.measuredComputeCeiling(precision, kind).ifPresent(c ->
                            nominal.computeOf(device.id(), precision).ifPresent(n -> {
                                double measured = c.flopsPerSecond().typical();
                                compute.add(new ComputeRatio(device.id(), precision, kind, measured,
                                        n.flopsPerSecond(), measured / n.flopsPerSecond()));
                            }));
                }
            }
        }
        return new Efficiency(bandwidth, compute);
    }

    /**
     * @param deviceId                the device
     * @param access                  the DRAM access pattern
     * @param measuredBytesPerSecond  the DRAM ceiling
     * @param nominalBytesPerSecond   the datasheet figure
     * @param ratio                   measured over nominal
     */
    public record BandwidthRatio(String deviceId, AccessPattern access, double measuredBytesPerSecond,
                                 double nominalBytesPerSecond, double ratio) {
        public BandwidthRatio {
            Checks.id("efficiency.deviceId", deviceId);
            Checks.present("efficiency.access", access);
            Checks.positive("efficiency.measuredBytesPerSecond", measuredBytesPerSecond);
            Checks.positive("efficiency.nominalBytesPerSecond", nominalBytesPerSecond);
            Checks.positive("efficiency.ratio", ratio);
        }
    }

    /**
     * @param deviceId                the device
     * @param precision               the number format
     * @param kind                    fma-peak or gemm
     * @param measuredFlopsPerSecond  the compute ceiling
     * @param nominalFlopsPerSecond   the datasheet dense peak
     * @param ratio                   measured over nominal
     */
    public record ComputeRatio(String deviceId, Precision precision, ComputeEntry.Kind kind,
                               double measuredFlopsPerSecond, double nominalFlopsPerSecond, double ratio) {
        public ComputeRatio {
            Checks.id("efficiency.deviceId", deviceId);
            Checks.present("efficiency.precision", precision);
            Checks.present("efficiency.kind", kind);
            Checks.positive("efficiency.measuredFlopsPerSecond", measuredFlopsPerSecond);
            Checks.positive("efficiency.nominalFlopsPerSecond", nominalFlopsPerSecond);
            Checks.positive("efficiency.ratio", ratio);
        }
    }
}
