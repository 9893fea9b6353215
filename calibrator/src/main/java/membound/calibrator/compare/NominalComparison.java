package membound.calibrator.compare;

import java.util.ArrayList;
import java.util.List;

import membound.profile.ComputeEntry;
import membound.profile.Device;
import membound.profile.LevelCeiling;
import membound.profile.Nominal;
import membound.profile.Profile;
import membound.vocabulary.MemoryLevel;
import membound.vocabulary.Precision;

/**
 * A profile's measured ceilings against its nominal (datasheet) figures: every DRAM ceiling against the
 * nominal bandwidth of the device's memory, every compute ceiling against the dense nominal peak of its
 * precision. A nominal figure that is unknown is shown with its reason, never filled in.
 *
 * @param profile the profile's name
 * @param rows    one per measured ceiling
 */
public record NominalComparison(String profile, List<Row> rows) {

    /**
     * @param key             the figure (as in {@link Figures})
     * @param unit            bytes/s or FLOP/s
     * @param measured        the measured ceiling
     * @param nominal         the datasheet figure, if known
     * @param ratio           measured / nominal, if known
     * @param nominalSource   where the nominal figure comes from, or why it is unknown
     */
    public record Row(String key, String unit, double measured, Double nominal, Double ratio, String nominalSource) {
    }

    public static NominalComparison of(Profile profile, String name) {
        List<Row> rows = new ArrayList<>();
        Nominal nominal = profile.nominal();
        for (Device device : profile.devices()) {
            for (LevelCeiling ceiling : device.levels()) {
                if (ceiling.level() != MemoryLevel.DRAM || ceiling.standsIn()) {
                    continue;
                }
                String key = device.id() + "/ceiling/DRAM/" + ceiling.access();
                var known = nominal.memoryBandwidthOf(device.id());
                if (known.isPresent()) {
                    double n = known.get().bytesPerSecond();
                    rows.add(new Row(key, Figure.BYTES_PER_SECOND, ceiling.bytesPerSecond(), n,
                            ceiling.bytesPerSecond() / n, Figure.describe(known.get().provenance())));
                } else {
                    String reason = nominal.memoryBandwidth().stream()
                            .filter(m -> m.deviceIds().contains(device.id()) && m.reason() != null)
                            .map(Nominal.MemoryBandwidth::reason).findFirst()
                            .orElse("no nominal memory bandwidth for device " + device.id());
                    rows.add(new Row(key, Figure.BYTES_PER_SECOND, ceiling.bytesPerSecond(), null, null,
                            "unknown: " + reason));
                }
            }
            for (Precision precision : Precision.values()) {
                for (ComputeEntry.Kind kind : ComputeEntry.Kind.CEILINGS) {
                    device.measuredComputeCeiling(precision, kind).ifPresent(c -> {
                        String key = device.id() + "/compute/" + kind + "/" + precision;
                        double measured = c.flopsPerSecond().typical();
                        var known = nominal.computeOf(device.id(), precision);
                        if (known.isPresent()) {
                            double n = known.get().flopsPerSecond();
                            rows.add(new Row(key, Figure.FLOPS_PER_SECOND, measured, n, measured / n,
                                    Figure.describe(known.get().provenance())));
                        } else {
                            String reason = nominal.compute().stream()
                                    .filter(x -> x.deviceId().equals(device.id()) && x.precision() == precision
                                            && x.reason() != null)
                                    .map(Nominal.Compute::reason).findFirst()
                                    .orElse("no nominal " + precision + " figure for device " + device.id());
                            rows.add(new Row(key, Figure.FLOPS_PER_SECOND, measured, null, null, "unknown: " + reason));
                        }
                    });
                }
            }
        }
        return new NominalComparison(name, rows);
    }
}
